package io.zeocore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectListener;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconcilers;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.store.EffectRecoveryStore;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Canaries: each effect carries a unique secret-looking string in the places a caller or a provider controls (the
 * request body, a dispatcher's or reconciler's exception message, a provider detail, a refused request's body), and
 * every channel ZeoCore writes to is searched for any of them afterwards: the SQLite file, its WAL and SHM (or every
 * PostgreSQL row), the log file (all levels down to DEBUG), every listener event, every exception thrown to the caller
 * with its causes, and every result. A failure: a canary found in a channel.
 */
class CanaryTest {

  static final String SECTION = "Canaries (secrets in every channel)";

  @TempDir
  Path temp;

  @Test
  void noCanaryReachesTheSqliteFilesLogsEventsExceptionsOrResults() throws Exception {
    Path file = temp.resolve("canary/zeocore.db");
    Map<String, String> channels;
    try (JdbcConnectionStore store = World.seed(JdbcConnectionStore.openSqlite(file))) {
      channels = run("SQLite", store);
      channels.put("database file, WAL and SHM (before close)", files(file));
    }
    channels.put("database file, WAL and SHM (after close)", files(file));
    assertNoCanary("SQLite", channels);
  }

  @Test
  void noCanaryReachesPostgresRowsLogsEventsExceptionsOrResults() throws Exception {
    Pg.require(SECTION + " on PostgreSQL");
    String schema = Pg.newSchema();
    try (JdbcConnectionStore store = World.seed(Pg.store(schema))) {
      Map<String, String> channels = run("PostgreSQL", store);
      try (Connection raw = Pg.dataSource().getConnection()) {
        RawSql.exec(raw, "SET search_path = " + schema);
        channels.put("every row of every table", RawSqlAttackTest.fingerprint(raw));
      }
      assertNoCanary("PostgreSQL", channels);
    } finally {
      Pg.drop(schema);
    }
  }

  static final int EFFECTS = 40;

  static String canary(String dialect, int i) {
    return "CANARY" + dialect.length() + "x" + i + "q7Zt";
  }

  private Map<String, String> run(String dialect, JdbcConnectionStore store) throws Exception {
    World.Authority authority = new World.Authority();
    ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
    EffectListener listener = new EffectListener() {
      @Override
      public void transitionRecorded(EffectRecord effect, EffectState previousState) {
        events.add(String.valueOf(effect) + previousState);
      }

      @Override
      public void receiptRecorded(EffectReceipt receipt) {
        events.add(String.valueOf(receipt));
      }
    };
    EffectOrchestrator orchestrator = EffectOrchestrator.builder(store, authority.verifier).listener(listener).build();
    StringBuilder exceptions = new StringBuilder();
    StringBuilder results = new StringBuilder();
    for (int i = 0; i < EFFECTS; i++) {
      String canary = canary(dialect, i);
      byte[] body = ("{\"amount\":" + i + ",\"charge\":\"" + canary + "\"}").getBytes(StandardCharsets.UTF_8);
      var authorization = authority.signer.sign(World.unsigned(dialect + "-c-" + i, "k-" + i, body));
      if (i % 4 == 3) {
        authorization = authorization.withSignature("AAAA");
      }
      int kind = i % 4;
      try {
        results.append(orchestrator.execute(World.ORG, World.CONNECTION, World.REVISION, World.REFUND, authorization,
            new io.zeocore.connections.contract.EffectId("x-" + i), body, request -> {
              switch (kind) {
                case 1 -> throw new IllegalStateException("provider said " + canary);
                case 2 -> {
                  return EffectDispatchResult.failedSafe(new NormalizedError(NormalizedErrorCode.FAILED_SAFE,
                      "declined", "provider body " + canary));
                }
                default -> {
                  return EffectDispatchResult.confirmed("c".repeat(64));
                }
              }
            }, request -> {
              throw new IllegalStateException("reconciler saw " + canary);
            }));
      } catch (RuntimeException e) {
        exceptions.append(stackTrace(e));
      }
    }
    // recovery's reconcilers see the same canaries
    EffectRecovery recovery = EffectRecovery.builder((EffectRecoveryStore) store, EffectReconcilers.byOperation(
            Map.of(World.REFUND, request -> {
              throw new IllegalStateException("recovery reconciler saw " + canary(dialect, 1));
            })))
        .dispatchStaleAfter(Duration.ofMillis(1)).initialBackoff(Duration.ofMillis(1)).maxBackoff(Duration.ofMillis(1))
        .listener(listener).build();
    Thread.sleep(5);
    results.append(recovery.recoverOnce());
    Map<String, String> channels = new LinkedHashMap<>();
    channels.put("listener events", String.join("\n", events));
    channels.put("exceptions thrown to the caller", exceptions.toString());
    channels.put("results", results.toString());
    Path log = Path.of(System.getProperty("reliability.log", "target/reliability-log.txt"));
    channels.put("log file (DEBUG and up)", Files.exists(log) ? Files.readString(log) : "");
    return channels;
  }

  /** {@code thrown}'s whole stack trace with its causes, as a caller's log would show it. */
  static String stackTrace(Throwable thrown) {
    StringWriter trace = new StringWriter();
    thrown.printStackTrace(new PrintWriter(trace));
    return trace.toString();
  }

  private void assertNoCanary(String dialect, Map<String, String> channels) {
    Map<String, List<String>> hits = new LinkedHashMap<>();
    for (Map.Entry<String, String> channel : channels.entrySet()) {
      List<String> found = new ArrayList<>();
      for (int i = 0; i < EFFECTS; i++) {
        if (channel.getValue().contains(canary(dialect, i))) {
          found.add(canary(dialect, i));
        }
      }
      Figures.record(SECTION, dialect + ", " + channel.getKey(), EFFECTS, found.size(),
          "a canary (in a body, exception, provider detail or refused request) found in the channel");
      if (!found.isEmpty()) {
        hits.put(channel.getKey(), found);
      }
    }
    assertThat(hits).isEmpty();
  }

  private static String files(Path database) throws Exception {
    StringBuilder all = new StringBuilder();
    for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
      Path file = database.resolveSibling(database.getFileName() + suffix);
      if (Files.exists(file)) {
        all.append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
      }
    }
    return all.toString();
  }
}
