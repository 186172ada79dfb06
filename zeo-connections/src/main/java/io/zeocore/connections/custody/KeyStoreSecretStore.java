package io.zeocore.connections.custody;

import io.zeocore.connections.contract.Digests;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SecretStore} backed by a PKCS#12 keystore file, portable across operating systems.
 *
 * <h2>File</h2>
 * <ul>
 *   <li>{@link #open} creates a missing directory with mode {@code 0700} and a missing keystore with mode {@code 0600}
 *       (on POSIX file systems), and tightens an existing keystore file to {@code 0600}.
 *   <li>Every change is written atomically: the whole keystore goes to a new {@code 0600} temporary file in the same
 *       directory, which is forced to disk and then renamed over the keystore ({@code ATOMIC_MOVE}); the directory is
 *       forced after the rename where the platform allows. A crash leaves either the old or the new keystore. If a write
 *       fails, the in-memory state is reloaded from the file, so memory never runs ahead of disk.
 *   <li>One process owns the file: changes made by other processes after {@code open} are not seen, and would be
 *       overwritten.
 * </ul>
 *
 * <h2>Entries</h2>
 * Each secret is a {@code SecretKeyEntry} (algorithm name {@code HmacSHA256}, which accepts material of any length),
 * encrypted with the host's password under {@code PBEWithHmacSHA256AndAES_256}; the file's integrity is protected by
 * the same password. The alias is the SHA-256 hex of the handle: PKCS#12 aliases are case-insensitive, and a hash keeps
 * the handle (and the organization in it) out of the file. Neither material nor handle appears in the file in clear.
 *
 * <h2>Password and memory</h2>
 * The password {@code char[]} is copied at {@code open} (the caller may zero its own array) and zeroed by
 * {@link #close()}; it is never printed. Material is decrypted only when a lease is redeemed. Arrays this class owns
 * are zeroed after use; copies made inside the JDK's keystore implementation cannot be zeroed and stay on the heap
 * until collected.
 *
 * <h2>Threads</h2>
 * Thread-safe: one lock guards the keystore and its file. Reading a secret costs a key derivation (a few
 * milliseconds), so redemptions are serialized at that rate.
 */
public final class KeyStoreSecretStore extends SecretStore implements AutoCloseable {

  private static final String KEYSTORE_TYPE = "PKCS12";
  private static final String ENTRY_ALGORITHM = "HmacSHA256";
  private static final String PROTECTION_ALGORITHM = "PBEWithHmacSHA256AndAES_256";
  private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString("rwx------");
  private static final String TEMP_SUFFIX = ".tmp";

  private final Path file;
  private final Path directory;
  private final boolean posix;
  private final ReentrantLock lock = new ReentrantLock();
  private final char[] password;
  private @Nullable KeyStore keyStore;
  private boolean usable = true;

  private KeyStoreSecretStore(Path file, char[] password, Clock clock, Duration leaseTtl, boolean posix) {
    super(clock, leaseTtl);
    this.file = file;
    Path parent = file.toAbsolutePath().getParent();
    if (parent == null) {
      throw new IllegalArgumentException("the keystore path must name a file, not a file system root");
    }
    this.directory = parent;
    this.password = password;
    this.posix = posix;
  }

  /**
   * Opens the keystore at {@code file}, creating it (and its directory) when missing, with the system UTC clock and
   * the default lease TTL of 300 s.
   *
   * @param file the keystore file
   * @param password the keystore password; copied, not retained
   * @throws IllegalArgumentException if the password is empty
   * @throws IllegalStateException if the file cannot be created, read or decrypted (wrong password, not a PKCS#12
   *     keystore); the message names the path, never the password
   */
  public static KeyStoreSecretStore open(Path file, char[] password) {
    return open(file, password, Clock.systemUTC(), DEFAULT_LEASE_TTL);
  }

  /**
   * Like {@link #open(Path, char[])} with the given lease clock and time-to-live.
   *
   * @param leaseTtl positive
   */
  public static KeyStoreSecretStore open(Path file, char[] password, Clock clock, Duration leaseTtl) {
    if (file == null) {
      throw new IllegalArgumentException("file is required");
    }
    if (password == null || password.length == 0) {
      throw new IllegalArgumentException("keystore password must not be empty");
    }
    Path absolute = file.toAbsolutePath().normalize();
    boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    KeyStoreSecretStore store = new KeyStoreSecretStore(absolute, password.clone(), clock, leaseTtl, posix);
    try {
      store.initialize();
    } catch (IOException | GeneralSecurityException e) {
      store.close();
      throw new IllegalStateException("keystore " + absolute + " cannot be opened (" + describe(e) + ")", e);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    return store;
  }

  /** The keystore file (absolute). */
  public Path file() {
    return file;
  }

  /**
   * Zeroes the password held by this store. Every later operation fails with {@code CUSTODY_BACKEND_FAILURE} (and
   * {@link #health} reports the secret unreachable). Idempotent.
   */
  @Override
  public void close() {
    lock.lock();
    try {
      usable = false;
      keyStore = null;
      Arrays.fill(password, '\0');
    } finally {
      lock.unlock();
    }
  }

  /** Shows the file only. */
  @Override
  public String toString() {
    return "KeyStoreSecretStore[file=" + file + "]";
  }

  // ---------------------------------------------------------------- backend

  @Override
  protected boolean create(String handle, byte[] material) throws IOException, GeneralSecurityException {
    return changeEntry(handle, false, (store, alias) -> setEntry(store, alias, material));
  }

  @Override
  protected boolean replace(String handle, byte[] material) throws IOException, GeneralSecurityException {
    return changeEntry(handle, true, (store, alias) -> setEntry(store, alias, material));
  }

  @Override
  protected byte @Nullable [] read(String handle) throws GeneralSecurityException {
    lock.lock();
    try {
      KeyStore store = requireOpen();
      String alias = alias(handle);
      if (!store.containsAlias(alias)) {
        return null;
      }
      Key key = store.getKey(alias, password);
      if (!(key instanceof SecretKey)) {
        throw new GeneralSecurityException("keystore entry is not a secret key entry");
      }
      return key.getEncoded();
    } finally {
      lock.unlock();
    }
  }

  @Override
  protected boolean remove(String handle) throws IOException, GeneralSecurityException {
    return changeEntry(handle, true, (store, alias) -> store.deleteEntry(alias));
  }

  @Override
  protected boolean contains(String handle) throws GeneralSecurityException {
    lock.lock();
    try {
      return requireOpen().containsAlias(alias(handle));
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- internals

  /** A change of one keystore entry, made under the lock on the open keystore. */
  @FunctionalInterface
  private interface EntryChange {
    void apply(KeyStore store, String alias) throws GeneralSecurityException;
  }

  /**
   * Under the lock: when {@code handle}'s entry exists exactly if {@code entryExists}, applies {@code change} to the
   * open keystore, persists it and returns {@code true}; otherwise changes nothing and returns {@code false}.
   */
  private boolean changeEntry(String handle, boolean entryExists, EntryChange change)
      throws IOException, GeneralSecurityException {
    lock.lock();
    try {
      KeyStore store = requireOpen();
      String alias = alias(handle);
      if (store.containsAlias(alias) != entryExists) {
        return false;
      }
      change.apply(store, alias);
      persist(store);
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void initialize() throws IOException, GeneralSecurityException {
    lock.lock();
    try {
      if (!Files.isDirectory(directory)) {
        if (posix) {
          Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(DIRECTORY_MODE));
        } else {
          Files.createDirectories(directory);
        }
      }
      removeLeftoverTemporaryFiles(directory);
      if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        if (posix && !Files.getPosixFilePermissions(file).equals(FILE_MODE)) {
          Files.setPosixFilePermissions(file, FILE_MODE);
        }
        keyStore = load();
      } else {
        KeyStore empty = KeyStore.getInstance(KEYSTORE_TYPE);
        empty.load(null, null);
        persist(empty);
        keyStore = empty;
      }
    } finally {
      lock.unlock();
    }
  }

  private KeyStore load() throws IOException, GeneralSecurityException {
    KeyStore loaded = KeyStore.getInstance(KEYSTORE_TYPE);
    try (InputStream in = new ByteArrayInputStream(Files.readAllBytes(file))) {
      loaded.load(in, password);
    }
    return loaded;
  }

  private KeyStore requireOpen() throws GeneralSecurityException {
    if (!usable || keyStore == null) {
      throw new GeneralSecurityException("keystore secret store is closed or unusable");
    }
    return keyStore;
  }

  private void setEntry(KeyStore store, String alias, byte[] material) throws GeneralSecurityException {
    SecretKeySpec key = new SecretKeySpec(material, ENTRY_ALGORITHM);
    store.setEntry(alias, new KeyStore.SecretKeyEntry(key),
        new KeyStore.PasswordProtection(password, PROTECTION_ALGORITHM, null));
  }

  /** Writes {@code store} atomically to {@link #file}; on failure reloads the in-memory state from the file. */
  private void persist(KeyStore store) throws IOException, GeneralSecurityException {
    Path temporary = null;
    try {
      ByteArrayOutputStream buffer = new ByteArrayOutputStream();
      store.store(buffer, password);
      FileAttribute<?>[] attributes = posix
          ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE_MODE)}
          : new FileAttribute<?>[0];
      temporary = Files.createTempFile(directory, temporaryPrefix(), TEMP_SUFFIX, attributes);
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        ByteBuffer bytes = ByteBuffer.wrap(buffer.toByteArray());
        while (bytes.hasRemaining()) {
          channel.write(bytes);
        }
        channel.force(true);
      }
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
      temporary = null;
      forceDirectory(directory);
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      if (temporary != null) {
        Files.deleteIfExists(temporary);
      }
      recoverFromFile(store);
      throw e;
    }
  }

  private void recoverFromFile(KeyStore failed) {
    if (failed != keyStore) {
      return;
    }
    try {
      keyStore = load();
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      usable = false;
      keyStore = null;
    }
  }

  private static void forceDirectory(Path directory) {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // not every platform can open or force a directory; the rename itself is atomic
    }
  }

  private void removeLeftoverTemporaryFiles(Path directory) throws IOException {
    try (DirectoryStream<Path> leftovers =
        Files.newDirectoryStream(directory, entry -> isTemporaryFileOfThisStore(entry.getFileName().toString()))) {
      for (Path leftover : leftovers) {
        Files.deleteIfExists(leftover);
      }
    }
  }

  private boolean isTemporaryFileOfThisStore(String name) {
    return name.startsWith(temporaryPrefix()) && name.endsWith(TEMP_SUFFIX);
  }

  private String temporaryPrefix() {
    return "." + file.getFileName() + ".";
  }

  private static String alias(String handle) {
    return Digests.sha256Hex(handle.getBytes(StandardCharsets.UTF_8));
  }

  private static String describe(Exception e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return e.getClass().getSimpleName()
        + (root instanceof UnrecoverableKeyException ? ": wrong password or corrupt keystore" : "");
  }
}
