package dev.colorbench.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;

import org.springframework.util.FileSystemUtils;

/**
 * A throw-away self-signed certificate for 127.0.0.1, made with the JDK's own keytool (no
 * OpenSSL needed) and written as the PEM files Redis reads, in a temporary folder that
 * {@link #close()} removes.
 */
final class TestCertificate implements AutoCloseable {

    private static final String PASSWORD = "test-only";

    private final Path directory;

    private final EmbeddedRedis.Tls files;

    private TestCertificate(Path directory, EmbeddedRedis.Tls files) {
        this.directory = directory;
        this.files = files;
    }

    static TestCertificate forLoopback() {
        try {
            Path directory = Files.createTempDirectory("colorbench-tls");
            Path keyStore = directory.resolve("redis.p12");
            Process keytool = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair", "-alias", "redis", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=127.0.0.1", "-ext", "san=ip:127.0.0.1", "-storetype", "PKCS12",
                    "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(keytool.getInputStream().readAllBytes());
            if (keytool.waitFor() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(keyStore)) {
                store.load(in, PASSWORD.toCharArray());
            }
            Path certificate = writePem(directory.resolve("redis.crt"), "CERTIFICATE", store.getCertificate("redis").getEncoded());
            Path key = writePem(directory.resolve("redis.key"), "PRIVATE KEY", store.getKey("redis", PASSWORD.toCharArray()).getEncoded());
            return new TestCertificate(directory, new EmbeddedRedis.Tls(certificate, key));
        }
        catch (IOException | InterruptedException | GeneralSecurityException ex) {
            throw new IllegalStateException("Could not make a test certificate", ex);
        }
    }

    EmbeddedRedis.Tls files() {
        return files;
    }

    @Override
    public void close() {
        try {
            FileSystemUtils.deleteRecursively(directory);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static Path writePem(Path file, String type, byte[] der) throws IOException {
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der);
        Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n");
        return file;
    }
}
