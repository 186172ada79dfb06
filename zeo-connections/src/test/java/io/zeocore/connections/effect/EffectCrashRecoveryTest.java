package io.zeocore.connections.effect;

import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.ContractJson;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import static io.zeocore.connections.contract.ContractFixtures.BODY;
import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.CREATE_REFUND;
import static io.zeocore.connections.contract.ContractFixtures.EXECUTION;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.authorization.AuthorizationSigner;
import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM, started under {@code umask 000}, runs an effect and is killed with SIGKILL while inside the
 * dispatcher. The database it leaves behind is then examined and recovered in this JVM.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EffectCrashRecoveryTest {

  static final String CONFIRMATION = "c".repeat(64);
  static final String EVIDENCE = "e".repeat(64);

  @TempDir
  static Path temp;

  Path database;
  Path dispatchLog;
  EffectAuthorization authorization;
  KeyPair keys;
  final Map<String, String> modesAfterKill = new LinkedHashMap<>();

  @BeforeAll
  void runAndKillTheChild() throws Exception {
    database = temp.resolve("data/zeocore.db");
    dispatchLog = temp.resolve("dispatches.log");
    Path signal = temp.resolve("inside-dispatcher");
    keys = Ed25519Keys.generate();
    authorization = new AuthorizationSigner(EffectWorld.ISSUER, keys.getPrivate()).sign(EffectWorld.unsigned(
        "nonce-crash", ContractFixtures.KEY, Digests.requestDigest(BODY), Instant.now().minusSeconds(5),
        Instant.now().plusSeconds(600)));
    Path authorizationFile = Files.writeString(temp.resolve("authorization.json"),
        ContractJson.mapper().writeValueAsString(authorization));
    Path keyFile = Files.writeString(temp.resolve("issuer.pem"), Ed25519Keys.publicKeyPem(keys.getPublic()));

    String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
    List<String> command = new ArrayList<>(List.of(java, "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
        CrashingEffectMain.class.getName(), database.toString(), authorizationFile.toString(), keyFile.toString(),
        dispatchLog.toString(), signal.toString()));
    // umask 000: anything SQLite created with default permissions would be world-readable and writable
    List<String> shell = List.of("/bin/sh", "-c", "umask 000 && exec \"$@\"", "sh");
    List<String> full = new ArrayList<>(shell);
    full.addAll(command);
    Process child = new ProcessBuilder(full).redirectErrorStream(true)
        .redirectOutput(temp.resolve("child.log").toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (!Files.exists(signal)) {
        assertThat(child.isAlive()).as("child exited early: %s", childLog()).isTrue();
        assertThat(System.nanoTime()).as("child never entered the dispatcher: %s", childLog()).isLessThan(deadline);
        Thread.sleep(20);
      }
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(child.exitValue()).isEqualTo(137); // 128 + SIGKILL
    for (String suffix : List.of("", "-wal", "-shm")) {
      Path file = database.resolveSibling(database.getFileName() + suffix);
      modesAfterKill.put(suffix.isEmpty() ? "db" : suffix,
          Files.exists(file) ? PosixFilePermissions.toString(Files.getPosixFilePermissions(file)) : "absent");
    }
  }

  private String childLog() throws Exception {
    Path log = temp.resolve("child.log");
    return Files.exists(log) ? Files.readString(log) : "";
  }

  @Test
  void theDatabaseItsWalAndShmAreOwnerOnlyUnderUmask000() throws Exception {
    assertThat(modesAfterKill).containsEntry("db", "rw-------").containsEntry("-wal", "rw-------")
        .containsEntry("-shm", "rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(database.getParent())))
        .isEqualTo("rwx------");
  }

  @Test
  void recoveryFinishesTheKilledEffectThroughTheReconcilerWithoutDispatchingAgain() throws Exception {
    try (JdbcConnectionStore store = JdbcConnectionStore.openSqlite(database)) {
      assertThat(store.getEffect(ORG, EXECUTION)).map(EffectRecord::state)
          .contains(EffectState.DISPATCH_STARTED);
      AtomicInteger reconciliations = new AtomicInteger();
      List<EffectReconciliationRequest> requests = new ArrayList<>();
      EffectRecovery recovery = EffectRecovery.builder(store, EffectReconcilers.byOperation(Map.of(CREATE_REFUND,
              request -> {
                reconciliations.incrementAndGet();
                requests.add(request);
                return ReconciliationResult.confirmed(EVIDENCE, CONFIRMATION);
              })))
          .dispatchStaleAfter(Duration.ofMillis(1)).build();

      EffectRecovery.Sweep sweep = recovery.recoverOnce();

      assertThat(sweep.markedAmbiguous()).isEqualTo(1);
      assertThat(sweep.succeeded()).isEqualTo(1);
      assertThat(reconciliations).hasValue(1);
      assertThat(requests.get(0).requestBody()).isNull();
      assertThat(requests.get(0).requestDigest()).isEqualTo(Digests.requestDigest(BODY));
      assertThat(store.getEffectHistory(ORG, EXECUTION)).extracting(EffectRecord::state).containsExactly(
          EffectState.CREATED, EffectState.AUTHORIZATION_VERIFIED, EffectState.PREPARED,
          EffectState.DISPATCH_STARTED, EffectState.AMBIGUOUS, EffectState.SUCCEEDED);
      List<EffectReceipt> receipts = store.getReceiptsForEffect(ORG, EXECUTION);
      assertThat(receipts).extracting(EffectReceipt::finalState)
          .containsExactly(EffectState.AMBIGUOUS, EffectState.SUCCEEDED);
      assertThat(receipts.get(1).resolvesAmbiguousRecordedAt()).isEqualTo(receipts.get(0).recordedAt());

      // the same authorization sent again, to a fresh orchestrator: the recorded outcome, no second dispatch
      AtomicInteger dispatches = new AtomicInteger();
      EffectOrchestrator orchestrator = new EffectOrchestrator(store, EffectWorld.verifier(keys.getPublic()));
      EffectResult replay = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, authorization,
          EXECUTION, BODY, request -> {
            dispatches.incrementAndGet();
            return EffectDispatchResult.confirmed(CONFIRMATION);
          }, request -> ReconciliationResult.unresolved(EVIDENCE));
      assertThat(replay).isEqualTo(new EffectResult(EffectState.SUCCEEDED, EXECUTION, null));
      assertThat(dispatches).hasValue(0);
      assertThat(recovery.recoverOnce().examined()).isZero();
    }
    assertThat(Files.readAllLines(dispatchLog, StandardCharsets.UTF_8)).containsExactly("dispatched");
  }
}
