package io.zeocore.sample;

import io.zeocore.connections.authorization.Ed25519Keys;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Prepares the sample's data directory ({@code sample.data-dir}, default {@code ./data}) before any bean is
 * created, so that {@code application.yml} can point at what it holds:
 *
 * <ul>
 *   <li>{@code providers/text-stats.sh}, the subprocess provider shipped with the sample (copied from the classpath);
 *   <li>{@code demo-issuer/public.pem} and {@code private.pem}, a fresh Ed25519 key pair of the demo authorization
 *       issuer, generated at every start. The public key is trusted through
 *       {@code zeocore.connections.authorization.trust-roots}; the private key signs the demo's authorizations. A real
 *       deployment never holds its issuer's private key: the authority ("ZEO Go") does.
 * </ul>
 */
public final class SampleWorkspace implements EnvironmentPostProcessor {

  static final String DATA_DIR_PROPERTY = "sample.data-dir";

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
    Path dataDir = dataDir(environment.getProperty(DATA_DIR_PROPERTY, "./data"));
    try {
      directory(dataDir);
      Path providers = directory(dataDir.resolve("providers"));
      try (InputStream script = SampleWorkspace.class.getResourceAsStream("/providers/text-stats.sh")) {
        if (script == null) {
          throw new IllegalStateException("providers/text-stats.sh is missing from the sample's classpath");
        }
        Path target = providers.resolve("text-stats.sh");
        Files.copy(script, target, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwx------"));
      }
      Path issuer = directory(dataDir.resolve("demo-issuer"));
      KeyPair keys = Ed25519Keys.generate();
      write(issuer.resolve("public.pem"), Ed25519Keys.publicKeyPem(keys.getPublic()));
      write(issuer.resolve("private.pem"), Ed25519Keys.privateKeyPem(keys.getPrivate()));
    } catch (IOException failure) {
      throw new UncheckedIOException("cannot prepare the sample's data directory " + dataDir, failure);
    }
  }

  static Path dataDir(String configured) {
    return Path.of(configured).toAbsolutePath().normalize();
  }

  private static Path directory(Path path) throws IOException {
    Files.createDirectories(path);
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
    return path;
  }

  private static void write(Path file, String text) throws IOException {
    Path temporary = Files.createTempFile(file.getParent(), ".key", ".tmp",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(temporary, text, StandardCharsets.US_ASCII);
    Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
