package dev.colorbench.inmemory;

import java.util.Map;

import dev.colorbench.core.web.ColorStore;
import dev.colorbench.core.web.EncodedColorStore;
import dev.colorbench.testkit.ColorApiContractTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

class InMemoryContractTest extends ColorApiContractTest {

    InMemoryContractTest() {
        super(Map.of());
    }

    @Test
    void byDefaultServesJsonRenderedOnce(@Autowired ApplicationContext context) {
        assertThat(context.getBeansOfType(EncodedColorStore.class)).containsOnlyKeys("inMemoryEncodedColorStore");
        assertThat(context.getBeansOfType(ColorStore.class)).isEmpty();
    }
}
