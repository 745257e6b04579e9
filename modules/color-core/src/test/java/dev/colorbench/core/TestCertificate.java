package dev.colorbench.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;

/**
 * A throw-away self-signed certificate for 127.0.0.1, made with the JDK's own keytool (no
 * OpenSSL needed) and written as the PEM files Redis reads.
 */
final class TestCertificate {

    private static final String PASSWORD = "test-only";

    private TestCertificate() {
    }

    static EmbeddedRedis.Tls forLoopback() {
        try {
            Path dir = Files.createTempDirectory("colorbench-tls");
            dir.toFile().deleteOnExit();
            Path keyStore = dir.resolve("redis.p12");
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
            Certificate certificate = store.getCertificate("redis");
            Path certificateFile = writePem(dir.resolve("redis.crt"), "CERTIFICATE", certificate.getEncoded());
            Path keyFile = writePem(dir.resolve("redis.key"), "PRIVATE KEY",
                    store.getKey("redis", PASSWORD.toCharArray()).getEncoded());
            return new EmbeddedRedis.Tls(certificateFile, keyFile);
        }
        catch (IOException | InterruptedException | java.security.GeneralSecurityException ex) {
            throw new IllegalStateException("Could not make a test certificate", ex);
        }
    }

    private static Path writePem(Path file, String type, byte[] der) throws IOException {
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der);
        Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n");
        file.toFile().deleteOnExit();
        return file;
    }
}
