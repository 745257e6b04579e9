package dev.colorbench.benchmark.scenario;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.colorbench.benchmark.modules.Layout;
import dev.colorbench.core.palette.Color;
import dev.colorbench.core.palette.ColorJson;
import dev.colorbench.core.palette.Palette;
import dev.colorbench.core.redis.ColorCodec;
import dev.colorbench.testkit.EmbeddedRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The writes scenario's other writer, against a real Redis: what it writes is what a layout then holds, and what it puts back is the palette. */
class StoredPalettesTest {

    private static final List<Layout> REDIS_LAYOUTS = List.of(Layout.JSON_STRINGS, Layout.CACHE_STRINGS, Layout.REPOSITORY_HASHES,
            Layout.PALETTE_STRING, Layout.PALETTE_HASH);

    private static EmbeddedRedis redis;

    private static StoredPalettes store;

    @BeforeAll
    static void start() {
        redis = EmbeddedRedis.start();
        store = StoredPalettes.connect(redis.url(), null);
    }

    @AfterAll
    static void stop() {
        store.close();
        redis.close();
    }

    @Test
    void aChangeIsWhatEveryLayoutHoldsAfterwardsAndThePaletteComesBack() throws Exception {
        store.restore(REDIS_LAYOUTS);
        for (Layout layout : REDIS_LAYOUTS) {
            assertThat(store.held(layout)).as(layout.toString()).isEqualTo(Palette.all());
        }
        int position = Palette.names().indexOf("tomato");
        Color changed = ColorWriter.shade(Palette.all().get(position), 3);

        store.write(REDIS_LAYOUTS, position, changed).get(5, TimeUnit.SECONDS);

        for (Layout layout : REDIS_LAYOUTS) {
            List<Color> expected = new ArrayList<>(Palette.all());
            expected.set(position, changed);
            assertThat(store.held(layout)).as(layout.toString()).isEqualTo(expected);
        }
        assertThat(store.bytesPerChange().get(Layout.PALETTE_STRING)).isEqualTo((double) ColorJson.palette().length());
        store.restore(REDIS_LAYOUTS);
        for (Layout layout : REDIS_LAYOUTS) {
            assertThat(store.held(layout)).as(layout.toString()).isEqualTo(Palette.all());
        }
    }

    @Test
    void everyShadeIsAnotherConsistentColorAsLongAsItsOwn() {
        for (Color color : Palette.all()) {
            Set<String> seen = new HashSet<>(List.of(ColorJson.of(color)));
            for (int shade = 1; shade <= ColorWriter.SHADES; shade++) {
                Color shaded = ColorWriter.shade(color, shade);
                assertThat(ColorCodec.isReadable(color.name(), shaded)).as("%s shade %d", color.name(), shade).isTrue();
                assertThat(ColorJson.of(shaded)).hasSameSizeAs(ColorJson.of(color));
                assertThat(seen.add(ColorJson.of(shaded))).as("%s shade %d is new", color.name(), shade).isTrue();
            }
        }
    }
}
