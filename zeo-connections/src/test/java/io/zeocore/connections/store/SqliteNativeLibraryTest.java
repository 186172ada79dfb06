package io.zeocore.connections.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * sqlite-jdbc's native library is loaded once per JVM, so each case runs in a child JVM of its own with a fresh
 * temporary directory, which {@link Child} lists (sqlite-jdbc's own, when one is set) after opening a database.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class SqliteNativeLibraryTest {

  @TempDir
  Path temp;

  @Test
  void loadsTheBundledLibraryFromAPrivateCopyAndLeavesNothingBehind() throws Exception {
    Path tmp = Files.createDirectory(temp.resolve("tmp"));

    Map<String, String> child = runChild("-Djava.io.tmpdir=" + tmp);

    assertThat(child.get("version")).matches("3\\.\\d+\\.\\d+");
    assertThat(child.get("temp")).as("neither the private copy nor sqlite-jdbc's extraction is left").isEmpty();
    assertThat(child.get("path")).as("the loader's properties are removed again").isEqualTo("null");
    assertThat(child.get("name")).isEqualTo("null");
  }

  @Test
  void leavesLoadingToSqliteJdbcWhenTheApplicationNamesItsOwnLibrary() throws Exception {
    Path tmp = Files.createDirectory(temp.resolve("tmp"));
    Path own = Files.createDirectory(temp.resolve("own-library-directory")); // holds no library

    Map<String, String> child = runChild("-Djava.io.tmpdir=" + tmp, "-Dorg.sqlite.lib.path=" + own);

    assertThat(child.get("version")).matches("3\\.\\d+\\.\\d+");
    assertThat(child.get("path")).isEqualTo(own.toString());
    assertThat(child.get("name")).isEqualTo("null");
    // sqlite-jdbc tried the application's directory, then extracted the library itself (its files live until exit)
    assertThat(child.get("temp")).contains("libsqlitejdbc").doesNotContain("zeocore-sqlite-");
  }

  @Test
  void copiesIntoSqliteJdbcsTemporaryDirectoryWhenOneIsSet() throws Exception {
    Path sqliteTmp = Files.createDirectory(temp.resolve("sqlite-tmp"));

    // a JVM temporary directory that does not exist: a copy made there would fail, and sqlite-jdbc's own extraction
    // into its directory would leave its files there until exit
    Map<String, String> child = runChild("-Djava.io.tmpdir=" + temp.resolve("absent"),
        "-Dorg.sqlite.tmpdir=" + sqliteTmp);

    assertThat(child.get("version")).matches("3\\.\\d+\\.\\d+");
    assertThat(child.get("temp")).as("the private copy was made in org.sqlite.tmpdir and deleted again").isEmpty();
  }

  @Test
  void findsTheLibraryInTheFolderSqliteJdbcWouldChooseWithoutStartingAProcess() {
    assertThat(SqliteNativeLibrary.platformFolder()).isEqualTo(LibraryLoaderUtil.getNativeLibResourcePath());
  }

  @Test
  void namesTheBundledLibraryItLoadsAsTheResourceSqliteJdbcWouldExtract() {
    String expected = LibraryLoaderUtil.getNativeLibResourcePath().substring(1) + "/"
        + LibraryLoaderUtil.getNativeLibName();

    assertThat(SqliteDatabase.nativeLibraryResource()).contains(expected);
    assertThat(SqliteNativeLibraryTest.class.getClassLoader().getResource(expected)).isNotNull();
  }

  private Map<String, String> runChild(String... jvmOptions) throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
    List<String> command = new ArrayList<>(List.of(java, "-Xshare:auto"));
    command.addAll(List.of(jvmOptions));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Child.class.getName(),
        temp.resolve("store.db").toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    Map<String, String> lines = new LinkedHashMap<>();
    output.lines().filter(line -> line.startsWith("child.")).forEach(line -> {
      int equals = line.indexOf('=');
      lines.put(line.substring("child.".length(), equals), line.substring(equals + 1));
    });
    assertThat(lines).as(output).containsKeys("version", "temp", "path", "name");
    return lines;
  }

  /** Opens a database file the way the store does, then reports what the loading left behind. */
  public static final class Child {

    public static void main(String[] args) throws Exception {
      String version;
      try (SqliteDatabase database = SqliteDatabase.open(Path.of(args[0]));
          Connection connection = SqliteDatabase.config().createConnection("jdbc:sqlite::memory:");
          Statement statement = connection.createStatement();
          ResultSet row = statement.executeQuery("SELECT sqlite_version()")) {
        row.next();
        version = row.getString(1);
        assertThat(database.file()).exists();
      }
      String left;
      Path temporary = Path.of(System.getProperty("org.sqlite.tmpdir", System.getProperty("java.io.tmpdir")));
      try (Stream<Path> files = Files.list(temporary)) {
        left = files.map(path -> path.getFileName().toString()).sorted().collect(Collectors.joining(","));
      }
      System.out.println("child.version=" + version);
      System.out.println("child.temp=" + left);
      System.out.println("child.path=" + System.getProperty(SqliteNativeLibrary.LIBRARY_PATH));
      System.out.println("child.name=" + System.getProperty(SqliteNativeLibrary.LIBRARY_NAME));
    }
  }
}
