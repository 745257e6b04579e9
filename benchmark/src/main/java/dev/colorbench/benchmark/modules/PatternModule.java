package dev.colorbench.benchmark.modules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One module as its pom describes it.
 *
 * @param id its folder under {@code modules/} and its artifactId
 * @param pattern how it reads the palette: the pom's description
 * @param port where it listens when started by hand or by docker compose
 * @param stack MVC or WebFlux
 * @param sourcePostTps the source post's figure for this pattern, measured on another machine and stack; {@code null} if none
 * @param nearCache whether it answers from a local copy that Redis invalidates (the benchmark then measures how stale it gets)
 * @param layout where it keeps the palette, for another client to change and read back
 * @param knownStale for a module that keeps a copy and is known to serve stale answers for good in some cases, when (one
 *        sentence, its README has the rest); {@code null} for every other: a stale answer from it fails the run
 * @param tuning what the module sets beyond the stock pattern and the settings color-core gives every module, in a few
 *        words; {@code null} for none
 * @param variants extra rows of the same module with other settings
 * @param clusterVariants rows of the same module with other settings that only a Redis Cluster tells apart (the
 *        {@code cluster} scenario runs them beside the module on the cluster), e.g. keys hash-tagged into one slot
 */
public record PatternModule(String id, String pattern, int port, String stack, Role role, Store store, Integer sourcePostTps,
        boolean nearCache, Layout layout, String knownStale, String tuning, List<Variant> variants, List<Variant> clusterVariants) {

    public PatternModule {
        variants = List.copyOf(variants);
        clusterVariants = List.copyOf(clusterVariants);
    }

    /** Whether the row is one of this module's variants declared as the stock setting of what the module tunes. */
    public boolean isStock(Target target) {
        return variants.stream().anyMatch(variant -> variant.stock() && target.id().startsWith(id + "+" + variant.name()));
    }

    /**
     * The runnable jar of the module's {@code copy/} the build made ({@code ./mvnw package}, whose default profile builds the
     * copies), or null where the module has no copy or it was not built.
     */
    public Path copyJar(Path repositoryRoot) {
        Path target = repositoryRoot.resolve("modules").resolve(id).resolve("copy").resolve("target");
        if (!Files.isDirectory(target)) {
            return null;
        }
        try (var files = Files.list(target)) {
            return files.filter(file -> file.getFileName().toString().startsWith(id + "-copy-") && file.getFileName().toString().endsWith(".jar"))
                    .sorted().findFirst().orElse(null);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot list " + target, ex);
        }
    }

    /** Whether the module has a {@code copy/}, the application its README shows. */
    public boolean hasCopy(Path repositoryRoot) {
        return Files.isRegularFile(repositoryRoot.resolve("modules").resolve(id).resolve("copy").resolve("pom.xml"));
    }

    /** The runnable jar the build made, under the repository root. */
    public Path jar(Path repositoryRoot, String version) {
        return repositoryRoot.resolve("modules").resolve(id).resolve("target").resolve(id + "-" + version + ".jar");
    }
}
