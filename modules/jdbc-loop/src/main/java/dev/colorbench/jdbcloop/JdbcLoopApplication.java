package dev.colorbench.jdbcloop;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The pool (HikariCP), its time-outs, the schema and its migration come from Spring Boot as
 * color-core configures it ({@code colorbench/jdbc-defaults.yml}, {@code ColorSchema}), shared with
 * jdbc-batch: the module itself is only its store.
 */
@SpringBootApplication
public class JdbcLoopApplication {

    public static void main(String[] args) {
        SpringApplication.run(JdbcLoopApplication.class, args);
    }
}
