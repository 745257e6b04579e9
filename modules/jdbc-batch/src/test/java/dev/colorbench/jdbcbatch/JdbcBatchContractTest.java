package dev.colorbench.jdbcbatch;

import java.util.Collections;
import java.util.Map;

import dev.colorbench.core.palette.ColorNames;
import dev.colorbench.testkit.ColorApiContractTest;
import dev.colorbench.testkit.TestStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JdbcBatchContractTest extends ColorApiContractTest {

    private static final String SELECT_ANY = "SELECT name, hex, red, green, blue, padding FROM colorbench.colors WHERE name = ANY($1)";

    JdbcBatchContractTest() {
        super(TestStore.postgresql(), Map.of(SELECT_ANY, 1L));
    }

    @Test
    void anySubsetIsTheSameOneQueryWhateverItsLengthAndDuplicates() {
        String mostNames = String.join(",", Collections.nCopies(ColorNames.MAX_NAMES, "red"));

        assertThat(workDuring(() -> get("/colors/tomato")).byName()).isEqualTo(Map.of(SELECT_ANY, 1L));
        assertThat(workDuring(() -> get("/colors?names=teal,tomato,teal")).byName()).isEqualTo(Map.of(SELECT_ANY, 1L));
        assertThat(workDuring(() -> get("/colors?names=" + mostNames)).byName()).isEqualTo(Map.of(SELECT_ANY, 1L));
    }
}
