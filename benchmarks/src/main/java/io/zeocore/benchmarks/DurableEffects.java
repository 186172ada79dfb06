package io.zeocore.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zeocore.EffectKind;
import io.zeocore.benchmarks.EffectContenders.Contender;
import io.zeocore.benchmarks.EffectContenders.Issuer;
import io.zeocore.benchmarks.EffectContenders.PostgresRaw;
import io.zeocore.benchmarks.EffectContenders.PostgresRows;
import io.zeocore.benchmarks.EffectContenders.RawStatements;
import io.zeocore.benchmarks.EffectContenders.ZeoCore;
import io.zeocore.benchmarks.SqliteContenders.SqliteRaw;
import io.zeocore.benchmarks.SqliteContenders.SqliteRows;
import io.zeocore.connections.authorization.Ed25519SignatureVerifier;
import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionHealth;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectionStatus;
import io.zeocore.connections.contract.ConnectorId;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.IdempotencyMode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.RiskClass;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.store.Dialect;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;

/**
 * Item 3, durable effects at the disk's limit (issue 20): effects per second through {@link EffectOrchestrator} against
 * raw JDBC doing the same two durable commits, on SQLite (WAL, {@code synchronous=FULL}) and on PostgreSQL, with 1, 4
 * and 16 concurrent callers, and with two JVMs on one PostgreSQL database.
 *
 * <p>Every contender takes one turn per round (rotating who goes first), each turn a small batch, so that neighbouring
 * batches see the same disk and the same neighbours on a shared machine; the ratios are the medians of the per-round
 * ratios (and the ratio of totals). Beside each figure: process CPU µs per effect (every thread, JIT and GC included),
 * bytes allocated per effect (every thread), bytes and calls of {@code write} per effect ({@code /proc/self/io}
 * {@code wchar}/{@code syscw}: WAL frames, checkpoints, sockets), PostgreSQL WAL bytes per effect
 * ({@code pg_current_wal_insert_lsn}, server-wide), and per-effect latency p50/p99.
 *
 * <p>Contenders (names as printed):
 * <ul>
 *   <li>{@code sqlite-zeocore-N}: {@code execute()} end to end (verification with the default verifier, preflight,
 *       claim commit, a no-op confirming dispatcher, outcome commit), N callers on one store.
 *   <li>{@code sqlite-zeocore-jdk-1}: the same with the JDK Ed25519 verifier (the verifier lever's "before").
 *   <li>{@code sqlite-raw-1}: one connection, insert + commit, then update + receipt insert + commit (the floor).
 *   <li>{@code sqlite-raw-jdk-1}, {@code sqlite-raw-bc-1}: the floor plus one authorization signature check per effect
 *       with the JDK's or BouncyCastle's Ed25519 ({@link Ed25519SignatureVerifier}, canonical form included).
 *   <li>{@code pg-zeocore-N}, {@code pg-raw-N}: the same on PostgreSQL; raw callers own one connection each.
 *   <li>{@code pg-zeocore-url-N}: ZeoCore on a {@code jdbc:postgresql:} URL ({@code zeocore.connections.store.url}),
 *       i.e. on the store's own pool (size 16) instead of an application's HikariCP pool of 16.
 *   <li>{@code pg2jvm-zeocore-N}, {@code pg2jvm-raw-N}: two child JVMs, N callers each, started together.
 *   <li>{@code sqlite-rows-bc-N}, {@code pg-rows-N}: the floor of ZeoCore's data model — its rows, by plain
 *       statements, on its own schema with the guard triggers dropped ({@link SqliteRows}, {@link PostgresRows}).
 *   <li>{@code sqlite-lean-bc-N}: the floor of the leanest data model that keeps every guarantee ({@link SqliteRows}).
 * </ul>
 *
 * <p>Usage: {@code DurableEffects <directory> [--rounds R] [--effects E] [--sqlite] [--pg <jdbc url>] [--jvms]}.
 * Prints one JSON object per contender, then one with the ratios.
 */
public final class DurableEffects {

  static final String ISSUER = "zeo-go";
  static final String AUDIENCE = "zeocore";
  static final OrganizationId ORG = new OrganizationId("org-1");
  static final ConnectionId CONNECTION = new ConnectionId("conn-1");
  static final ConnectorRevisionId REVISION = new ConnectorRevisionId("stripe-r1");
  static final OperationId CREATE_REFUND = new OperationId("create_refund");
  static final byte[] BODY = "{\"amount\":100,\"charge\":\"ch_1\"}".getBytes(StandardCharsets.UTF_8);
  static final String CONFIRMATION = "c".repeat(64);
  static final String ZEOCORE_SCHEMA = "bench_zeocore";
  static final String ZEOCORE_URL_SCHEMA = "bench_zeocore_url";
  static final String RAW_SCHEMA = "bench_raw";
  static final String ROWS_SCHEMA = "bench_rows";

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  // ------------------------------------------------------------------------------------------------------------
  // Running batches

  /** What one batch cost. */
  record Batch(int effects, long wallNanos, long cpuNanos, long allocatedBytes, long writeBytes, long writeCalls,
      long walBytes, long serverCpuNanos, long backendCpuNanos, long[] latencies) {}

  /** Totals of one contender over all rounds. */
  static final class Totals {

    final String name;
    long effects;
    long wall;
    long cpu;
    long allocated;
    long writeBytes;
    long writeCalls;
    long wal;
    long serverCpu;
    long backendCpu;
    long lockSamples;
    long lockWaiting;
    long lightweightWaiting;
    final Map<String, Long> waitsByEvent = new java.util.TreeMap<>();
    final List<Long> latencies = new ArrayList<>();
    final List<Double> rates = new ArrayList<>();

    Totals(String name) {
      this.name = name;
    }

    void add(Batch batch) {
      effects += batch.effects;
      wall += batch.wallNanos;
      cpu += batch.cpuNanos;
      allocated += batch.allocatedBytes;
      writeBytes += batch.writeBytes;
      writeCalls += batch.writeCalls;
      wal += batch.walBytes;
      serverCpu += batch.serverCpuNanos;
      backendCpu += batch.backendCpuNanos;
      for (long latency : batch.latencies) {
        latencies.add(latency);
      }
      rates.add(batch.effects / (batch.wallNanos / 1e9));
    }

    /** Adds what {@link EffectsAcrossJvms.LockWaits} counted over one batch. */
    void addLockWaits(long[] waited, Map<String, Long> byEvent) {
      lockSamples += waited[0];
      lockWaiting += waited[1];
      lightweightWaiting += waited[2];
      byEvent.forEach((event, waiting) -> waitsByEvent.merge(event, waiting, Long::sum));
    }

    double perSecond() {
      return effects / (wall / 1e9);
    }

    String json() {
      long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
      return String.format(Locale.ROOT, "{\"contender\":\"%s\",\"effects\":%d,\"effectsPerSecond\":%.1f,"
              + "\"cpuMicrosPerEffect\":%.0f,\"allocatedBytesPerEffect\":%.0f,\"writeBytesPerEffect\":%.0f,"
              + "\"writeCallsPerEffect\":%.1f,\"walBytesPerEffect\":%.0f,\"latencyP50Micros\":%.0f,"
              + "\"latencyP99Micros\":%.0f,\"serverCpuMicrosPerEffect\":%.0f,\"backendCpuMicrosPerEffect\":%.0f%s}",
          name, effects, perSecond(), cpu / 1e3 / effects, (double) allocated / effects,
          (double) writeBytes / effects, (double) writeCalls / effects, (double) wal / effects,
          quantile(sorted, 0.5) / 1e3, quantile(sorted, 0.99) / 1e3, serverCpu / 1e3 / effects,
          backendCpu / 1e3 / effects,
          lockSamples == 0 ? "" : String.format(Locale.ROOT, ",\"sessionsWaitingOnLocks\":%.2f,"
              + "\"sessionsWaitingOnLightweightLocks\":%.2f,\"sessionsWaitingByEvent\":{%s}",
              (double) lockWaiting / lockSamples, (double) lightweightWaiting / lockSamples,
              waitsByEvent.entrySet().stream().map(e -> String.format(Locale.ROOT, "\"%s\":%.2f", e.getKey(),
                  (double) e.getValue() / lockSamples)).collect(java.util.stream.Collectors.joining(","))));
    }
  }

  /** With {@code --only <regex>}: only the contenders whose names match (for profiling one of them). */
  private static String only = ".*";
  /** With {@code --breakdown}: ZeoCore's store calls are timed one by one (wall µs per effect, printed at the end). */
  private static boolean breakdown;
  /** With {@code --warmup B}: batches each contender runs before the measured rounds (default 6). */
  private static int warmUpBatches = 6;

  static int warmUpBatches() {
    return warmUpBatches;
  }
  /** With {@code --pg-patch F}: SQL run on ZeoCore's PostgreSQL schema once it is migrated (to try a change). */
  private static String pgPatch;
  static final Map<String, long[]> STORE_CALLS = new java.util.concurrent.ConcurrentHashMap<>();

  /** {@code store} with every call's wall time added to {@link #STORE_CALLS}. */
  static io.zeocore.connections.store.EffectStore timed(io.zeocore.connections.store.EffectStore store) {
    if (!breakdown) {
      return store;
    }
    return (io.zeocore.connections.store.EffectStore) java.lang.reflect.Proxy.newProxyInstance(
        DurableEffects.class.getClassLoader(), new Class<?>[] {io.zeocore.connections.store.EffectStore.class},
        (proxy, method, arguments) -> {
          long began = System.nanoTime();
          try {
            return method.invoke(store, arguments);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          } finally {
            long[] sum = STORE_CALLS.computeIfAbsent(method.getName(), k -> new long[2]);
            synchronized (sum) {
              sum[0] += System.nanoTime() - began;
              sum[1]++;
            }
          }
        });
  }

  private final String pgUrl;
  private java.sql.Connection walProbe;

  DurableEffects(String pgUrl) {
    this.pgUrl = pgUrl;
  }

  /** Runs {@code perCaller} effects on each of the contender's callers, all starting together. */
  Batch run(Contender contender, int perCaller) throws Exception {
    contender.prepare(perCaller);
    int callers = contender.callers;
    long[][] latencies = new long[callers][perCaller];
    Throwable[] failure = new Throwable[1];
    CyclicBarrier start = new CyclicBarrier(callers + 1);
    CyclicBarrier end = new CyclicBarrier(callers + 1);
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < callers; c++) {
      int caller = c;
      Thread thread = new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < perCaller; i++) {
            long began = System.nanoTime();
            contender.effect(caller, i);
            latencies[caller][i] = System.nanoTime() - began;
          }
        } catch (Throwable e) {
          synchronized (failure) {
            failure[0] = e;
          }
        } finally {
          try {
            end.await();
          } catch (Exception ignored) {
            // the batch is over either way
          }
        }
      }, contender.name + "-" + c);
      thread.start();
      threads.add(thread);
    }
    long wal0 = walPosition();
    long[] server0 = serverCpuNanos();
    long[] io0 = io();
    long cpu0 = OS.getProcessCpuTime();
    long alloc0 = THREADS.getTotalThreadAllocatedBytes();
    long wall0 = System.nanoTime();
    start.await();
    end.await();
    long wall = System.nanoTime() - wall0;
    long alloc = THREADS.getTotalThreadAllocatedBytes() - alloc0;
    long cpu = OS.getProcessCpuTime() - cpu0;
    long[] io = io();
    long wal = walPosition() - wal0;
    long[] server1 = serverCpuNanos();
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure[0] != null) {
      throw new IllegalStateException(contender.name + " failed", failure[0]);
    }
    return new Batch(callers * perCaller, wall, cpu, alloc, io[0] - io0[0], io[1] - io0[1], wal,
        server1[0] - server0[0], server1[1] - server0[1],
        Arrays.stream(latencies).flatMapToLong(Arrays::stream).toArray());
  }

  /** {@code wchar}, {@code syscw} of this process. */
  static long[] io() {
    try {
      long[] values = new long[2];
      for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
        if (line.startsWith("wchar:")) {
          values[0] = Long.parseLong(line.substring(6).trim());
        } else if (line.startsWith("syscw:")) {
          values[1] = Long.parseLong(line.substring(6).trim());
        }
      }
      return values;
    } catch (IOException | RuntimeException e) {
      return new long[2];
    }
  }

  /**
   * CPU time of every PostgreSQL server process on this machine so far, and of its client backends alone (the first
   * field of {@code /proc/<pid>/schedstat}: nanoseconds on a CPU, user and kernel; backends, WAL writer,
   * checkpointer, autovacuum), or zeros without PostgreSQL. The server runs on this machine in every measurement of
   * this suite; a backend that exits during a batch takes its time with it, so the contenders keep their sessions
   * open.
   */
  long[] serverCpuNanos() {
    return pgUrl == null ? new long[2] : serverCpuNanosNow();
  }

  /**
   * {every PostgreSQL process, its client backends alone}: a backend's command line names its client, {@code
   * host(port)} or {@code [local]}; the postmaster, checkpointer, background writer, WAL writer and autovacuum do not.
   */
  private static long[] serverCpuNanosNow() {
    long[] total = new long[2];
    try (var processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path process : processes) {
        try {
          if (!Files.readString(process.resolve("comm")).startsWith("postgres")) {
            continue;
          }
          String schedstat = Files.readString(process.resolve("schedstat"));
          long nanos = Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
          total[0] += nanos;
          String command = new String(Files.readAllBytes(process.resolve("cmdline")),
              java.nio.charset.StandardCharsets.UTF_8);
          if (command.contains("(") || command.contains("[local]")) {
            total[1] += nanos;
          }
        } catch (IOException | RuntimeException gone) {
          // the process ended between the listing and the read
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return total;
  }

  long walPosition() throws SQLException {
    if (pgUrl == null) {
      return 0;
    }
    if (walProbe == null) {
      walProbe = DriverManager.getConnection(pgUrl, "postgres", null);
    }
    try (Statement statement = walProbe.createStatement();
        ResultSet row = statement.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')")) {
      row.next();
      return row.getLong(1);
    }
  }

  /** Rounds of one batch per contender, rotating who goes first; prints each contender's totals. */
  Map<String, Totals> rounds(List<Contender> contenders, int rounds, int effectsPerBatch, PrintStream out)
      throws Exception {
    Map<String, Totals> totals = new LinkedHashMap<>();
    contenders = contenders.stream().filter(c -> c.name.matches(only)).toList();
    for (Contender contender : contenders) {
      totals.put(contender.name, new Totals(contender.name));
      for (int w = 0; w < warmUpBatches; w++) { // JIT compilation out of the measured batches
        run(contender, Math.max(2, effectsPerBatch / contender.callers));
      }
    }
    for (int r = 0; r < rounds; r++) {
      for (int t = 0; t < contenders.size(); t++) {
        Contender contender = contenders.get((r + t) % contenders.size());
        totals.get(contender.name).add(run(contender, Math.max(2, effectsPerBatch / contender.callers)));
      }
    }
    for (Totals total : totals.values()) {
      out.println(total.json());
    }
    return totals;
  }

  public static void main(String[] args) throws Exception {
    if (args.length >= 1 && args[0].equals("--child")) {
      EffectsAcrossJvms.Child.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: DurableEffects <directory> [--rounds R] [--effects E] [--sqlite]"
          + " [--pg <jdbc url>] [--jvms] [--warmup B] [--only <regex>] [--breakdown] [--pg-patch <sql file>]");
    }
    Path directory = Files.createDirectories(Path.of(args[0]));
    int rounds = 10;
    int effects = 48;
    boolean sqlite = false;
    boolean jvms = false;
    String pg = null;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--effects" -> effects = Integer.parseInt(args[++i]);
        case "--sqlite" -> sqlite = true;
        case "--pg" -> pg = args[++i];
        case "--jvms" -> jvms = true;
        case "--only" -> only = args[++i];
        case "--breakdown" -> breakdown = true;
        case "--warmup" -> warmUpBatches = Integer.parseInt(args[++i]);
        case "--pg-patch" -> pgPatch = args[++i];
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Map<String, Double> ratios = new LinkedHashMap<>();
    Map<String, Totals> all = new LinkedHashMap<>();
    if (sqlite) {
      all.putAll(sqlite(directory, rounds, effects));
      ratio(ratios, all, "sqlite-zeocore-1", "sqlite-raw-1");
      ratio(ratios, all, "sqlite-zeocore-1", "sqlite-raw-bc-1");
      ratio(ratios, all, "sqlite-rows-bc-1", "sqlite-raw-bc-1");
      ratio(ratios, all, "sqlite-lean-bc-1", "sqlite-raw-bc-1");
      ratio(ratios, all, "sqlite-zeocore-1", "sqlite-rows-bc-1");
      ratio(ratios, all, "sqlite-zeocore-1", "sqlite-raw-jdk-1");
      ratio(ratios, all, "sqlite-zeocore-jdk-1", "sqlite-raw-1");
      ratio(ratios, all, "sqlite-zeocore-4", "sqlite-raw-1");
      ratio(ratios, all, "sqlite-zeocore-16", "sqlite-raw-1");
      ratio(ratios, all, "sqlite-lean-bc-4", "sqlite-raw-1");
      for (int callers : new int[] {4, 16}) {
        ratio(ratios, all, "sqlite-rows-bc-" + callers, "sqlite-raw-1");
        ratio(ratios, all, "sqlite-zeocore-" + callers, "sqlite-rows-bc-" + callers);
      }
    }
    if (pg != null) {
      DurableEffects measurement = new DurableEffects(pg);
      all.putAll(measurement.postgres(rounds, effects));
      for (int callers : new int[] {1, 4, 16}) {
        ratio(ratios, all, "pg-zeocore-" + callers, "pg-raw-" + callers);
        ratio(ratios, all, "pg-zeocore-" + callers, "pg-raw-bc-" + callers);
        ratio(ratios, all, "pg-zeocore-url-" + callers, "pg-zeocore-" + callers);
        ratio(ratios, all, "pg-rows-bc-" + callers, "pg-raw-bc-" + callers);
        ratio(ratios, all, "pg-zeocore-" + callers, "pg-rows-bc-" + callers);
      }
      if (jvms) {
        all.putAll(EffectsAcrossJvms.twoJvms(measurement, measurement.pgUrl, rounds, effects, 16));
        ratio(ratios, all, "pg2jvm-zeocore-16", "pg2jvm-raw-16");
        ratio(ratios, all, "pg2jvm-zeocore-16", "pg-zeocore-16");
      }
    }
    STORE_CALLS.forEach((method, sum) -> System.out.printf(Locale.ROOT, "{\"storeCall\":\"%s\",\"calls\":%d,"
        + "\"wallMicrosPerCall\":%.0f}%n", method, sum[1], sum[0] / 1e3 / sum[1]));
    StringBuilder json = new StringBuilder("{\"ratios\":{");
    ratios.forEach((k, v) -> json.append(String.format(Locale.ROOT, "\"%s\":%.3f,", k, v)));
    if (!ratios.isEmpty()) {
      json.setLength(json.length() - 1);
    }
    System.out.println(json.append("}}"));
  }

  /** The median of the per-round throughput ratios of {@code a} over {@code b}. */
  private static void ratio(Map<String, Double> ratios, Map<String, Totals> all, String a, String b) {
    Totals x = all.get(a);
    Totals y = all.get(b);
    if (x == null || y == null) {
      return;
    }
    double[] perRound = new double[Math.min(x.rates.size(), y.rates.size())];
    for (int i = 0; i < perRound.length; i++) {
      perRound[i] = x.rates.get(i) / y.rates.get(i);
    }
    Arrays.sort(perRound);
    ratios.put(a + "/" + b, perRound[perRound.length / 2]);
    ratios.put(a + "/" + b + ":p10", perRound[(int) (perRound.length * 0.1)]);
    ratios.put(a + "/" + b + ":p90", perRound[Math.min(perRound.length - 1, (int) (perRound.length * 0.9))]);
    ratios.put(a + "/" + b + ":totals", x.perSecond() / y.perSecond());
  }

  private static Map<String, Totals> sqlite(Path directory, int rounds, int effects) throws Exception {
    for (String name : List.of("zeocore.db", "raw.db", "raw-jdk.db", "raw-bc.db", "rows-bc.db",
        "lean-bc.db", "rows-bc-4.db", "rows-bc-16.db", "lean-bc-4.db")) {
      for (String suffix : List.of("", "-wal", "-shm")) {
        Files.deleteIfExists(directory.resolve(name + suffix));
      }
    }
    Issuer issuer = new Issuer("s");
    Ed25519SignatureVerifier preferred = Ed25519SignatureVerifier.of(ISSUER, issuer.publicKey);
    Ed25519SignatureVerifier jdk = Ed25519SignatureVerifier.usingJdk(Map.of(ISSUER, List.of(issuer.publicKey)));
    if (!preferred.implementation().equals("bouncycastle")) {
      throw new IllegalStateException("BouncyCastle is not on the benchmark's class path");
    }
    EffectAuthorization signed = issuer.next();
    List<Contender> contenders = new ArrayList<>();
    try (JdbcConnectionStore store = JdbcConnectionStore.openSqlite(directory.resolve("zeocore.db"))) {
      store.saveConnectorRevision(ORG, revision());
      store.saveConnection(ORG, connection(Instant.now()));
      String run = Long.toString(System.nanoTime(), 36);
      contenders.add(new ZeoCore("sqlite-zeocore-1", 1, store, preferred, issuer, run + "a"));
      contenders.add(new ZeoCore("sqlite-zeocore-jdk-1", 1, store, jdk, issuer, run + "b"));
      contenders.add(new SqliteRaw("sqlite-raw-1", directory.resolve("raw.db"), null, null));
      contenders.add(new SqliteRaw("sqlite-raw-jdk-1", directory.resolve("raw-jdk.db"), jdk, signed));
      contenders.add(new SqliteRaw("sqlite-raw-bc-1", directory.resolve("raw-bc.db"), preferred, signed));
      contenders.add(new SqliteRows("sqlite-rows-bc-1", 1, directory.resolve("rows-bc.db"), preferred, signed, false));
      contenders.add(new SqliteRows("sqlite-lean-bc-1", 1, directory.resolve("lean-bc.db"), preferred, signed, true));
      contenders.add(new ZeoCore("sqlite-zeocore-4", 4, store, preferred, issuer, run + "c"));
      contenders.add(new ZeoCore("sqlite-zeocore-16", 16, store, preferred, issuer, run + "d"));
      for (int callers : new int[] {4, 16}) {
        contenders.add(new SqliteRows("sqlite-rows-bc-" + callers, callers,
            directory.resolve("rows-bc-" + callers + ".db"), preferred, signed, false));
      }
      contenders.add(new SqliteRows("sqlite-lean-bc-4", 4, directory.resolve("lean-bc-4.db"), preferred, signed,
          true));
      try {
        return new DurableEffects(null).rounds(contenders, rounds, effects, System.out);
      } finally {
        for (Contender contender : contenders) {
          contender.close();
        }
      }
    }
  }

  static HikariDataSource pool(String url, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername("postgres");
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    return new HikariDataSource(config);
  }

  /** Drops and recreates both schemas (once per parent run). */
  static void resetPostgres(String url) throws SQLException {
    try (java.sql.Connection connection = DriverManager.getConnection(url, "postgres", null);
        Statement ddl = connection.createStatement()) {
      ddl.execute("DROP SCHEMA IF EXISTS " + ZEOCORE_SCHEMA + " CASCADE");
      ddl.execute("DROP SCHEMA IF EXISTS " + RAW_SCHEMA + " CASCADE");
      ddl.execute("DROP SCHEMA IF EXISTS " + ZEOCORE_URL_SCHEMA + " CASCADE");
      ddl.execute("DROP SCHEMA IF EXISTS " + ROWS_SCHEMA + " CASCADE");
      ddl.execute("CREATE SCHEMA " + RAW_SCHEMA);
      RawStatements.createTables(connection, RAW_SCHEMA + ".");
    }
  }

  static JdbcConnectionStore postgresStore(HikariDataSource pool) {
    return JdbcConnectionStore.builder().dataSource(pool, Dialect.POSTGRESQL).schema(ZEOCORE_SCHEMA).build();
  }

  private Map<String, Totals> postgres(int rounds, int effects) throws Exception {
    resetPostgres(pgUrl);
    Issuer issuer = new Issuer("p");
    Ed25519SignatureVerifier preferred = Ed25519SignatureVerifier.of(ISSUER, issuer.publicKey);
    List<Contender> contenders = new ArrayList<>();
    try (HikariDataSource pool = pool(pgUrl, 16); JdbcConnectionStore store = postgresStore(pool);
        JdbcConnectionStore onUrl = JdbcConnectionStore.builder().jdbcUrl(pgUrl, "postgres", null)
            .schema(ZEOCORE_URL_SCHEMA).poolSize(16).build()) {
      for (JdbcConnectionStore each : List.of(store, onUrl)) {
        each.saveConnectorRevision(ORG, revision());
        each.saveConnection(ORG, connection(Instant.now()));
      }
      if (pgPatch != null) {
        try (java.sql.Connection connection = pool.getConnection(); Statement ddl = connection.createStatement()) {
          ddl.execute(Files.readString(Path.of(pgPatch)).replace("${schema}", ZEOCORE_SCHEMA));
        }
      }
      JdbcConnectionStore.builder().dataSource(pool, Dialect.POSTGRESQL).schema(ROWS_SCHEMA).build().close();
      try (java.sql.Connection connection = pool.getConnection()) {
        PostgresRows.dropTriggers(connection, ROWS_SCHEMA);
      }
      String run = Long.toString(System.nanoTime(), 36);
      EffectAuthorization signed = issuer.next();
      for (int callers : new int[] {1, 4, 16}) {
        contenders.add(new ZeoCore("pg-zeocore-" + callers, callers, store, preferred, issuer, run + callers));
        contenders.add(new PostgresRaw("pg-raw-" + callers, callers, pgUrl, null, null));
        contenders.add(new PostgresRaw("pg-raw-bc-" + callers, callers, pgUrl, preferred, signed));
        contenders.add(new PostgresRows("pg-rows-bc-" + callers, callers, pgUrl, preferred, signed));
      }
      for (int callers : new int[] {1, 16}) {
        contenders.add(new ZeoCore("pg-zeocore-url-" + callers, callers, onUrl, preferred, issuer,
            run + "u" + callers));
      }
      try {
        return rounds(contenders, rounds, effects, System.out);
      } finally {
        for (Contender contender : contenders) {
          contender.close();
        }
      }
    }
  }

  /** {@link #run} without preparing again (the child prepared before it said so). */
  Batch runPrepared(Contender contender, int perCaller) throws Exception {
    Contender already = new Contender(contender.name, contender.callers) {
      @Override
      void effect(int caller, int index) throws Exception {
        contender.effect(caller, index);
      }
    };
    return run(already, perCaller);
  }


  // ------------------------------------------------------------------------------------------------------------
  // Fixtures

  private static double quantile(long[] sorted, double q) {
    return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }

  static ConnectorRevision revision() {
    BusinessOperation refund = new BusinessOperation(CREATE_REFUND, EffectKind.FINANCIAL,
        closedSchema("amount", "charge"), Map.of("type", "object"), "https://api.stripe.com", "POST", "/v1/refunds",
        List.of("api_key"), List.of("$.id"), IdempotencyMode.PROVIDER_NATIVE, "lookup_by_idempotency_key", null);
    return new ConnectorRevision(new ConnectorId("stripe"), REVISION, "stripe", "api_key", "GET /v1/account",
        "GET /v1/balance", "header:Authorization", "default", "1", List.of("https://api.stripe.com"),
        List.of("refunds:write"), List.of(refund), 65_536, 1_048_576, 30.0, false, RiskClass.HIGH, true,
        "by_idempotency_key", null, List.of("fixture-1"));
  }

  static Connection connection(Instant now) {
    return new Connection(CONNECTION, ORG, new ConnectorId("stripe"), REVISION, "default-app", "acct_123",
        List.of("folder-a"), List.of("refunds:write"), List.of(CREATE_REFUND),
        new SecretRef("zc0-kc:org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a"), ConnectionStatus.ACTIVE,
        ConnectionHealth.HEALTHY, now.minusSeconds(60), now.minusSeconds(30), null);
  }

  private static Map<String, Object> closedSchema(String... propertyNames) {
    Map<String, Object> properties = new LinkedHashMap<>();
    for (String name : propertyNames) {
      properties.put(name, Map.of("type", "string"));
    }
    return BusinessOperation.closedRequestSchema(properties);
  }
}
