package io.zeocore.connections.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.SecretRef;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PKCS#12 file: modes, atomic writes, encryption at rest, password handling, threads. */
class KeyStoreSecretStoreTest {

  static final OrganizationId ORG = new OrganizationId("org-1");
  static final String CANARY = "sk_live_KEYSTORE_CANARY_51c0";
  static final String ROTATED_CANARY = "sk_live_ROTATED_CANARY_9d2e";

  @TempDir Path dir;

  Path file() {
    return dir.resolve("data/custody/secrets.p12");
  }

  KeyStoreSecretStore open(String password) {
    return KeyStoreSecretStore.open(file(), password.toCharArray());
  }

  static String read(SecretStore store, SecretRef ref) {
    return SecretStoreTest.readBack(store, ref, ORG);
  }

  static String mode(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }

  static boolean containsInAnyEncoding(byte[] haystack, String needle) {
    for (Charset charset : List.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE)) {
      byte[] bytes = needle.getBytes(charset);
      for (int i = 0; i + bytes.length <= haystack.length; i++) {
        if (Arrays.equals(haystack, i, i + bytes.length, bytes, 0, bytes.length)) {
          return true;
        }
      }
    }
    return false;
  }

  List<Path> temporaryFiles() throws Exception {
    try (Stream<Path> files = Files.list(file().getParent())) {
      return files.filter(path -> !path.equals(file())).toList();
    }
  }

  @Test
  void createsTheDirectoryOwnerOnlyAndTheKeystoreFileWithMode0600() throws Exception {
    try (KeyStoreSecretStore store = open("host-password")) {
      assertThat(mode(file())).isEqualTo("rw-------");
      assertThat(mode(file().getParent())).isEqualTo("rwx------");

      store.put(ORG, CANARY.getBytes(StandardCharsets.UTF_8));
      store.put(ORG, ROTATED_CANARY.toCharArray());

      assertThat(mode(file())).isEqualTo("rw-------");
      assertThat(temporaryFiles()).isEmpty();
      assertThat(store.file()).isEqualTo(file());
    }
  }

  @Test
  void neitherMaterialNorHandleEverAppearsInTheFileInClear() throws Exception {
    try (KeyStoreSecretStore store = open("host-password")) {
      SecretRef ref = store.put(ORG, CANARY.toCharArray());
      byte[] afterPut = Files.readAllBytes(file());
      store.rotate(ref, ORG, ROTATED_CANARY.getBytes(StandardCharsets.UTF_8));
      byte[] afterRotate = Files.readAllBytes(file());

      assertThat(read(store, ref)).isEqualTo(ROTATED_CANARY);
      for (byte[] bytes : List.of(afterPut, afterRotate)) {
        assertThat(containsInAnyEncoding(bytes, CANARY)).isFalse();
        assertThat(containsInAnyEncoding(bytes, ROTATED_CANARY)).isFalse();
        assertThat(containsInAnyEncoding(bytes, ref.handle().substring("zc0-ks:org-1:".length()))).isFalse();
        assertThat(containsInAnyEncoding(bytes, "host-password")).isFalse();
      }
      // positive control: the search finds the entry's alias, which the file does hold in clear (its friendly name)
      String alias = Digests.sha256Hex(ref.handle().getBytes(StandardCharsets.UTF_8));
      assertThat(containsInAnyEncoding(afterPut, alias)).isTrue();
    }
  }

  @Test
  void secretsSurviveReopeningAndTheCallersPasswordArrayMayBeZeroedAfterOpen() throws Exception {
    char[] password = "host-password".toCharArray();
    SecretRef ref;
    try (KeyStoreSecretStore store = KeyStoreSecretStore.open(file(), password)) {
      Arrays.fill(password, '\0');
      ref = store.put(ORG, CANARY.toCharArray());
      SecretRef deleted = store.put(ORG, "deleted".toCharArray());
      store.delete(deleted, ORG);
      assertThat(store.toString()).doesNotContain("host-password");
    }

    try (KeyStoreSecretStore reopened = open("host-password")) {
      assertThat(read(reopened, ref)).isEqualTo(CANARY);
      assertThat(reopened.health(ref, ORG).reachable()).isTrue();
    }
  }

  @Test
  void aWrongPasswordFailsToOpenWithAMessageNamingThePathButNotThePassword() {
    open("right-password").close();

    Throwable failure = catchThrowable(() -> open("wrong-password"));

    assertThat(failure).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(file().toString()).hasMessageContaining("wrong password or corrupt keystore")
        .hasMessageNotContaining("wrong-password").hasMessageNotContaining("right-password");
  }

  @Test
  void aFileThatIsNotAKeystoreFailsToOpenAndIsLeftAlone() throws Exception {
    Files.createDirectories(file().getParent());
    Files.writeString(file(), "not a keystore");

    assertThatThrownBy(() -> open("host-password")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(file().toString());
    assertThat(Files.readString(file())).isEqualTo("not a keystore");
  }

  @Test
  void anExistingKeystoreIsTightenedTo0600AndLeftoverTemporaryFilesAreRemoved() throws Exception {
    open("host-password").close();
    Files.setPosixFilePermissions(file(), PosixFilePermissions.fromString("rw-r--r--"));
    Path leftover = file().resolveSibling(".secrets.p12.123456.tmp");
    Path unrelated = file().resolveSibling("notes.tmp");
    Files.writeString(leftover, "partial write");
    Files.writeString(unrelated, "keep me");

    open("host-password").close();

    assertThat(mode(file())).isEqualTo("rw-------");
    assertThat(leftover).doesNotExist();
    assertThat(unrelated).exists();
  }

  @Test
  void emptyPasswordsAreRefused() {
    assertThatThrownBy(() -> KeyStoreSecretStore.open(file(), new char[0]))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("keystore password must not be empty");
    assertThat(file()).doesNotExist();
  }

  @Test
  void closingMakesEveryLaterOperationAnUnreachableBackend() {
    KeyStoreSecretStore store = open("host-password");
    SecretRef ref = store.put(ORG, CANARY.toCharArray());
    SecretLease lease = store.resolve(ref, ORG);

    store.close();

    assertThat(SecretStoreTest.codeOf(() -> store.resolve(ref, ORG)))
        .isEqualTo(CustodyErrorCode.CUSTODY_BACKEND_FAILURE);
    assertThat(SecretStoreTest.codeOf(() -> store.put(ORG, new byte[] {1})))
        .isEqualTo(CustodyErrorCode.CUSTODY_BACKEND_FAILURE);
    assertThat(SecretStoreTest.codeOf(() -> store.redeem(lease, ORG, m -> "called", r -> List.of())))
        .isEqualTo(CustodyErrorCode.CUSTODY_BACKEND_FAILURE);
    assertThat(store.health(ref, ORG).detail()).isEqualTo("secret store unreachable");
  }

  @Test
  void aFailedWriteLeavesNoTemporaryFileAndTheStoreNeverRunsAheadOfItsFile() throws Exception {
    KeyStoreSecretStore store = open("host-password");
    SecretRef kept = store.put(ORG, CANARY.toCharArray());
    byte[] good = Files.readAllBytes(file());
    // a non-empty directory where the keystore was: the atomic rename onto it fails
    Files.delete(file());
    Files.createDirectories(file().resolve("blocker"));

    assertThat(SecretStoreTest.codeOf(() -> store.put(ORG, ROTATED_CANARY.toCharArray())))
        .isEqualTo(CustodyErrorCode.CUSTODY_BACKEND_FAILURE);
    assertThat(temporaryFiles()).isEmpty();
    // memory could not be reloaded from a file that is no longer a keystore, so the store refuses to go on
    assertThat(SecretStoreTest.codeOf(() -> store.resolve(kept, ORG)))
        .isEqualTo(CustodyErrorCode.CUSTODY_BACKEND_FAILURE);

    Files.delete(file().resolve("blocker"));
    Files.delete(file());
    Files.write(file(), good);
    try (KeyStoreSecretStore reopened = open("host-password")) {
      assertThat(read(reopened, kept)).isEqualTo(CANARY);
    }
  }

  @Test
  void concurrentWritersAllPersist() throws Exception {
    List<SecretRef> refs = new ArrayList<>();
    try (KeyStoreSecretStore store = open("host-password")) {
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<Callable<SecretRef>> puts = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
          String material = "material-" + i;
          puts.add(() -> store.put(ORG, material.toCharArray()));
        }
        for (Future<SecretRef> future : pool.invokeAll(puts)) {
          refs.add(future.get());
        }
      } finally {
        pool.shutdownNow();
      }
    }

    try (KeyStoreSecretStore reopened = KeyStoreSecretStore.open(file(), "host-password".toCharArray(),
        Clock.systemUTC(), SecretStore.DEFAULT_LEASE_TTL)) {
      for (int i = 0; i < refs.size(); i++) {
        assertThat(read(reopened, refs.get(i))).isEqualTo("material-" + i);
      }
    }
  }
}
