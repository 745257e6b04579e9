package dev.colorbench.core.jdbc;

import java.util.List;

import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.Palette;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ColorRowsTest {

    private static final Color RED = Palette.find("red").orElseThrow();

    private static final Color TEAL = Palette.find("teal").orElseThrow();

    @Test
    void rowsArePutBackInTheOrderAskedDuplicatesIncluded() {
        assertThat(ColorRows.inOrder(List.of("teal", "red", "teal"), List.of(RED, TEAL))).containsExactly(TEAL, RED, TEAL);
    }

    @Test
    void aNameWithoutARowFailsTheReadInsteadOfShorteningIt() {
        assertThatExceptionOfType(ColorRows.MissingColorsException.class)
                .isThrownBy(() -> ColorRows.inOrder(List.of("teal", "red", "navy", "red"), List.of(TEAL)))
                .withMessage("colorbench.colors has no row for red, navy");
    }
}
