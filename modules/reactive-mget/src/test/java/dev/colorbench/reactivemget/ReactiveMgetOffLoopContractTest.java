package dev.colorbench.reactivemget;

import java.util.Map;

import dev.colorbench.testkit.ColorApiContractTest;

import org.springframework.test.context.TestPropertySource;

/** The contract of the off-loop variant: the same answer and the same MGET, decoded on Reactor's parallel scheduler. */
@TestPropertySource(properties = "colorbench.reactive.decode-on=parallel")
class ReactiveMgetOffLoopContractTest extends ColorApiContractTest {

    ReactiveMgetOffLoopContractTest() {
        super(Map.of("mget", 1L));
    }
}
