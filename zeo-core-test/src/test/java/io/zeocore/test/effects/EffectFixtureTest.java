package io.zeocore.test.effects;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.effect.EffectResult;
import org.junit.jupiter.api.Test;

/**
 * The effect fixtures on a real SQLite store: confirmed, failed-safe and lost answers, one dispatch per idempotency
 * key, and an ambiguity that recovery settles on a later sweep, without ever dispatching again.
 */
class EffectFixtureTest {

  @Test
  void aConfirmedEffectSucceedsAndItsKeyNeverDispatchesTwice() {
    try (EffectFixture effects = EffectFixture.temporary()) {
      ScriptedDispatchers.Recording provider = ScriptedDispatchers.confirming();
      EffectId id = new EffectId("refund-1");
      byte[] body = EffectFixture.refundBody(250, "ch_1");
      EffectResult first = effects.execute(id, "key-1", body, provider, ScriptedReconcilers.unresolved());
      EffectResult again = effects.execute(id, "key-1", body, provider, ScriptedReconcilers.unresolved());

      assertThat(first.state()).isEqualTo(EffectState.SUCCEEDED);
      assertThat(again.state()).isEqualTo(EffectState.SUCCEEDED);
      assertThat(provider.requests()).hasSize(1);
      assertThat(effects.receipts(first.effectId())).isNotEmpty();
    }
  }

  @Test
  void aProviderThatProvesNothingHappenedEndsTheEffectFailedSafe() {
    try (EffectFixture effects = EffectFixture.temporary()) {
      EffectResult refused = effects.execute(ScriptedDispatchers.failingSafely());
      assertThat(refused.state()).isEqualTo(EffectState.FAILED_SAFE);
      assertThat(effects.state(refused.effectId())).isEqualTo(EffectState.FAILED_SAFE);
    }
  }

  @Test
  void aLostAnswerIsAmbiguousUntilALaterSweepReconcilesItWithoutASecondDispatch() {
    try (EffectFixture effects = EffectFixture.temporary()) {
      ScriptedDispatchers.Recording provider = ScriptedDispatchers.losingTheAnswer();
      EffectResult lost = effects.execute(provider, ScriptedReconcilers.unresolved());
      assertThat(lost.state()).isEqualTo(EffectState.AMBIGUOUS);

      var reconciler = ScriptedReconcilers.resolvingAfter(1, ScriptedReconcilers.confirming());
      EffectRecovery.Sweep first = effects.recoverNow(reconciler);
      assertThat(first.stillAmbiguous()).isEqualTo(1);
      assertThat(effects.state(lost.effectId())).isEqualTo(EffectState.AMBIGUOUS);

      EffectRecovery.Sweep second = effects.recoverNow(reconciler);
      assertThat(second.succeeded()).as("%s", second).isEqualTo(1);
      assertThat(effects.state(lost.effectId())).isEqualTo(EffectState.SUCCEEDED);
      assertThat(provider.requests()).as("dispatched once, ever").hasSize(1);
    }
  }

  @Test
  void aReconcilerThatFindsNothingEndsTheAmbiguityFailedSafe() {
    try (EffectFixture effects = EffectFixture.temporary()) {
      EffectResult lost = effects.execute(ScriptedDispatchers.losingTheAnswer(), ScriptedReconcilers.failingSafely());
      assertThat(lost.state()).isEqualTo(EffectState.FAILED_SAFE);
    }
  }

  @Test
  void aFixtureOnTheTestsOwnStoreSeedsItsConnection() throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("zeocore-own-store");
    try (var store = io.zeocore.connections.store.JdbcConnectionStore.openSqlite(dir.resolve("own.db"));
        EffectFixture effects = EffectFixture.on(store)) {
      assertThat(store.getConnection(EffectFixture.ORGANIZATION, EffectFixture.CONNECTION)).isPresent();
      assertThat(effects.execute(ScriptedDispatchers.confirming()).state()).isEqualTo(EffectState.SUCCEEDED);
    }
  }
}
