package dev.colorbench.inmemory;

import java.util.Map;

import dev.colorbench.core.web.ColorStore;
import dev.colorbench.core.web.EncodedColorStore;
import dev.colorbench.testkit.ColorApiContractTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** The pom's {@code objects} variant: the same contract, the colors written by Jackson per request. */
@TestPropertySource(properties = InMemoryApplication.RENDER + "=objects")
class InMemoryObjectsContractTest extends ColorApiContractTest {

    InMemoryObjectsContractTest() {
        super(Map.of());
    }

    @Test
    void servesObjects(@Autowired ApplicationContext context) {
        assertThat(context.getBeansOfType(ColorStore.class)).containsOnlyKeys("inMemoryColorStore");
        assertThat(context.getBeansOfType(EncodedColorStore.class)).isEmpty();
    }
}
