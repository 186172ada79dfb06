package io.zeocore.connections.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;

/**
 * The versioned migrations this build ships for one dialect ({@code V<version>__<description>.sql} under the
 * dialect's location), each with the checksum Flyway records for it: the CRC-32 of the script's lines, without their
 * line breaks, encoded as UTF-8, a leading byte-order mark removed. A test keeps the checksum equal to the one Flyway
 * writes into {@value ZeoCoreSchema#HISTORY_TABLE}.
 *
 * <p>The scripts are named by the dialect's index, {@value #INDEX} beside them (one file name a line), not found by
 * scanning the class path: a plain class loader, a Boot jar and a native image all read it the same way, with no
 * dependency. A test keeps the index equal to the scripts in the source tree.
 *
 * <p>{@link #appliedIn} decides whether a database's history already holds exactly these migrations, so that a
 * start-up against a current schema costs one query instead of a Flyway run; any difference (a missing, failed or
 * edited migration) leaves the decision to Flyway, which migrates or refuses as it always did.
 */
record BundledMigrations(List<Script> scripts) {

  /** One shipped script. */
  record Script(String version, String name, int checksum) {}

  /** One row of the history table. */
  record Applied(@Nullable String version, String script, @Nullable Integer checksum, boolean success) {}

  BundledMigrations {
    scripts = List.copyOf(scripts);
  }

  /** The name of each dialect's index of its scripts, in its migration location. */
  static final String INDEX = "migrations.txt";

  private static final ConcurrentMap<Dialect, BundledMigrations> SHIPPED = new ConcurrentHashMap<>();

  /**
   * The scripts of {@code dialect} in ZeoCore's own jar (the class loader of this class), read once per dialect and
   * kept: they cannot change while the class is loaded. An unreadable class path is not kept, so the next call tries
   * again.
   */
  static BundledMigrations shipped(Dialect dialect) {
    BundledMigrations known = SHIPPED.get(dialect);
    if (known != null) {
      return known;
    }
    BundledMigrations read = of(dialect, BundledMigrations.class.getClassLoader());
    if (!read.scripts().isEmpty()) {
      SHIPPED.putIfAbsent(dialect, read);
    }
    return read;
  }

  /**
   * The scripts of {@code dialect} that its index names, read from the class path of {@code classLoader}, in version
   * order; none when the index or a script it names cannot be read (then Flyway decides).
   */
  static BundledMigrations of(Dialect dialect, ClassLoader classLoader) {
    String location = dialect.migrationLocation().substring("classpath:".length());
    List<Script> scripts = new ArrayList<>();
    try {
      for (String name : lines(classLoader, location + "/" + INDEX)) {
        if (!name.isBlank()) {
          scripts.add(new Script(name.substring(1, name.indexOf("__")), name,
              checksum(classLoader, location + "/" + name)));
        }
      }
    } catch (IOException unreadable) {
      return new BundledMigrations(List.of()); // nothing known: Flyway decides
    }
    scripts.sort(Comparator.comparing(script -> new java.math.BigDecimal(script.version().replace('_', '.'))));
    return new BundledMigrations(scripts);
  }

  private static List<String> lines(ClassLoader classLoader, String resource) throws IOException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader reader = reader(classLoader, resource)) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lines.add(line.strip());
      }
    }
    return lines;
  }

  private static BufferedReader reader(ClassLoader classLoader, String resource) throws IOException {
    InputStream stream = classLoader.getResourceAsStream(resource);
    if (stream == null) {
      throw new IOException("not on the class path: " + resource);
    }
    return new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8), 4096);
  }

  /** Flyway's checksum of a script. */
  static int checksum(ClassLoader classLoader, String resource) throws IOException {
    CRC32 crc = new CRC32();
    try (BufferedReader reader = reader(classLoader, resource)) {
      String line = reader.readLine();
      if (line != null) {
        if (!line.isEmpty() && line.charAt(0) == '\uFEFF') {
          line = line.substring(1);
        }
        do {
          crc.update(line.getBytes(StandardCharsets.UTF_8));
        } while ((line = reader.readLine()) != null);
      }
    }
    return (int) crc.getValue();
  }

  /**
   * Whether {@code history} records every shipped script as applied with its checksum, and no other versioned
   * migration than Flyway's baseline.
   */
  boolean appliedIn(List<Applied> history) {
    if (scripts.isEmpty()) {
      return false;
    }
    Map<String, Applied> byVersion = new java.util.HashMap<>();
    for (Applied row : history) {
      if (row.version() == null || "0".equals(row.version())) {
        continue; // the baseline below version 1
      }
      if (byVersion.put(row.version(), row) != null) {
        return false;
      }
    }
    if (byVersion.size() != scripts.size()) {
      return false;
    }
    for (Script script : scripts) {
      Applied row = byVersion.get(script.version());
      if (row == null || !row.success() || !script.name().equals(row.script())
          || row.checksum() == null || row.checksum() != script.checksum()) {
        return false;
      }
    }
    return true;
  }

  /** The highest shipped version. */
  String latestVersion() {
    return scripts.get(scripts.size() - 1).version();
  }
}
