package dev.colorbench.core.palette;

import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.web.ErrorResponseException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ColorNamesTest {

    @Test
    void namesAreLowerCasedAndKeepTheirOrder() {
        assertThat(ColorNames.list("Teal,RED,teal")).containsExactly("teal", "red", "teal");
        assertThat(ColorNames.single("DarkSlateGrey")).isEqualTo("darkslategrey");
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "red,", ",red", "re d", "red\r\nFLUSHALL", "colors::v3::red", "*", "re?", "../red",
            "%72ed", "rouge\u00e9", "\u0433\u0440\u0430\u0439" })
    void malformedNamesAreBadRequests(String input) {
        assertThatThrownBy(() -> ColorNames.list(input)).isInstanceOfSatisfying(ErrorResponseException.class,
                ex -> assertThat(ex.getStatusCode().value()).isEqualTo(400));
    }

    @Test
    void unknownNamesAreNotFoundAndListedOnce() {
        assertThatThrownBy(() -> ColorNames.list("red,nope,nope,zzz")).isInstanceOfSatisfying(ErrorResponseException.class, ex -> {
            assertThat(ex.getStatusCode().value()).isEqualTo(404);
            assertThat(ex.getBody().getProperties()).containsEntry("unknownNames", List.of("nope", "zzz"));
        });
    }

    @Test
    void theNameCountIsBounded() {
        assertThat(ColorNames.list(String.join(",", Collections.nCopies(1000, "red")))).hasSize(1000);
        assertThatThrownBy(() -> ColorNames.list(String.join(",", Collections.nCopies(1001, "red"))))
                .isInstanceOfSatisfying(ErrorResponseException.class, ex -> assertThat(ex.getStatusCode().value()).isEqualTo(400));
    }

    @Test
    void badInputIsEchoedBoundedAndWithoutControlCharacters() {
        assertThatThrownBy(() -> ColorNames.single("a\r\nb")).isInstanceOfSatisfying(ErrorResponseException.class,
                ex -> assertThat(ex.getBody().getDetail()).contains("a\\u000d\\u000ab").doesNotContain("\r"));
    }
}
