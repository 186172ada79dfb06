package io.zeocore.connections.contract;

import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.EXECUTION;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.T;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Validation messages that logs and callers match on carry the reference's exact phrases. (The store's "outcome record
 * conflicts with history" is pinned by the store tests of both dialects.)
 */
class ReferencePhrasesTest {

  @Test
  void refusedVerdictWithoutReasonMustCarryANonNullRefusalReason() {
    assertThatThrownBy(() -> new AuthorizationVerdict(false, null, null, null, null, null, null, T, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("refused verdict must carry a non-null refusal_reason");
  }

  @Test
  void resolvingReceiptWithoutReconciliationEvidenceNamesThePriorAmbiguity() {
    assertThatThrownBy(() -> new EffectReceipt(EXECUTION, ORG, CONNECTION, EffectState.FAILED_SAFE,
        new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "no effect"), T, T, T, null, null, T, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("receipt resolving a prior ambiguity must carry reconciliation_evidence");
  }

  @Test
  void malformedConfirmationEvidenceRefDoesNotHaveTheCanonicalShape() {
    for (String malformed : new String[] {"zeo-evidence:v1:not-a-uuid", "zeo-evidence:v2:" + "0".repeat(32),
        ContractFixtures.EVIDENCE_REF.toUpperCase()}) {
      assertThatThrownBy(() -> new ConfirmationEvidenceRef(malformed)).as(malformed)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("does not have the canonical shape");
    }
  }
}
