package dev.colorbench.redis.nearcache;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.colorbench.redis.nearcache.NearCacheProperties.ShareValues;
import org.junit.jupiter.api.Test;

import org.springframework.cache.support.NullValue;

import static org.assertj.core.api.Assertions.assertThat;

/** Which values a {@code @Cacheable} hit hands out as they are, under each setting of {@code share-values}. */
class ShareValuesTest {

    record Item(String name, int version) {
    }

    /** A value whose state a caller can change. */
    static final class Counter {

        int count;
    }

    @Test
    void byDefaultOnlyTypesNoCallerCanChangeAreShared() {
        assertThat(new NearCacheProperties().getCacheManager().getShareValues()).isEqualTo(ShareValues.IMMUTABLE);
        List<Object> shared = List.of(new Item("teal", 1), "teal", 42, 42L, 1.5, true, 'x', new BigDecimal("1.50"),
                UUID.randomUUID(), Instant.now(), Duration.ofSeconds(1), TimeUnit.SECONDS, NullValue.INSTANCE);
        List<Object> copied = List.of(new ArrayList<>(List.of("teal")), List.of("teal"), new Counter(), new Date(), new int[] { 1 },
                new StringBuilder("teal"));

        assertThat(shared).allMatch(ShareValues.IMMUTABLE::shares);
        assertThat(copied).noneMatch(ShareValues.IMMUTABLE::shares);
        assertThat(ShareValues.IMMUTABLE.shares(null)).isTrue();
    }

    @Test
    void allSharesEverythingAndNoneNothingButNull() {
        assertThat(List.of(new Counter(), new ArrayList<>(), new Item("teal", 1))).allMatch(ShareValues.ALL::shares);
        assertThat(List.of(new Counter(), new ArrayList<>(), new Item("teal", 1), "teal")).noneMatch(ShareValues.NONE::shares);
        assertThat(ShareValues.NONE.shares(null)).isTrue();
        assertThat(ShareValues.NONE.shares(NullValue.INSTANCE)).isTrue();
    }
}
