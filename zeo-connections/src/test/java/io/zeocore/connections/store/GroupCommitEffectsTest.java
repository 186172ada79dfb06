package io.zeocore.connections.store;

import static io.zeocore.connections.contract.ContractFixtures.BODY;
import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.CREATE_REFUND;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.authorization.AuthorizationSigner;
import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.authorization.Ed25519SignatureVerifier;
import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectDispatcher;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectResult;
import java.nio.file.Path;
import java.security.KeyPair;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Group commit on the embedded SQLite store, seen from {@link EffectOrchestrator}. */
class GroupCommitEffectsTest {

  @TempDir
  Path directory;

  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final KeyPair keys = Ed25519Keys.generate();
  private final AuthorizationSigner signer = new AuthorizationSigner("zeo-go", keys.getPrivate());
  private final AtomicInteger dispatches = new AtomicInteger();
  private final EffectDispatcher confirming = request -> {
    dispatches.incrementAndGet();
    return EffectDispatchResult.confirmed("c".repeat(64));
  };
  private final EffectReconciler never = request -> {
    throw new AssertionError("never reconciled here");
  };

  private final AtomicInteger commitAttempts = new AtomicInteger();
  private volatile int failingAttempt;
  private final CountDownLatch holding = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private volatile int blockingAttempt;

  @AfterEach
  void stop() {
    threads.shutdownNow();
  }

  @Test
  void callersWhoseSharedCommitFailedGetAnErrorAndNothingIsDispatchedOrStored() throws Exception {
    try (JdbcConnectionStore store = JdbcConnectionStore.builder().sqliteFile(directory.resolve("zeocore.db"))
        .committer(this::commit).build()) {
      store.saveConnectorRevision(ORG, ContractFixtures.revision());
      store.saveConnection(ORG, ContractFixtures.connection());
      CountDownLatch arrived = new CountDownLatch(2);
      CountDownLatch go = new CountDownLatch(1);
      EffectOrchestrator orchestrator = new EffectOrchestrator(pausingBeforeClaims(store, arrived, go),
          new ExactAuthorizationVerifier(Ed25519SignatureVerifier.of("zeo-go", keys.getPublic()), "zeocore",
              Set.of("zeo-go")));

      // two callers verify, read and preflight, then wait just before their claims
      List<Future<EffectResult>> callers = new ArrayList<>();
      for (String name : List.of("b", "c")) {
        callers.add(threads.submit(() -> orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
            authorization(name), new EffectId("exec-" + name), BODY, confirming, never)));
      }
      assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
      // another write holds the writer inside its commit; both claims queue behind it and share the next commit
      blockingAttempt = commitAttempts.get() + 1;
      failingAttempt = blockingAttempt + 1;
      Future<?> holder = threads.submit(() -> store.saveConnection(ORG, ContractFixtures.connection()));
      assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
      go.countDown();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (store.queuedWrites() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertThat(store.queuedWrites()).isEqualTo(2);
      release.countDown();
      holder.get(10, TimeUnit.SECONDS);

      for (Future<EffectResult> caller : callers) {
        Throwable failure = catchFailure(caller);
        assertThat(failure).isInstanceOf(ConnectionStoreException.class);
        assertThat(failure).hasRootCauseMessage("injected: the shared commit failed");
      }
      assertThat(dispatches).hasValue(0);
      for (String name : List.of("b", "c")) {
        assertThat(store.getEffect(ORG, new EffectId("exec-" + name))).isEmpty();
        assertThat(store.hasAuthorizationNonce(ORG, "nonce-" + name)).isFalse();
      }

      // the store goes on: the same authorization now runs once
      EffectResult again = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
          authorization("d"), new EffectId("exec-d"), BODY, confirming, never);
      assertThat(again.state()).isEqualTo(EffectState.SUCCEEDED);
      assertThat(dispatches).hasValue(1);
    }
  }

  private void commit(SqlDialect dialect, SqlSession session) throws SQLException {
    int attempt = commitAttempts.incrementAndGet();
    if (attempt == blockingAttempt) {
      holding.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (attempt == failingAttempt) {
      throw new SQLException("injected: the shared commit failed");
    }
    dialect.commit(session);
  }

  private EffectAuthorization authorization(String name) {
    Instant now = Instant.now();
    return signer.sign(new EffectAuthorization(new AuthorizationId("auth-" + name), ORG, "seat-1", "binding-1",
        "packet-1", "attempt-1", CONNECTION, REVISION, CREATE_REFUND, Digests.requestDigest(BODY),
        new IdempotencyKey("idem-" + name), List.of("approval-1"), now.minusSeconds(1), now.plusSeconds(300),
        "nonce-" + name, "zeocore", "zeo-go", "unsigned"));
  }

  /** {@code store} whose {@code claimEffect} first counts down {@code arrived} and waits for {@code go}. */
  private static EffectStore pausingBeforeClaims(EffectStore store, CountDownLatch arrived, CountDownLatch go) {
    return InterceptedEffectStore.of(store, method -> {
      if (method.equals("claimEffect")) {
        arrived.countDown();
        go.await();
      }
    });
  }

  private static Throwable catchFailure(Future<?> future) throws InterruptedException {
    try {
      future.get(10, TimeUnit.SECONDS);
      return null;
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the caller did not return", e);
    }
  }
}
