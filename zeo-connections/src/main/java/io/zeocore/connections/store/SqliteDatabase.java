package io.zeocore.connections.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.SQLiteOpenMode;

/**
 * ZeoCore's own SQLite database file: created with owner-only permissions before the driver touches it, opened with
 * durable settings, and used through one writer connection.
 *
 * <h2>File handling (in this order, before the driver opens the file)</h2>
 * <ol>
 *   <li>Missing parent directories are created with mode {@code 0700}; existing directories are left as they are.
 *   <li>A missing database file is created empty with mode {@code 0600}; an existing one is tightened to {@code 0600}.
 *       SQLite gives the {@code -wal}, {@code -shm} and {@code -journal} files it creates the main file's mode, so
 *       they are {@code 0600} under any umask.
 *   <li>Leftover {@code -wal}, {@code -shm} and {@code -journal} files (from a crash) keep the mode they were created
 *       with; they are tightened to {@code 0600}.
 * </ol>
 * The driver is then told never to create the file itself (a file created by SQLite would get {@code 0666 & ~umask}).
 * On a file system without POSIX permissions the modes are skipped.
 *
 * <h2>Connection settings (driver properties, not init SQL)</h2>
 * {@code journal_mode=WAL}, {@code synchronous=FULL} (every commit is fsynced before it returns),
 * {@code busy_timeout=5000} ms, {@code foreign_keys=ON}, {@code recursive_triggers=ON} (so that {@code INSERT OR
 * REPLACE} fires the delete guards), transaction mode {@code IMMEDIATE}, no generated keys (the driver would otherwise
 * query {@code last_insert_rowid()} after every insert).
 *
 * <h2>Concurrency</h2>
 * One writer connection serves every write of this instance, serialized by a lock, with group commit
 * ({@link GroupCommitDatabase}): writes that arrive while a commit is in flight run together in the next
 * {@code BEGIN IMMEDIATE … COMMIT} transaction (each in its own savepoint), and each caller returns only once the
 * commit that holds its work is durable, or gets that commit's error. Reads run on the writer when it is idle and,
 * while it is busy, on up to {@value #READERS} read connections opened on first need ({@code query_only}, one read
 * transaction per read, so a read sees every write that returned before it started; each connection keeps its own
 * page cache); only when all of them are busy does a read wait for the writer. Other processes (or other instances)
 * on the same file queue for the write lock for up to {@code busy_timeout}.
 *
 * <p>This type never exposes a {@link DataSource}: an application's Spring context must not see ZeoCore's database as
 * its own. Instances are thread-safe; {@link #close()} closes the connection.
 */
public final class SqliteDatabase implements AutoCloseable {

  /** {@code rw-------}: the database file and its side files. */
  public static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");

  /** {@code rwx------}: directories created for the database file. */
  public static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString("rwx------");

  /** The busy timeout of every connection, in milliseconds. */
  public static final int BUSY_TIMEOUT_MILLIS = 5000;

  /** The most read connections beside the writer (see Concurrency above). */
  static final int READERS = 4;

  /** The suffixes of the side files SQLite keeps next to the database file. */
  static final List<String> SIDE_FILE_SUFFIXES = List.of("-wal", "-shm", "-journal");

  private final Path file;
  private final boolean posix;
  private final GroupCommitDatabase database;

  private SqliteDatabase(Path file, boolean posix, GroupCommitDatabase database) {
    this.file = file;
    this.posix = posix;
    this.database = database;
  }

  /**
   * Prepares {@code file} (see the class documentation) and opens the writer connection. The schema is not migrated
   * here; {@link JdbcConnectionStore#openSqlite(Path)} does both.
   *
   * @throws UncheckedIOException if a directory or the file cannot be created or its mode set
   * @throws IllegalStateException if the driver cannot open the file or a setting did not take effect
   */
  public static SqliteDatabase open(Path file) {
    return open(file, SqlDialect::commit);
  }

  /** {@link #open(Path)} whose batches commit through {@code committer} (tests make a commit fail with it). */
  static SqliteDatabase open(Path file, GroupCommitDatabase.Committer committer) {
    Path absolute = file.toAbsolutePath().normalize();
    boolean posix = absolute.getFileSystem().supportedFileAttributeViews().contains("posix");
    prepareFile(absolute, posix);
    Connection connection;
    try {
      connection = config().createConnection(jdbcUrl(absolute));
    } catch (SQLException e) {
      throw new IllegalStateException("opening the ZeoCore SQLite database failed: " + e.getMessage(), e);
    }
    try {
      verifySettings(connection);
    } catch (SQLException | RuntimeException e) {
      try {
        connection.close();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e instanceof RuntimeException runtime ? runtime
          : new IllegalStateException("opening the ZeoCore SQLite database failed: " + e.getMessage(), e);
    }
    String url = jdbcUrl(absolute);
    ReadSessions readers = new ReadSessions(() -> readerConfig().createConnection(url), READERS);
    return new SqliteDatabase(absolute, posix,
        new GroupCommitDatabase(SqliteDialect.INSTANCE, connection, committer, readers));
  }

  /**
   * Does, once, the work of {@link #open} and of {@link JdbcConnectionStore#openSqlite} that does not depend on the
   * file: loads the driver and its native library, opens a connection with the store's settings to a private
   * in-memory database, runs a statement on it and closes it, and reads the shipped migrations' checksums. A later
   * {@code open} on another thread then finds all of it loaded. Opens no database file and leaves nothing behind (the
   * native library is loaded from a private temporary copy that is deleted at once), starts no thread;
   * safe to call from any thread, any number of times. Meant for a background thread at application start-up; its
   * failure decides nothing (the real {@code open} reports whatever is wrong).
   *
   * @throws SQLException if the driver cannot open an in-memory database
   * @throws IllegalStateException if sqlite-jdbc cannot load its native library
   */
  public static void warmUp() throws SQLException {
    try (Connection connection = config().createConnection("jdbc:sqlite::memory:")) {
      SqlSession.plain(connection).first("PRAGMA foreign_keys", row -> row.getString(1));
    }
    BundledMigrations.shipped(Dialect.SQLITE);
  }

  /**
   * The class-path resource of sqlite-jdbc's native library that the store copies and loads on this platform, for
   * example {@code org/sqlite/native/Linux/x86_64/libsqlitejdbc.so}; empty when sqlite-jdbc's jar has none for it
   * (sqlite-jdbc's own loading then decides). For build tools that must keep that resource, such as a native image's
   * resource hints.
   */
  public static Optional<String> nativeLibraryResource() {
    String resource = SqliteNativeLibrary.bundledResource();
    ClassLoader loader = SQLiteJDBCLoader.class.getClassLoader();
    return loader != null && loader.getResource(resource) != null ? Optional.of(resource) : Optional.empty();
  }

  /** The absolute path of the database file. */
  public Path file() {
    return file;
  }

  /**
   * The database file's current permissions as {@code rw-------} text, or empty when the file system has no POSIX
   * permissions.
   *
   * @throws UncheckedIOException if the file cannot be read
   */
  public Optional<String> fileMode() {
    return mode(file);
  }

  /** The current permissions of the file and of each side file that exists, keyed by file name. */
  public java.util.Map<String, String> fileModes() {
    java.util.Map<String, String> modes = new java.util.LinkedHashMap<>();
    mode(file).ifPresent(mode -> modes.put(file.getFileName().toString(), mode));
    for (String suffix : SIDE_FILE_SUFFIXES) {
      Path side = sideFile(file, suffix);
      if (Files.exists(side, LinkOption.NOFOLLOW_LINKS)) {
        mode(side).ifPresent(mode -> modes.put(side.getFileName().toString(), mode));
      }
    }
    return modes;
  }

  private Optional<String> mode(Path path) {
    if (!posix) {
      return Optional.empty();
    }
    try {
      return Optional.of(PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
    } catch (IOException e) {
      throw new UncheckedIOException("reading the mode of the ZeoCore SQLite database failed", e);
    }
  }

  /** How many writes wait for the next batch (for tests). */
  int queuedWrites() {
    return database.queuedWrites();
  }

  /** The single writer connection's database (reads and writes). */
  StoreDatabase database() {
    return database;
  }

  /**
   * A data source that opens a new connection to this file with the same settings for each call, for schema
   * migration only. It can never create the file.
   */
  DataSource migrationDataSource() {
    SQLiteDataSource dataSource = new SQLiteDataSource(config());
    dataSource.setUrl(jdbcUrl(file));
    return dataSource;
  }

  /** Closes the writer connection. Idempotent. */
  @Override
  public void close() {
    database.close();
  }

  @Override
  public String toString() {
    return "SqliteDatabase[" + file + "]";
  }

  /** Settings of the writer connection: durable commits, guards on, {@code BEGIN IMMEDIATE} transactions. */
  static SQLiteConfig config() {
    SQLiteConfig config = connectionConfig(SQLiteConfig.TransactionMode.IMMEDIATE);
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.enforceForeignKeys(true);
    config.enableRecursiveTriggers(true);
    return config;
  }

  /** Settings of a read connection: the file must exist, reads only, deferred (read) transactions. */
  static SQLiteConfig readerConfig() {
    return connectionConfig(SQLiteConfig.TransactionMode.DEFERRED);
  }

  /** What every connection of the store has: the driver loaded, no file creation, the busy timeout, no generated keys. */
  private static SQLiteConfig connectionConfig(SQLiteConfig.TransactionMode transactions) {
    SqliteNativeLibrary.load();
    SQLiteConfig config = new SQLiteConfig();
    config.resetOpenMode(SQLiteOpenMode.CREATE);
    config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
    config.setTransactionMode(transactions);
    // the store never asks for generated keys; left on, the driver runs a second query after every INSERT to have them
    config.setGetGeneratedKeys(false);
    return config;
  }

  static String jdbcUrl(Path absoluteFile) {
    String text = absoluteFile.toString();
    if (text.indexOf('?') >= 0) {
      throw new IllegalArgumentException("the ZeoCore SQLite database path must not contain '?'");
    }
    return "jdbc:sqlite:" + text;
  }

  static Path sideFile(Path file, String suffix) {
    return file.resolveSibling(file.getFileName().toString() + suffix);
  }

  private static void prepareFile(Path file, boolean posix) {
    try {
      if (Files.isDirectory(file)) {
        throw new IllegalArgumentException("the ZeoCore SQLite database path is a directory");
      }
      Path directory = file.toAbsolutePath().getParent();
      if (directory != null) { // null only for a file system root, which the next steps refuse
        createDirectories(directory, posix);
      }
      if (posix) {
        try {
          Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE_MODE));
        } catch (FileAlreadyExistsException existing) {
          // an existing database (or another process won the race): tightened below
        }
        Files.setPosixFilePermissions(file, FILE_MODE);
        for (String suffix : SIDE_FILE_SUFFIXES) {
          Path side = sideFile(file, suffix);
          if (Files.exists(side, LinkOption.NOFOLLOW_LINKS)) {
            Files.setPosixFilePermissions(side, FILE_MODE);
          }
        }
      } else if (!Files.exists(file)) {
        try {
          Files.createFile(file);
        } catch (FileAlreadyExistsException existing) {
          // another process won the race
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("preparing the ZeoCore SQLite database file failed", e);
    }
  }

  private static void createDirectories(Path directory, boolean posix) throws IOException {
    if (directory == null || Files.isDirectory(directory)) {
      return;
    }
    Deque<Path> missing = new ArrayDeque<>();
    for (Path current = directory; current != null && !Files.exists(current); current = current.getParent()) {
      missing.push(current);
    }
    for (Path created : missing) {
      try {
        if (posix) {
          Files.createDirectory(created, PosixFilePermissions.asFileAttribute(DIRECTORY_MODE));
          Files.setPosixFilePermissions(created, DIRECTORY_MODE);
        } else {
          Files.createDirectory(created);
        }
      } catch (FileAlreadyExistsException raced) {
        if (!Files.isDirectory(created)) {
          throw raced;
        }
      }
    }
  }

  private static void verifySettings(Connection connection) throws SQLException {
    SqlSession session = SqlSession.plain(connection);
    expect(session, "PRAGMA journal_mode", "wal");
    expect(session, "PRAGMA synchronous", "2");
    expect(session, "PRAGMA foreign_keys", "1");
    expect(session, "PRAGMA recursive_triggers", "1");
    expect(session, "PRAGMA busy_timeout", Integer.toString(BUSY_TIMEOUT_MILLIS));
  }

  private static void expect(SqlSession session, String pragma, String expected) throws SQLException {
    String actual = session.first(pragma, row -> row.getString(1)).orElse(null);
    if (actual == null || !actual.equalsIgnoreCase(expected)) {
      throw new IllegalStateException("ZeoCore SQLite setting did not take effect: " + pragma + " is " + actual
          + ", expected " + expected);
    }
  }
}
