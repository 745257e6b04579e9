package dev.colorbench.jdbcloop;

import java.util.Map;

import dev.colorbench.testkit.ColorApiContractTest;
import dev.colorbench.testkit.TestStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JdbcLoopContractTest extends ColorApiContractTest {

    JdbcLoopContractTest() {
        super(TestStore.postgresql(), Map.of("SELECT name, hex, red, green, blue, padding FROM colorbench.colors WHERE name = $1", 148L));
    }

    @Test
    void aSubsetCostsAQueryPerNameAskedDuplicatesIncluded() {
        assertThat(workDuring(() -> get("/colors/tomato")).count()).isEqualTo(1);
        assertThat(workDuring(() -> get("/colors?names=teal,tomato,teal")).count()).isEqualTo(3);
    }
}
