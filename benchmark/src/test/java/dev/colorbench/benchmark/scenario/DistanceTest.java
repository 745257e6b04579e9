package dev.colorbench.benchmark.scenario;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.colorbench.benchmark.BenchmarkSettings;
import dev.colorbench.benchmark.modules.ModuleCatalog;
import dev.colorbench.benchmark.modules.Target;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The distance scenario finds the row it compares with the source post by its role, the run's reference, not by its name. */
class DistanceTest {

    private static final ModuleCatalog CATALOG = ModuleCatalog.read(Path.of(".."));

    private static final List<Target> ROWS = CATALOG.targets(List.of("cacheable-loop", "template-mget", "cacheable-multiget"));

    private static final Map<String, Double> ROUND_TRIPS = Map.of("cacheable-loop", 148.0, "template-mget", 1.0, "cacheable-multiget", 1.0);

    @Test
    void theReferenceRowMeetsTheSourcePostsFigureForItsPatternFromItsPom() {
        BenchmarkSettings settings = settings(null);

        assertThat(Distance.referenceReachingTheSourcePost(settings, ROWS, ROUND_TRIPS, 0.05)).hasValueSatisfying(note -> assertThat(note)
                .contains("the reference row, " + settings.reference() + ",")
                .contains("source post's 65 TPS")
                .contains("%.2f ms".formatted(settings.threads() * 1000.0 / (148 * 65))));
    }

    @Test
    void anotherReferenceIsFoundTheSameWay() {
        BenchmarkSettings settings = settings("template-mget");

        assertThat(Distance.referenceReachingTheSourcePost(settings, ROWS, ROUND_TRIPS, 0.05)).hasValueSatisfying(note -> assertThat(note)
                .contains("the reference row, template-mget,")
                .contains("source post's 180 TPS")
                .contains("%.2f ms".formatted(settings.threads() * 1000.0 / 180)));
    }

    @Test
    void noNoteWithoutTheReferenceAmongTheRowsOrWithoutASourcePostFigure() {
        assertThat(Distance.referenceReachingTheSourcePost(settings(null), ROWS.subList(1, 3), ROUND_TRIPS, 0.05)).isEmpty();
        assertThat(Distance.referenceReachingTheSourcePost(settings("cacheable-multiget"), ROWS, ROUND_TRIPS, 0.05)).isEmpty();
    }

    private static BenchmarkSettings settings(String reference) {
        Properties properties = new Properties();
        if (reference != null) {
            properties.setProperty("benchmark.reference", reference);
        }
        return BenchmarkSettings.from(properties, Map.of());
    }
}
