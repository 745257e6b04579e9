package dev.colorbench.reactivemget;

import java.util.Map;

import dev.colorbench.testkit.ColorApiContractTest;

import org.springframework.test.context.TestPropertySource;

/** The contract of the on-loop variant, the stock chain: the same answer and the same MGET, decoded on Lettuce's event loop. */
@TestPropertySource(properties = "colorbench.reactive.decode-on=event-loop")
class ReactiveMgetOnLoopContractTest extends ColorApiContractTest {

    ReactiveMgetOnLoopContractTest() {
        super(Map.of("mget", 1L));
    }
}
