package dev.colorbench.benchmark.run;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** A profile's samples go to the bucket of the frame nearest the top of their stack, so that the work inside a request is named by what it is. */
class ProfilerTest {

    @Test
    void eachSampleCountsInTheBucketOfTheFrameNearestTheTopOfItsStack() {
        List<String> collapsed = List.of(
                "java/lang/Thread.run;org/apache/tomcat/util/threads/TaskThread$WrappingRunnable.run;"
                        + "org/springframework/web/servlet/DispatcherServlet.doDispatch;tools/jackson/databind/ObjectWriter.writeValue;"
                        + "java/lang/Class.cast;JVM_IsArrayClass 30",
                "java/lang/Thread.run;org/apache/tomcat/util/net/NioEndpoint$SocketProcessor.doRun;"
                        + "org/springframework/web/servlet/DispatcherServlet.doDispatch;io/lettuce/core/RedisAsyncCommandsImpl.mget 20",
                "java/lang/Thread.run;org/apache/coyote/http11/Http11Processor.service;dev/colorbench/mgetraw/MgetRawController.colors;"
                        + "jlong_disjoint_arraycopy_avx3 10",
                "java/lang/Thread.run;org/apache/coyote/http11/Http11Processor.service;org/apache/coyote/Response.action 15",
                "java/lang/Thread.run;io/lettuce/core/protocol/CommandHandler.channelRead;java/util/concurrent/CompletableFuture.complete;"
                        + "futex_wake_[k] 6",
                "clone3;start_thread;thread_native_entry;GangWorker::run;PSPromotionManager::drain_stacks_depth 9",
                "java/lang/Thread.run;io/netty/channel/nio/NioEventLoop.run;sun/nio/ch/EPoll.wait;do_epoll_wait_[k] 5",
                "start_thread;thread_native_entry;CompileBroker::compiler_thread_loop 4",
                "start_thread;something_else 1");

        Profiler.Profile profile = Profiler.summarise(collapsed, "profiles/template-mget.html");

        assertThat(profile.samples()).isEqualTo(100);
        assertThat(profile.buckets()).containsOnlyKeys(Profiler.buckets().toArray(String[]::new));
        assertThat(profile.buckets().get("JSON")).isCloseTo(30, within(1e-9));
        assertThat(profile.buckets().get("Redis client")).isCloseTo(20, within(1e-9));
        assertThat(profile.buckets().get("the module's code")).isCloseTo(10, within(1e-9));
        assertThat(profile.buckets().get("HTTP server")).isCloseTo(15, within(1e-9));
        assertThat(profile.buckets().get("scheduling and thread handoffs")).isCloseTo(6, within(1e-9));
        assertThat(profile.buckets().get("GC")).isCloseTo(9, within(1e-9));
        assertThat(profile.buckets().get("network (kernel, Netty)")).isCloseTo(5, within(1e-9));
        assertThat(profile.buckets().get("JIT compiler")).isCloseTo(4, within(1e-9));
        assertThat(profile.buckets().get("other")).isCloseTo(1, within(1e-9));
        assertThat(profile.buckets().values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(100, within(1e-9));
    }

    @Test
    void anEmptyProfileHasNoSharesRatherThanNaN() {
        assertThat(Profiler.summarise(List.of(), "x.html").buckets().values()).containsOnly(0.0);
    }
}
