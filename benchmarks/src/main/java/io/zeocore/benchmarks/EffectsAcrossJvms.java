package io.zeocore.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.zeocore.connections.authorization.Ed25519SignatureVerifier;
import io.zeocore.connections.store.Dialect;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import static io.zeocore.benchmarks.DurableEffects.*;
import static io.zeocore.benchmarks.EffectContenders.*;

/** {@link DurableEffects} with two JVMs on one PostgreSQL database: each child runs its callers, the parent times them together. */
final class EffectsAcrossJvms {

  private EffectsAcrossJvms() {}


  /** Rounds of one batch per kind on two child JVMs at once, {@code callersPerJvm} callers each; prints the totals. */
  static Map<String, Totals> twoJvms(DurableEffects bench, String pgUrl, int rounds, int effects, int callersPerJvm)
      throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = System.getProperty("java.class.path");
    int perCaller = Math.max(2, effects / callersPerJvm);
    List<Process> children = new ArrayList<>();
    List<BufferedReader> outputs = new ArrayList<>();
    List<PrintStream> inputs = new ArrayList<>();
    for (int j = 0; j < 2; j++) {
      Process child = new ProcessBuilder(java, "-Xms256m", "-Xmx256m", "-cp", classpath,
          DurableEffects.class.getName(), "--child", pgUrl, Integer.toString(callersPerJvm),
          Integer.toString(perCaller), "j" + j).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      children.add(child);
      outputs.add(new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)));
      inputs.add(new PrintStream(child.getOutputStream(), true, StandardCharsets.UTF_8));
    }
    String zeo = "pg2jvm-zeocore-" + callersPerJvm;
    String raw = "pg2jvm-raw-" + callersPerJvm;
    Map<String, Totals> totals = new LinkedHashMap<>();
    totals.put(zeo, new Totals(zeo));
    totals.put(raw, new Totals(raw));
    try {
      for (BufferedReader output : outputs) {
        expect(output, "ready");
      }
      for (int r = -Math.max(2, warmUpBatches()); r < rounds; r++) {
        for (String which : (r % 2 == 0) ? List.of("zeocore", "raw") : List.of("raw", "zeocore")) {
          for (BufferedReader output : outputs) {
            expect(output, "prepared");
          }
          LockWaits waits = LockWaits.start(pgUrl);
          long wal0 = bench.walPosition();
          long sampler0 = waits.ownCpuNanos();
          long[] server0 = bench.serverCpuNanos();
          for (PrintStream input : inputs) {
            input.println(which);
          }
          long wall = 0;
          long cpu = 0;
          long alloc = 0;
          List<Long> latencies = new ArrayList<>();
          int done = 0;
          for (BufferedReader output : outputs) {
            String[] parts = output.readLine().split(" ");
            done += Integer.parseInt(parts[0]);
            wall = Math.max(wall, Long.parseLong(parts[1]));
            cpu += Long.parseLong(parts[2]);
            alloc += Long.parseLong(parts[3]);
            for (int k = 4; k < parts.length; k++) {
              latencies.add(Long.parseLong(parts[k]));
            }
          }
          // the sampler's own session is not the effects' cost
          long sampler = waits.ownCpuNanos() - sampler0;
          long[] server1 = bench.serverCpuNanos();
          long server = server1[0] - server0[0] - sampler;
          long backend = server1[1] - server0[1] - sampler;
          long wal = bench.walPosition() - wal0;
          long[] waited = waits.stop();
          if (r >= 0) {
            Totals total = totals.get(which.equals("raw") ? raw : zeo);
            total.add(new Batch(done, wall, cpu, alloc, 0, 0, wal, server, backend,
                latencies.stream().mapToLong(Long::longValue).toArray()));
            total.addLockWaits(waited, waits.byEvent());
          }
        }
      }
      for (PrintStream input : inputs) {
        input.println("exit");
      }
    } finally {
      for (Process child : children) {
        child.waitFor(10, TimeUnit.SECONDS);
        child.destroy();
      }
    }
    for (Totals total : totals.values()) {
      System.out.println(total.json());
    }
    return totals;
  }

  /**
   * Samples {@code pg_stat_activity} every 5 ms on a connection of its own while a batch runs: how many of
   * the database's other sessions wait on a heavyweight lock ({@code wait_event_type = 'Lock'}: a row, a tuple, a
   * transaction id) and how many on a lightweight one ({@code 'LWLock'}: buffer content, WAL insertion).
   */
  static final class LockWaits implements Runnable {

    private final java.sql.Connection connection;
    private final Thread thread;
    private volatile boolean running = true;
    private long samples;
    private long lockWaiting;
    private long lightweightWaiting;
    /** Sessions waiting, summed over the samples, per {@code wait_event_type:wait_event} of either kind. */
    private final Map<String, Long> byEvent = new java.util.TreeMap<>();

    private final long backendPid;

    private LockWaits(String url) throws java.sql.SQLException {
      connection = java.sql.DriverManager.getConnection(url, "postgres", null);
      try (java.sql.Statement statement = connection.createStatement();
          java.sql.ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
        row.next();
        backendPid = row.getLong(1);
      }
      thread = new Thread(this, "lock-waits");
    }

    /** The CPU time of this sampler's own server session so far (the server runs on this machine). */
    long ownCpuNanos() throws IOException {
      String schedstat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(backendPid), "schedstat"));
      return Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
    }

    static LockWaits start(String url) throws java.sql.SQLException {
      LockWaits waits = new LockWaits(url);
      waits.thread.start();
      return waits;
    }

    @Override
    public void run() {
      try (java.sql.PreparedStatement query = connection.prepareStatement("SELECT wait_event_type || ':' ||"
          + " wait_event, count(*) FROM pg_stat_activity WHERE datname = current_database()"
          + " AND pid <> pg_backend_pid() AND wait_event_type IN ('Lock', 'LWLock') GROUP BY 1")) {
        while (running) {
          try (java.sql.ResultSet rows = query.executeQuery()) {
            samples++;
            while (rows.next()) {
              String event = rows.getString(1);
              long waiting = rows.getLong(2);
              byEvent.merge(event, waiting, Long::sum);
              if (event.startsWith("Lock:")) {
                lockWaiting += waiting;
              } else {
                lightweightWaiting += waiting;
              }
            }
          }
          Thread.sleep(5);
        }
      } catch (Exception e) {
        throw new IllegalStateException("lock-wait sampling failed", e);
      }
    }

    /** Stops sampling: {samples, sessions waiting on a lock summed over them, on a lightweight lock}. */
    long[] stop() throws Exception {
      running = false;
      thread.join();
      connection.close();
      return new long[] {samples, lockWaiting, lightweightWaiting};
    }

    /** What {@link #stop()} counted, per wait event (sessions summed over the samples). */
    Map<String, Long> byEvent() {
      return byEvent;
    }
  }

  private static void expect(BufferedReader output, String word) throws IOException {
    String line = output.readLine();
    if (!word.equals(line)) {
      throw new IllegalStateException("child said " + line + ", expected " + word);
    }
  }

  /** A child JVM: waits for "zeocore" or "raw" on stdin, runs one batch, answers with its numbers. */
  static final class Child {

    static void main(String[] args) throws Exception {
      String url = args[0];
      int callers = Integer.parseInt(args[1]);
      int perCaller = Integer.parseInt(args[2]);
      String prefix = args[3];
      BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
          StandardCharsets.UTF_8);
      System.setOut(new PrintStream(java.io.OutputStream.nullOutputStream()));
      Issuer issuer = new Issuer(prefix);
      Ed25519SignatureVerifier preferred = Ed25519SignatureVerifier.of(ISSUER, issuer.publicKey);
      try (HikariDataSource pool = pool(url, callers);
          JdbcConnectionStore store = JdbcConnectionStore.builder().dataSource(pool, Dialect.POSTGRESQL)
              .schema(ZEOCORE_SCHEMA).build()) {
        store.saveConnectorRevision(ORG, revision());
        store.saveConnection(ORG, connection(Instant.parse("2026-01-01T00:00:00Z")));
        Contender zeo = new ZeoCore("zeocore", callers, store, preferred, issuer, prefix);
        Contender raw = new PostgresRaw(prefix + "raw", callers, url, null, null);
        DurableEffects runner = new DurableEffects(null);
        out.println("ready");
        while (true) {
          // prepare both (untimed), then wait for the word
          zeo.prepare(perCaller);
          out.println("prepared");
          String command = commands.readLine();
          if (command == null || command.equals("exit")) {
            break;
          }
          Contender contender = command.equals("raw") ? raw : zeo;
          Batch batch = runner.runPrepared(contender, perCaller);
          StringBuilder line = new StringBuilder().append(batch.effects()).append(' ').append(batch.wallNanos())
              .append(' ').append(batch.cpuNanos()).append(' ').append(batch.allocatedBytes());
          for (long latency : batch.latencies()) {
            line.append(' ').append(latency);
          }
          out.println(line);
        }
        raw.close();
      }
    }
  }

}
