package io.zeocore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unauthenticated input must not grow the store: a flood of forged signatures, untrusted issuers and forged
 * authorizations that also fail an earlier check, each under a fresh execution id. A failure: a request that stored a
 * row, dispatched, or was answered with an execution id; the database file (with its WAL) growing at all; a refusal
 * missing from the orchestrator's counter.
 */
class UnauthenticatedFloodTest {

  @TempDir
  Path temp;

  @Test
  void aFloodOfUnauthenticatedAuthorizationsStoresNothingAndIsCounted() throws Exception {
    Path file = temp.resolve("flood/zeocore.db");
    int requests = Figures.scaled(3_000);
    try (JdbcConnectionStore store = World.seed(JdbcConnectionStore.openSqlite(file))) {
      World.Authority authority = new World.Authority();
      World.Authority stranger = new World.Authority();
      EffectOrchestrator orchestrator = authority.orchestrator(store);
      long before = bytes(file);
      AtomicInteger dispatches = new AtomicInteger();
      long failures = 0;
      for (int i = 0; i < requests; i++) {
        EffectAuthorization signed = (i % 3 == 0 ? stranger : authority).sign("flood-" + i, "k-" + i, World.body(i));
        EffectAuthorization sent = switch (i % 3) {
          case 0 -> signed; // a key the verifier does not trust
          case 1 -> signed.withSignature("AAAA" + signed.signature().substring(4));
          default -> new EffectAuthorization(signed.authorizationId(), new OrganizationId("org-other"),
              signed.seatId(), signed.runtimeBindingId(), signed.packetId(), signed.attemptId(), signed.connectionId(),
              signed.connectorRevision(), signed.operationId(), signed.argumentDigest(), signed.idempotencyKey(),
              signed.approvalRefs(), signed.issuedAt(), signed.expiresAt(), signed.nonce(), signed.audience(),
              signed.issuer(), signed.signature());
        };
        EffectResult result = orchestrator.execute(World.ORG, World.CONNECTION, World.REVISION, World.REFUND,
            sent, new EffectId("flood-" + i), World.body(i), request -> {
              dispatches.incrementAndGet();
              return EffectDispatchResult.confirmed("c".repeat(64));
            }, request -> null);
        if (result.state() != EffectState.REFUSED || result.effectId() != null) {
          failures++;
        }
      }
      long stored = store.effectCountsByState().values().stream().mapToLong(Long::longValue).sum();
      long counted = orchestrator.unauthenticatedRefusals().values().stream().mapToLong(Long::longValue).sum();
      long grown = bytes(file) - before;
      failures += stored + dispatches.get() + (grown != 0 ? 1 : 0) + Math.abs(requests - counted);
      Figures.record("Unauthenticated input (issue 19 item 7)", "SQLite, forged/untrusted authorizations under fresh"
          + " execution ids", requests, failures, "a stored row, a dispatch, an execution id in the answer, any growth"
          + " of the database file or WAL, or a refusal not counted");
      assertThat(stored).isZero();
      assertThat(dispatches).hasValue(0);
      assertThat(grown).isZero();
      assertThat(counted).isEqualTo(requests);
      assertThat(failures).isZero();
    }
  }

  private static long bytes(Path database) throws Exception {
    long total = 0;
    for (String suffix : new String[] {"", "-wal"}) {
      Path file = database.resolveSibling(database.getFileName() + suffix);
      total += Files.exists(file) ? Files.size(file) : 0;
    }
    return total;
  }
}
