package dev.colorbench.benchmark.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The JDK the modules run on: the one at {@code benchmark.javaHome}, read from its {@code release}
 * file, or the one running the benchmark.
 */
public record Jdk(int feature, String description) {

    public static Jdk of(Path javaHome) {
        if (javaHome == null) {
            return new Jdk(Runtime.version().feature(),
                    System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        }
        Properties release = new Properties();
        try (var reader = Files.newBufferedReader(javaHome.resolve("release"))) {
            release.load(reader);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Cannot tell the version of the JDK at " + javaHome + " (benchmark.javaHome)", ex);
        }
        String version = release.getProperty("JAVA_VERSION", "\"0\"").replace("\"", "");
        String implementor = release.getProperty("IMPLEMENTOR", "\"\"").replace("\"", "");
        return new Jdk(Integer.parseInt(version.split("[.+-]")[0]), (implementor + " " + version + " (" + javaHome + ")").trim());
    }
}
