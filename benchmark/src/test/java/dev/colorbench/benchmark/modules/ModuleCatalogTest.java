package dev.colorbench.benchmark.modules;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The benchmark finds its modules in the build: the list in modules/pom.xml, each described by its own pom. */
class ModuleCatalogTest {

    private static final Path REPOSITORY = Path.of("..");

    private final ModuleCatalog catalog = ModuleCatalog.read(REPOSITORY);

    @Test
    void describesEveryModuleOfTheRepositoryFromItsPom() {
        PatternModule ceiling = catalog.modules().get(0);
        assertThat(ceiling.id()).isEqualTo("in-memory");
        assertThat(ceiling.role()).isEqualTo(Role.CEILING);
        assertThat(ceiling.store()).isEqualTo(Store.NONE);
        assertThat(ceiling.sourcePostTps()).isNull();
        assertThat(module("cacheable-loop").sourcePostTps()).isEqualTo(65);
        assertThat(module("template-mget").port()).isEqualTo(8083);
        assertThat(module("reactive-mget").stack()).isEqualTo("WebFlux");
        assertThat(module("reactive-mget").pattern()).contains("Mono<List<Color>>");
        assertThat(catalog.modules()).filteredOn(module -> !module.clusterVariants().isEmpty()).extracting(PatternModule::id)
                .containsExactly("template-mget", "mget-raw", "mget-floor");
        assertThat(catalog.modules()).extracting(PatternModule::port).doesNotHaveDuplicates().allMatch(port -> port >= 8080);
        // where each keeps the palette, for the writes scenario's other writer
        assertThat(ceiling.layout()).isEqualTo(Layout.NONE);
        assertThat(module("template-mget").layout()).isEqualTo(Layout.JSON_STRINGS);
        assertThat(module("cacheable-async").layout()).isEqualTo(Layout.CACHE_STRINGS);
        assertThat(module("cacheable-list").layout()).isEqualTo(Layout.PALETTE_STRING);
        assertThat(module("hash-hmget").layout()).isEqualTo(Layout.PALETTE_HASH);
        assertThat(module("redis-hash-repository").layout()).isEqualTo(Layout.REPOSITORY_HASHES);
        assertThat(catalog.modules()).filteredOn(module -> module.store() == Store.POSTGRESQL).extracting(PatternModule::layout)
                .containsOnly(Layout.TABLE);
    }

    @Test
    void everyModuleFolderIsListedAndEveryListedModuleHasAFolder() throws IOException {
        try (Stream<Path> folders = Files.list(REPOSITORY.resolve("modules"))) {
            List<String> withAPom = folders.filter(folder -> Files.isRegularFile(folder.resolve("pom.xml")))
                    .map(folder -> folder.getFileName().toString()).toList();
            assertThat(catalog.modules()).extracting(PatternModule::id).containsExactlyInAnyOrderElementsOf(withAPom);
        }
    }

    @Test
    void aNewModuleIsAFolderAndOneLine(@TempDir Path repository) throws IOException {
        Files.createDirectories(repository.resolve("modules/first"));
        Files.createDirectories(repository.resolve("modules/second"));
        Files.writeString(repository.resolve("modules/pom.xml"), pom("colorbench-modules", "the parent", """
                <colorbench.port>0</colorbench.port><colorbench.stack>MVC</colorbench.stack>
                <colorbench.role>redis-pattern</colorbench.role><colorbench.store>redis</colorbench.store>
                <colorbench.sourcePostTps>none</colorbench.sourcePostTps><colorbench.nearCache>false</colorbench.nearCache>
                <colorbench.variants>none</colorbench.variants><colorbench.clusterVariants>none</colorbench.clusterVariants>
                <colorbench.layout>json-strings</colorbench.layout><colorbench.knownStale>none</colorbench.knownStale>
                <colorbench.tuning>none</colorbench.tuning>
                """, "<modules><module>first</module><module>second</module></modules>"));
        Files.writeString(repository.resolve("modules/first/pom.xml"), pom("first", "A first pattern",
                "<colorbench.port>9001</colorbench.port><colorbench.clusterVariants>hash-tag: colorbench.redis.hash-tag=true</colorbench.clusterVariants>",
                ""));
        Files.writeString(repository.resolve("modules/second/pom.xml"), pom("second", "A second pattern",
                "<colorbench.port>9002</colorbench.port><colorbench.stack>WebFlux</colorbench.stack>"
                        + "<colorbench.variants>jedis: spring.data.redis.client-type=jedis; vt: spring.threads.virtual.enabled=true; "
                        + "loop (stock, when named): a=b</colorbench.variants>",
                ""));

        ModuleCatalog found = ModuleCatalog.read(repository);

        assertThat(found.modules()).extracting(PatternModule::id).containsExactly("first", "second");
        // a variant marked (when named) is a row only when named
        assertThat(found.targets(List.of())).extracting(Target::id).containsExactly("first", "second", "second+jedis", "second+vt");
        assertThat(found.targets(List.of("second+loop"))).extracting(Target::id).containsExactly("second+loop");
        // a cluster variant is not a row of the headline: only the cluster scenario starts it, on the cluster
        PatternModule first = found.modules().get(0);
        assertThat(first.clusterVariants()).containsExactly(new Variant("hash-tag", Map.of("colorbench.redis.hash-tag", "true")));
        Target hashTagged = Target.onCluster(first, first.clusterVariants().get(0));
        assertThat(hashTagged.id()).isEqualTo("first+hash-tag@cluster");
        assertThat(hashTagged.redisCluster()).isTrue();
        assertThat(hashTagged.arguments()).containsExactly("--colorbench.redis.hash-tag=true");
        Target jedis = found.targets(List.of("second+jedis")).get(0);
        assertThat(jedis.module().stack()).isEqualTo("WebFlux");
        assertThat(jedis.arguments()).containsExactly("--spring.data.redis.client-type=jedis");
        assertThatThrownBy(() -> found.targets(List.of("third"))).hasMessageContaining("Unknown module 'third'")
                .hasMessageContaining("first,second,second+jedis,second+vt,second+loop");
    }

    @Test
    void aVariantNeedsANameAndSettings() {
        assertThat(Variant.parse("none")).isEmpty();
        assertThat(Variant.parse("objects: colorbench.render=objects")).containsExactly(
                new Variant("objects", Map.of("colorbench.render", "objects")));
        assertThat(Variant.parse("on-loop (stock): colorbench.reactive.decode-on=event-loop")).containsExactly(
                new Variant("on-loop", Map.of("colorbench.reactive.decode-on", "event-loop"), true));
        assertThat(Variant.parse("on-loop (stock, when named): a=b")).containsExactly(new Variant("on-loop", Map.of("a", "b"), true, true));
        assertThat(Variant.parse("observed (when named): a=b")).containsExactly(new Variant("observed", Map.of("a", "b"), false, true));
        assertThatThrownBy(() -> Variant.parse("on-loop (stok): a=b")).hasMessageContaining("'stok'");
        assertThatThrownBy(() -> Variant.parse("jedis")).hasMessageContaining("name: key=value");
    }

    @Test
    void aStockVariantIsKnownByItsRowsOnly() {
        PatternModule module = new PatternModule("reactive-mget", "MGET", 8084, "WebFlux", Role.REDIS_PATTERN, Store.REDIS, null, false, Layout.JSON_STRINGS,
                null, "decoded off the event loop", Variant.parse("on-loop (stock): colorbench.reactive.decode-on=event-loop; jedis: a=b"), List.of());
        assertThat(module.isStock(Target.of(module, module.variants().get(0)))).isTrue();
        assertThat(module.isStock(Target.of(module, module.variants().get(1)))).isFalse();
        assertThat(module.isStock(Target.of(module))).isFalse();
    }

    private PatternModule module(String id) {
        return catalog.modules().stream().filter(module -> module.id().equals(id)).findFirst().orElseThrow();
    }

    private static String pom(String artifactId, String description, String properties, String modules) {
        return """
                <project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
                <artifactId>%s</artifactId><description>%s</description><properties>%s</properties>%s</project>
                """.formatted(artifactId, description, properties, modules);
    }
}
