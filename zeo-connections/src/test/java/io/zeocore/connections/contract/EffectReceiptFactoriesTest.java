package io.zeocore.connections.contract;

import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.EVIDENCE_REF;
import static io.zeocore.connections.contract.ContractFixtures.EXECUTION;
import static io.zeocore.connections.contract.ContractFixtures.HEX;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.T;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Each named receipt factory builds exactly the receipt its kind needs, and the record's rules still apply. */
class EffectReceiptFactoriesTest {

  private static final EffectRecord STARTED = ContractFixtures.effect(EffectState.DISPATCH_STARTED);
  private static final ConfirmationEvidenceRef REF = new ConfirmationEvidenceRef(EVIDENCE_REF);
  private static final NormalizedError NO_EFFECT = new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "no effect");
  private static final NormalizedError UNKNOWN = new NormalizedError(NormalizedErrorCode.RESULT_AMBIGUOUS, "unknown");

  @Test
  void succeededCarriesItsEvidenceAndDispatchStart() {
    assertThat(EffectReceipt.succeeded(STARTED, T.plusSeconds(2), T.plusSeconds(1), REF)).isEqualTo(
        new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.SUCCEEDED, null, T.plusSeconds(2),
            T.plusSeconds(1), null, REF, null, null, null));
  }

  @Test
  void failedSafeCarriesItsErrorAndNoEvidence() {
    assertThat(EffectReceipt.failedSafe(STARTED, NO_EFFECT, T.plusSeconds(2), T.plusSeconds(1))).isEqualTo(
        new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.FAILED_SAFE, NO_EFFECT, T.plusSeconds(2),
            T.plusSeconds(1), null, null, null, null, null));
  }

  @Test
  void ambiguityAndReconciliationAttemptStayAmbiguous() {
    assertThat(EffectReceipt.ambiguity(STARTED, UNKNOWN, T.plusSeconds(2), T.plusSeconds(1))).isEqualTo(
        new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.AMBIGUOUS, UNKNOWN, T.plusSeconds(2),
            T.plusSeconds(1), null, null, null, null, null));
    assertThat(EffectReceipt.reconciliationAttempt(STARTED, UNKNOWN, T.plusSeconds(3), T.plusSeconds(1), HEX))
        .isEqualTo(new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.AMBIGUOUS, UNKNOWN, T.plusSeconds(3),
            T.plusSeconds(1), null, null, null, null, HEX));
  }

  @Test
  void resolutionPointsAtTheAmbiguityItResolves() {
    EffectReceipt resolved = EffectReceipt.resolution(STARTED, EffectState.FAILED_SAFE, NO_EFFECT, T.plusSeconds(3),
        T.plusSeconds(1), null, HEX, T.plusSeconds(2));
    assertThat(resolved.resolvesAmbiguity()).isTrue();
    assertThat(resolved).isEqualTo(new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.FAILED_SAFE, NO_EFFECT,
        T.plusSeconds(3), T.plusSeconds(1), T.plusSeconds(3), null, HEX, T.plusSeconds(2), null));
    assertThat(EffectReceipt.resolution(STARTED, EffectState.SUCCEEDED, null, T.plusSeconds(3), T.plusSeconds(1),
        REF, HEX, T.plusSeconds(2)).confirmationEvidenceRef()).isEqualTo(REF);
  }

  @Test
  void resolutionToAnUnresolvedStateIsRefusedByTheRecordRules() {
    assertThatThrownBy(() -> EffectReceipt.resolution(STARTED, EffectState.AMBIGUOUS, UNKNOWN, T.plusSeconds(3),
        T.plusSeconds(1), null, HEX, T.plusSeconds(2))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusalNeverCarriesADispatchStart() {
    NormalizedError refused = new NormalizedError(NormalizedErrorCode.REQUEST_REFUSED, "authorization refused: EXPIRED");
    EffectReceipt receipt = EffectReceipt.refusal(EXECUTION, ORG, CONNECTION, refused, T);
    assertThat(receipt.finalState()).isEqualTo(EffectState.REFUSED);
    assertThat(receipt.dispatchStartedAt()).isNull();
    assertThat(receipt.normalizedError()).isEqualTo(refused);
  }
}
