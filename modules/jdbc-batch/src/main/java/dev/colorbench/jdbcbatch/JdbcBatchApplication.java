package dev.colorbench.jdbcbatch;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The pool (HikariCP), its time-outs, the schema and its migration come from Spring Boot as
 * color-core configures it ({@code colorbench/jdbc-defaults.yml}, {@code ColorSchema}), shared with
 * jdbc-loop: the module itself is only its store.
 */
@SpringBootApplication
public class JdbcBatchApplication {

    public static void main(String[] args) {
        SpringApplication.run(JdbcBatchApplication.class, args);
    }
}
