package io.zeocore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.contract.ContractJson;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconcilers;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.effect.ReconciliationResult;
import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.reliability.CrashChild.Point;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Crash injection at every state boundary of an effect: child JVMs hold {@code count} effects at one point, are
 * SIGKILLed there, and this JVM then recovers the database (recovery with a 1 ms staleness, a reconciler that knows the
 * truth from the dispatch log) and replays every authorization through a fresh orchestrator.
 *
 * <p>A failure, per effect: dispatched more than once (counting the replay); a state other than {@code SUCCEEDED},
 * {@code FAILED_SAFE} or never-stored after recovery; {@code SUCCEEDED} without a dispatch or {@code FAILED_SAFE} after
 * one; a final state without its receipt; history that is not a chain of increasing instants.
 */
class CrashInjectionTest {

  static final int EFFECTS_PER_JVM = 25;

  @TempDir
  Path temp;

  @ParameterizedTest
  @EnumSource(value = Point.class, names = "RACE", mode = EnumSource.Mode.EXCLUDE)
  void sqliteEffectsKilledAtEachBoundaryAreRecoveredWithoutASecondDispatch(Point point) throws Exception {
    int jvms = Figures.scaled(2);
    Tally tally = new Tally();
    List<String> modes = new ArrayList<>();
    for (int trial = 0; trial < jvms; trial++) {
      Path work = Files.createDirectories(temp.resolve(point + "-" + trial));
      Path database = work.resolve("data/zeocore.db");
      crashOnce(work, "sqlite:" + database, point, EFFECTS_PER_JVM, tally,
          () -> JdbcConnectionStore.openSqlite(database), modes, database);
    }
    long badModes = modes.stream().filter(mode -> !mode.equals("rw-------")).count();
    Figures.record("Crash injection (SIGKILLed child JVMs)", "SQLite, kill " + point.name().toLowerCase()
        + " (" + jvms + " JVMs × " + EFFECTS_PER_JVM + " effects)", tally.effects, tally.failures.size(),
        "second dispatch; non-final state after recovery; SUCCEEDED without dispatch or FAILED_SAFE after one;"
        + " final state without receipt; broken history");
    Figures.record("File modes", "SQLite db/-wal/-shm after SIGKILL under umask 000, kill " + point.name()
        .toLowerCase(), modes.size(), badModes, "any file not rw------- (0600)");
    assertThat(tally.failures).isEmpty();
    assertThat(modes).containsOnly("rw-------");
  }

  @ParameterizedTest
  @EnumSource(value = Point.class, names = {"AFTER_CLAIM", "IN_PROVIDER", "AFTER_AMBIGUOUS"})
  void postgresEffectsKilledAtEachBoundaryAreRecoveredWithoutASecondDispatch(Point point) throws Exception {
    Pg.require("Crash injection on PostgreSQL");
    int jvms = Figures.scaled(1);
    Tally tally = new Tally();
    for (int trial = 0; trial < jvms; trial++) {
      Path work = Files.createDirectories(temp.resolve("pg-" + point + "-" + trial));
      String schema = Pg.newSchema();
      Pg.store(schema).close();
      try {
        crashOnce(work, "pg:" + schema, point, 2 * EFFECTS_PER_JVM, tally, () -> Pg.store(schema),
            new ArrayList<>(), null);
      } finally {
        Pg.drop(schema);
      }
    }
    Figures.record("Crash injection (SIGKILLed child JVMs)", "PostgreSQL, kill " + point.name().toLowerCase()
        + " (" + jvms + " JVM × " + 2 * EFFECTS_PER_JVM + " effects)", tally.effects, tally.failures.size(),
        "as for SQLite");
    assertThat(tally.failures).isEmpty();
  }

  static final class Tally {
    long effects;
    final List<String> failures = new ArrayList<>();
  }

  interface Opener {
    JdbcConnectionStore open();
  }

  private void crashOnce(Path work, String target, Point point, int effects, Tally tally, Opener opener,
      List<String> modes, Path database) throws Exception {
    World.Authority authority = new World.Authority();
    Path key = Files.writeString(work.resolve("issuer.pem"), Ed25519Keys.publicKeyPem(authority.keys.getPublic()));
    List<EffectAuthorization> authorizations = new ArrayList<>();
    for (int i = 0; i < effects; i++) {
      EffectAuthorization authorization = authority.sign(work.getFileName() + "-n-" + i, "k-" + i, World.body(i));
      authorizations.add(authorization);
      Files.writeString(work.resolve("auth-" + i + ".json"), ContractJson.mapper().writeValueAsString(authorization));
    }
    Path log = work.resolve("child.log");
    Process child = Children.start(log, CrashChild.class, target, point.name(), Integer.toString(effects),
        work.toString(), key.toString());
    Children.awaitFile(child, work.resolve("ready"), log, 60);
    assertThat(Children.kill(child)).isEqualTo(137);
    if (database != null) {
      for (String suffix : List.of("", "-wal", "-shm")) {
        Path file = database.resolveSibling(database.getFileName() + suffix);
        if (Files.exists(file)) {
          modes.add(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        }
      }
    }

    Map<Integer, Integer> dispatched = new HashMap<>();
    Path dispatchLog = work.resolve("dispatches.log");
    if (Files.exists(dispatchLog)) {
      for (String line : Files.readAllLines(dispatchLog)) {
        if (!line.isBlank()) {
          dispatched.merge(Integer.parseInt(line.trim()), 1, Integer::sum);
        }
      }
    }
    try (JdbcConnectionStore store = opener.open()) {
      EffectRecovery recovery = EffectRecovery.builder(store, EffectReconcilers.byOperation(Map.of(World.REFUND,
              request -> {
                int i = Integer.parseInt(request.effectId().value().substring(2));
                return dispatched.containsKey(i) ? ReconciliationResult.confirmed("e".repeat(64),
                    CrashChild.CONFIRMATION) : ReconciliationResult.failedSafe("e".repeat(64),
                    new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "provider has no such refund"));
              })))
          .dispatchStaleAfter(Duration.ofMillis(1)).initialBackoff(Duration.ofMillis(1))
          .maxBackoff(Duration.ofMillis(1)).batchSize(1000).build();
      Thread.sleep(5);
      recovery.recoverOnce();
      EffectOrchestrator fresh = authority.orchestrator(store);
      for (int i = 0; i < effects; i++) {
        tally.effects++;
        EffectId id = new EffectId("x-" + i);
        EffectRecord stored = store.getEffect(World.ORG, id).orElse(null);
        int before = dispatched.getOrDefault(i, 0);
        AtomicInteger replayDispatches = new AtomicInteger();
        EffectResult replay = World.execute(fresh, authorizations.get(i), i, request -> {
          replayDispatches.incrementAndGet();
          return EffectDispatchResult.confirmed(CrashChild.CONFIRMATION);
        }, request -> ReconciliationResult.unresolved("e".repeat(64)));
        String where = point + " " + work.getFileName() + " effect " + i + ": ";
        if (before + replayDispatches.get() > 1) {
          tally.failures.add(where + "dispatched " + (before + replayDispatches.get()) + " times");
        }
        if (stored == null) {
          if (before > 0) {
            tally.failures.add(where + "dispatched but never stored");
          }
          if (replay.state() != EffectState.SUCCEEDED) {
            tally.failures.add(where + "a never-claimed effect's replay ended " + replay.state());
          }
          continue;
        }
        if (replay.state() != stored.state()) {
          tally.failures.add(where + "replay answered " + replay.state() + " for stored " + stored.state());
        }
        if (stored.state() == EffectState.SUCCEEDED && before == 0) {
          tally.failures.add(where + "SUCCEEDED without a dispatch");
        } else if (stored.state() == EffectState.FAILED_SAFE && before > 0) {
          tally.failures.add(where + "FAILED_SAFE after a dispatch");
        } else if (stored.state() != EffectState.SUCCEEDED && stored.state() != EffectState.FAILED_SAFE) {
          tally.failures.add(where + "left " + stored.state() + " after recovery");
        }
        List<EffectReceipt> receipts = store.getReceiptsForEffect(World.ORG, id);
        if (receipts.isEmpty() || receipts.get(receipts.size() - 1).finalState() != stored.state()) {
          tally.failures.add(where + "final state " + stored.state() + " without its receipt");
        }
        List<EffectRecord> history = store.getEffectHistory(World.ORG, id);
        for (int h = 1; h < history.size(); h++) {
          if (!history.get(h).updatedAt().isAfter(history.get(h - 1).updatedAt())
              || !history.get(h - 1).state().canTransitionTo(history.get(h).state())) {
            tally.failures.add(where + "history is not a chain: " + history);
            break;
          }
        }
      }
    }
  }
}
