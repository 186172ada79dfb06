package io.zeocore.connections.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Loads sqlite-jdbc's native library once per JVM, without the part of sqlite-jdbc's own loading that costs the most
 * CPU at start-up.
 *
 * <p>sqlite-jdbc extracts its native library (about 1 MB) from its jar to a new file in the temporary directory on
 * every start, then reads the copy and the resource again, comparing them byte by byte through
 * {@code BufferedInputStream.read()}: measured inside a Spring Boot start-up on two cores, that comparison alone was
 * about 70 ms of CPU, more than anything else ZeoCore does while an application starts. This class copies the same
 * resource with one {@link Files#copy(InputStream, Path, java.nio.file.CopyOption...)} into a new directory that only
 * this user can enter ({@link Files#createTempDirectory} gives it mode {@code 0700}), inside sqlite-jdbc's own
 * temporary directory ({@code org.sqlite.tmpdir}, else {@code java.io.tmpdir}), has sqlite-jdbc load that file, and
 * deletes the file and the directory again (the loaded library stays mapped). It is sqlite-jdbc itself that loads the
 * file: its {@code org.sqlite.lib.path} and {@code org.sqlite.lib.name} system properties are set only while this
 * class holds the loader's own lock (the lock {@link SQLiteJDBCLoader#initialize()} takes), so no other thread's
 * loading can see them, and they are removed before the lock is released.
 *
 * <p>sqlite-jdbc's own loading runs unchanged, and this class does nothing else, when: the application set either
 * property itself; the operating system is neither Linux nor macOS (elsewhere a loaded library cannot be deleted); the
 * jar has no library for this platform; or the copy cannot be made. If sqlite-jdbc cannot load the copy, it goes on
 * with its usual extraction; if the application had already loaded the library through sqlite-jdbc, the copy is
 * deleted unused. Thread-safe; returns at once after the first successful call.
 */
final class SqliteNativeLibrary {

  static final String LIBRARY_PATH = "org.sqlite.lib.path";
  static final String LIBRARY_NAME = "org.sqlite.lib.name";

  private static volatile boolean loaded;

  private SqliteNativeLibrary() {
  }

  /**
   * Makes sure sqlite-jdbc's native library is loaded (see the class documentation).
   *
   * @throws IllegalStateException if sqlite-jdbc cannot load its native library in any way it knows
   */
  static void load() {
    if (loaded) {
      return;
    }
    try {
      Path copy = applicationChoseItsOwnLibrary() || !unlinksLoadedLibraries() ? null : copyOfBundledLibrary();
      try {
        initialize(copy);
      } finally {
        if (copy != null) {
          deleteQuietly(directoryOf(copy), copy.getFileName().toString());
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException("loading sqlite-jdbc's native library failed: " + e.getMessage(), e);
    }
    loaded = true;
  }

  private static void initialize(@Nullable Path copy) throws Exception {
    if (copy == null) {
      SQLiteJDBCLoader.initialize();
      return;
    }
    synchronized (SQLiteJDBCLoader.class) {
      System.setProperty(LIBRARY_PATH, directoryOf(copy).toString());
      System.setProperty(LIBRARY_NAME, copy.getFileName().toString());
      try {
        SQLiteJDBCLoader.initialize();
      } finally {
        System.clearProperty(LIBRARY_PATH);
        System.clearProperty(LIBRARY_NAME);
      }
    }
  }

  /** The private directory {@link #copyOfBundledLibrary} made for {@code copy}. */
  private static Path directoryOf(Path copy) {
    return Objects.requireNonNull(copy.getParent(), "the copy lies in its own directory");
  }

  private static boolean applicationChoseItsOwnLibrary() {
    return System.getProperty(LIBRARY_PATH) != null || System.getProperty(LIBRARY_NAME) != null;
  }

  private static boolean unlinksLoadedLibraries() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    return os.contains("linux") || os.contains("mac");
  }

  /**
   * The class-path resource (no leading slash) of sqlite-jdbc's native library for this platform, the one
   * {@link #load()} copies, for example {@code org/sqlite/native/Linux/x86_64/libsqlitejdbc.so}; whether the jar has
   * it is not checked here.
   */
  static String bundledResource() {
    String folder = platformFolder();
    return (folder != null ? folder : LibraryLoaderUtil.getNativeLibResourcePath()).substring(1) + "/"
        + LibraryLoaderUtil.getNativeLibName();
  }

  /** The bundled library copied into a new private directory, or {@code null} when there is none to copy. */
  private static @Nullable Path copyOfBundledLibrary() {
    String name = LibraryLoaderUtil.getNativeLibName();
    ClassLoader loader = SQLiteJDBCLoader.class.getClassLoader();
    URL bundled = loader == null ? null : loader.getResource(bundledResource());
    if (bundled == null) {
      return null;
    }
    Path directory = null;
    try {
      Path temporary = Path.of(System.getProperty("org.sqlite.tmpdir", System.getProperty("java.io.tmpdir")));
      directory = Files.createTempDirectory(temporary, "zeocore-sqlite-");
      Path copy = directory.resolve(name);
      try (InputStream in = bundled.openStream()) {
        Files.copy(in, copy);
      }
      return copy;
    } catch (IOException | RuntimeException e) {
      deleteQuietly(directory, name);
      return null; // sqlite-jdbc's own extraction decides
    }
  }

  /**
   * sqlite-jdbc's resource folder for this platform, decided as its {@code OSInfo} decides it, for Linux (glibc or
   * musl) and macOS on x86-64 and AArch64; {@code null} (sqlite-jdbc's own {@code OSInfo} decides) anywhere else, on
   * Android, or when the platform is overridden. {@code OSInfo} starts a {@code uname -o} process to rule out Android
   * (about 20 ms at start-up); here a musl C library is recognized, as there, by a mapped file of this process whose
   * path names musl (read from {@code /proc/self/maps} at once instead of one link at a time), and Android by its
   * runtime name or its system libraries.
   */
  static @Nullable String platformFolder() {
    if (System.getProperty("org.sqlite.osinfo.architecture") != null) {
      return null;
    }
    String arch = switch (System.getProperty("os.arch", "").toLowerCase(Locale.ROOT)) {
      case "x86_64", "amd64" -> "x86_64";
      case "aarch64" -> "aarch64";
      default -> null;
    };
    String os = System.getProperty("os.name", "");
    if (arch == null || os.contains("Windows") || os.contains("AIX")) {
      return null;
    }
    if (os.contains("Mac") || os.contains("Darwin")) {
      return "/org/sqlite/native/Mac/" + arch;
    }
    if (!os.contains("Linux") || android()) {
      return null;
    }
    try {
      String maps = Files.readString(Path.of("/proc/self/maps"), StandardCharsets.ISO_8859_1);
      return "/org/sqlite/native/" + (maps.toLowerCase(Locale.ROOT).contains("musl") ? "Linux-Musl/" : "Linux/") + arch;
    } catch (IOException | RuntimeException unreadable) {
      return null;
    }
  }

  private static boolean android() {
    return System.getProperty("java.runtime.name", "").toLowerCase(Locale.ROOT).contains("android")
        || Files.exists(Path.of("/system/lib/libGLESv1_CM.so"))
        || Files.exists(Path.of("/system/lib64/libGLESv1_CM.so"));
  }

  private static void deleteQuietly(@Nullable Path directory, String name) {
    if (directory == null) {
      return;
    }
    try {
      Files.deleteIfExists(directory.resolve(name));
      Files.deleteIfExists(directory);
    } catch (IOException ignored) {
      // left for the temporary directory's own cleaning; nothing reads it again
    }
  }
}
