package io.zeocore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.contract.ContractJson;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.effect.ReconciliationResult;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads (two store instances) and several JVMs race the same authorizations on one database; then every
 * authorization is replayed. A failure: an identity dispatched other than exactly once, an identity not
 * {@code SUCCEEDED} at the end, or a replay that dispatched or answered something other than the stored state.
 */
class RaceAndReplayTest {

  static final String SECTION = "Races and replays";
  static final String RACE_FAILURE = "an identity dispatched ≠ 1 time, or not SUCCEEDED at the end";

  @TempDir
  Path temp;

  @Test
  void sqliteThreadsOnTwoStoreInstancesDispatchEachIdentityOnce() throws Exception {
    World.onTwoSqliteStores(temp.resolve("threads/zeocore.db"), this::threadRace);
  }

  @Test
  void postgresThreadsOnTwoStoreInstancesDispatchEachIdentityOnce() throws Exception {
    World.onTwoPostgresStores(SECTION, this::threadRace);
  }

  private void threadRace(String dialect, JdbcConnectionStore a, JdbcConnectionStore b) throws Exception {
    int identities = Figures.scaled(20);
    int threads = 8;
    World.Authority authority = new World.Authority();
    List<EffectAuthorization> authorizations = new ArrayList<>();
    for (int i = 0; i < identities; i++) {
      authorizations.add(authority.sign(dialect + "-t-" + i, "k-" + i, World.body(i)));
    }
    EffectOrchestrator[] orchestrators = {authority.orchestrator(a), authority.orchestrator(b)};
    Map<Integer, AtomicInteger> dispatches = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      futures.add(pool.submit(() -> {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < identities; i++) {
          order.add(i);
        }
        Collections.shuffle(order, new Random(thread));
        start.await();
        for (int i : order) {
          World.execute(orchestrators[thread % 2], authorizations.get(i), i, request -> {
            dispatches.computeIfAbsent(i, x -> new AtomicInteger()).incrementAndGet();
            return EffectDispatchResult.confirmed("c".repeat(64));
          }, request -> ReconciliationResult.unresolved("e".repeat(64)));
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> future : futures) {
      future.get(120, TimeUnit.SECONDS);
    }
    pool.shutdown();
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < identities; i++) {
      int count = dispatches.getOrDefault(i, new AtomicInteger()).get();
      EffectState state = a.getEffect(World.ORG, new EffectId("x-" + i)).map(EffectRecord::state)
          .orElse(null);
      if (count != 1 || state != EffectState.SUCCEEDED) {
        failures.add(i + ": " + count + " dispatches, " + state);
      }
    }
    Figures.record(SECTION, dialect + ", " + threads + " threads × 2 store instances racing each identity",
        identities, failures.size(), RACE_FAILURE);
    assertThat(failures).isEmpty();
    replays(dialect, a, authority, authorizations);
  }

  /** Every authorization again: same execution id, another execution id, another body; none may dispatch. */
  private void replays(String dialect, JdbcConnectionStore store, World.Authority authority,
      List<EffectAuthorization> authorizations) {
    EffectOrchestrator fresh = authority.orchestrator(store);
    AtomicInteger dispatched = new AtomicInteger();
    List<String> failures = new ArrayList<>();
    int trials = 0;
    int rounds = Figures.scaled(2);
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < authorizations.size(); i++) {
        EffectAuthorization authorization = authorizations.get(i);
        int effect = i;
        List<Supplier<EffectResult>> attempts = List.of(
            () -> World.execute(fresh, authorization, effect, request -> {
              dispatched.incrementAndGet();
              return EffectDispatchResult.confirmed("c".repeat(64));
            }, request -> ReconciliationResult.unresolved("e".repeat(64))),
            () -> fresh.execute(World.ORG, World.CONNECTION, World.REVISION, World.REFUND, authorization,
                new EffectId("other-" + effect), World.body(effect), request -> {
                  dispatched.incrementAndGet();
                  return EffectDispatchResult.confirmed("c".repeat(64));
                }, request -> ReconciliationResult.unresolved("e".repeat(64))),
            () -> fresh.execute(World.ORG, World.CONNECTION, World.REVISION, World.REFUND, authorization,
                new EffectId("x-" + effect), World.body(effect + 1000), request -> {
                  dispatched.incrementAndGet();
                  return EffectDispatchResult.confirmed("c".repeat(64));
                }, request -> ReconciliationResult.unresolved("e".repeat(64))));
        for (int kind = 0; kind < attempts.size(); kind++) {
          trials++;
          int before = dispatched.get();
          EffectResult result = attempts.get(kind).get();
          boolean ok = dispatched.get() == before
              && (kind == 2 ? result.state() == EffectState.REFUSED : result.state() == EffectState.SUCCEEDED);
          if (!ok) {
            failures.add(i + " kind " + kind + ": " + result);
          }
        }
      }
    }
    Figures.record(SECTION, dialect + ", replays of dispatched authorizations (same id, other id, other body)",
        trials, failures.size(), "a dispatch, or an answer other than the stored SUCCEEDED (REFUSED for another body)");
    assertThat(failures).isEmpty();
  }

  @Test
  void threeSqliteJvmsRacingTheSameAuthorizationsDispatchEachOnce() throws Exception {
    Path database = temp.resolve("processes/zeocore.db");
    processRace("SQLite", 3, "sqlite:" + database, () -> JdbcConnectionStore.openSqlite(database));
  }

  @Test
  void twoPostgresJvmsRacingTheSameAuthorizationsDispatchEachOnce() throws Exception {
    Pg.require(SECTION + " on PostgreSQL");
    String schema = Pg.newSchema();
    Pg.store(schema).close();
    try {
      processRace("PostgreSQL", 2, "pg:" + schema, () -> Pg.store(schema));
    } finally {
      Pg.drop(schema);
    }
  }

  private void processRace(String dialect, int jvms, String target, Supplier<JdbcConnectionStore> opener)
      throws Exception {
    int identities = Figures.scaled(20);
    Path work = Files.createDirectories(temp.resolve("race-" + dialect));
    World.Authority authority = new World.Authority();
    Path key = Files.writeString(work.resolve("issuer.pem"), Ed25519Keys.publicKeyPem(authority.keys.getPublic()));
    for (int i = 0; i < identities; i++) {
      Files.writeString(work.resolve("auth-" + i + ".json"), ContractJson.mapper().writeValueAsString(
          authority.sign(dialect + "-p-" + i, "k-" + i, World.body(i))));
    }
    List<Process> children = new ArrayList<>();
    for (int j = 0; j < jvms; j++) {
      children.add(Children.start(work.resolve("child-" + j + ".log"), CrashChild.class, target,
          CrashChild.Point.RACE.name(), Integer.toString(identities), work.toString(), key.toString()));
    }
    for (int j = 0; j < jvms; j++) {
      Process child = children.get(j);
      assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).as(Files.readString(work.resolve("child-" + j + ".log"))).isZero();
    }
    Map<String, Integer> dispatches = new ConcurrentHashMap<>();
    for (String line : Files.readAllLines(work.resolve("dispatches.log"))) {
      dispatches.merge(line.trim(), 1, Integer::sum);
    }
    List<String> failures = new ArrayList<>();
    try (JdbcConnectionStore store = opener.get()) {
      for (int i = 0; i < identities; i++) {
        int count = dispatches.getOrDefault(Integer.toString(i), 0);
        EffectState state = store.getEffect(World.ORG, new EffectId("x-" + i)).map(EffectRecord::state)
            .orElse(null);
        if (count != 1 || state != EffectState.SUCCEEDED) {
          failures.add(i + ": " + count + " dispatches, " + state);
        }
      }
    }
    Figures.record(SECTION, dialect + ", " + jvms + " JVMs racing each identity", identities, failures.size(),
        RACE_FAILURE);
    assertThat(failures).isEmpty();
  }
}
