package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.zeocore.connections.internal.ContractRules;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * An append-only outcome record of an effect; an effect may have several (an {@code AMBIGUOUS} receipt, attempt
 * receipts, then the receipt that resolves the ambiguity). Instants are held at microsecond precision.
 *
 * <p>Validated in this order, the first failure wins:
 * <ol>
 *   <li>{@code finalState} is terminal or {@code AMBIGUOUS};
 *   <li>error by state: {@code SUCCEEDED} forbids {@code normalizedError}; {@code REFUSED}, {@code FAILED_SAFE} and
 *       {@code AMBIGUOUS} require one, and an {@code AMBIGUOUS} error's code is exactly {@code RESULT_AMBIGUOUS};
 *   <li>{@code SUCCEEDED} requires {@code confirmationEvidenceRef} and {@code dispatchStartedAt}; every other state
 *       forbids {@code confirmationEvidenceRef};
 *   <li>{@code REFUSED} forbids {@code dispatchStartedAt} (nothing was dispatched);
 *   <li>{@code reconciliationAttemptEvidence} and {@code reconciliationEvidence} are mutually exclusive;
 *   <li>resolution: {@code reconciliationEvidence} and {@code resolvesAmbiguousRecordedAt} come together, only on a
 *       {@code SUCCEEDED} or {@code FAILED_SAFE} receipt, and with {@code resolvedAt};
 *   <li>{@code reconciliationAttemptEvidence} only while {@code AMBIGUOUS}.
 * </ol>
 * No temporal order between the instants is validated.
 *
 * @param effectId the effect
 * @param organizationId its organization
 * @param connectionId its connection
 * @param finalState the effect's state this receipt records
 * @param normalizedError see the rules
 * @param recordedAt when the receipt was recorded
 * @param dispatchStartedAt when the provider was entered, if it was
 * @param resolvedAt when an ambiguity was resolved
 * @param confirmationEvidenceRef the evidence of a {@code SUCCEEDED} receipt
 * @param reconciliationEvidence the reconciler's evidence digest on a resolving receipt
 * @param resolvesAmbiguousRecordedAt {@code recordedAt} of the {@code AMBIGUOUS} receipt being resolved
 * @param reconciliationAttemptEvidence the evidence digest of an unresolved reconciliation attempt
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EffectReceipt(
    @JsonProperty("execution_id") EffectId effectId,
    OrganizationId organizationId,
    ConnectionId connectionId,
    EffectState finalState,
    @Nullable NormalizedError normalizedError,
    Instant recordedAt,
    @Nullable Instant dispatchStartedAt,
    @Nullable Instant resolvedAt,
    @Nullable ConfirmationEvidenceRef confirmationEvidenceRef,
    @Nullable String reconciliationEvidence,
    @Nullable Instant resolvesAmbiguousRecordedAt,
    @Nullable String reconciliationAttemptEvidence) {

  public EffectReceipt {
    ContractRules.required(effectId, "execution_id");
    ContractRules.required(organizationId, "organization_id");
    ContractRules.required(connectionId, "connection_id");
    ContractRules.required(finalState, "final_state");
    recordedAt = ContractRules.instant(recordedAt, "recorded_at");
    dispatchStartedAt = ContractRules.optionalInstant(dispatchStartedAt);
    resolvedAt = ContractRules.optionalInstant(resolvedAt);
    resolvesAmbiguousRecordedAt = ContractRules.optionalInstant(resolvesAmbiguousRecordedAt);
    ContractRules.optionalText(reconciliationEvidence, "reconciliation_evidence");
    ContractRules.optionalText(reconciliationAttemptEvidence, "reconciliation_attempt_evidence");

    // 1. final state
    if (!finalState.isTerminal() && finalState != EffectState.AMBIGUOUS) {
      throw new IllegalArgumentException("receipt final_state must be terminal or AMBIGUOUS, not " + finalState);
    }
    // 2. error by state
    switch (finalState) {
      case SUCCEEDED -> {
        if (normalizedError != null) {
          throw new IllegalArgumentException(
              "normalized_error may only be set when final_state is not SUCCEEDED; SUCCEEDED forbids it");
        }
      }
      case REFUSED -> {
        if (normalizedError == null) {
          throw new IllegalArgumentException("REFUSED receipt must carry normalized_error");
        }
      }
      case FAILED_SAFE -> {
        if (normalizedError == null) {
          throw new IllegalArgumentException("FAILED_SAFE receipt must carry normalized_error");
        }
      }
      case AMBIGUOUS -> {
        if (normalizedError == null) {
          throw new IllegalArgumentException("AMBIGUOUS receipt must carry normalized_error");
        }
        if (normalizedError.code() != NormalizedErrorCode.RESULT_AMBIGUOUS) {
          throw new IllegalArgumentException(
              "AMBIGUOUS receipt normalized_error code must be exactly RESULT_AMBIGUOUS");
        }
      }
      default -> throw new AssertionError(finalState);
    }
    // 3. success evidence
    if (finalState == EffectState.SUCCEEDED) {
      if (confirmationEvidenceRef == null) {
        throw new IllegalArgumentException("SUCCEEDED receipt must carry a non-empty confirmation_evidence_ref");
      }
      if (dispatchStartedAt == null) {
        throw new IllegalArgumentException("SUCCEEDED receipt must carry dispatch_started_at");
      }
    } else if (confirmationEvidenceRef != null) {
      throw new IllegalArgumentException("confirmation_evidence_ref may only be set when final_state is SUCCEEDED");
    }
    // 4. refusals never dispatched
    if (finalState == EffectState.REFUSED && dispatchStartedAt != null) {
      throw new IllegalArgumentException("REFUSED receipt must not carry dispatch_started_at");
    }
    // 5. attempt xor resolution evidence
    if (reconciliationAttemptEvidence != null && reconciliationEvidence != null) {
      throw new IllegalArgumentException(
          "receipt must not carry both reconciliation_attempt_evidence and reconciliation_evidence");
    }
    // 6. resolution pair
    if (reconciliationEvidence != null || resolvesAmbiguousRecordedAt != null) {
      if (reconciliationEvidence == null) {
        throw new IllegalArgumentException("receipt resolving a prior ambiguity must carry reconciliation_evidence");
      }
      if (resolvesAmbiguousRecordedAt == null) {
        throw new IllegalArgumentException("resolving receipt must carry resolves_ambiguous_recorded_at");
      }
      if (finalState != EffectState.SUCCEEDED && finalState != EffectState.FAILED_SAFE) {
        throw new IllegalArgumentException("reconciliation_evidence and resolves_ambiguous_recorded_at may only be set"
            + " on a receipt resolving to SUCCEEDED or FAILED_SAFE");
      }
      if (resolvedAt == null) {
        throw new IllegalArgumentException("resolving receipt must carry resolved_at");
      }
    }
    // 7. attempt evidence only while ambiguous
    if (reconciliationAttemptEvidence != null && finalState != EffectState.AMBIGUOUS) {
      throw new IllegalArgumentException(
          "reconciliation_attempt_evidence may only be set when final_state is still AMBIGUOUS");
    }
  }

  /**
   * The outcome of a dispatch the provider confirmed: {@code SUCCEEDED} with its confirmation evidence.
   *
   * @param effect the effect, in any state (its identifiers are taken)
   * @param recordedAt when the outcome is recorded
   * @param dispatchStartedAt when the provider was entered
   * @param evidence the stored confirmation evidence's reference
   */
  public static EffectReceipt succeeded(EffectRecord effect, Instant recordedAt, Instant dispatchStartedAt,
      ConfirmationEvidenceRef evidence) {
    return new EffectReceipt(effect.effectId(), effect.organizationId(), effect.connectionId(),
        EffectState.SUCCEEDED, null, recordedAt, dispatchStartedAt, null, evidence, null, null, null);
  }

  /**
   * The outcome of a dispatch that is known not to have taken effect: {@code FAILED_SAFE} with its error.
   *
   * @param dispatchStartedAt when the provider was entered
   */
  public static EffectReceipt failedSafe(EffectRecord effect, NormalizedError error, Instant recordedAt,
      Instant dispatchStartedAt) {
    return new EffectReceipt(effect.effectId(), effect.organizationId(), effect.connectionId(),
        EffectState.FAILED_SAFE, error, recordedAt, dispatchStartedAt, null, null, null, null, null);
  }

  /**
   * An ambiguity: the provider was entered and whether the effect happened is unknown ({@code AMBIGUOUS}, error code
   * {@code RESULT_AMBIGUOUS}).
   */
  public static EffectReceipt ambiguity(EffectRecord effect, NormalizedError error, Instant recordedAt,
      Instant dispatchStartedAt) {
    return new EffectReceipt(effect.effectId(), effect.organizationId(), effect.connectionId(),
        EffectState.AMBIGUOUS, error, recordedAt, dispatchStartedAt, null, null, null, null, null);
  }

  /**
   * A reconciliation attempt that did not resolve an ambiguity: the effect stays {@code AMBIGUOUS}.
   *
   * @param attemptEvidence the reconciler's evidence digest, or a fixed marker when no reconciler answered
   */
  public static EffectReceipt reconciliationAttempt(EffectRecord effect, NormalizedError error,
      Instant recordedAt, Instant dispatchStartedAt, String attemptEvidence) {
    return new EffectReceipt(effect.effectId(), effect.organizationId(), effect.connectionId(),
        EffectState.AMBIGUOUS, error, recordedAt, dispatchStartedAt, null, null, null, null, attemptEvidence);
  }

  /**
   * The resolution of an ambiguity to {@code SUCCEEDED} (with {@code evidence}) or {@code FAILED_SAFE} (with
   * {@code error}); it points at the {@code AMBIGUOUS} receipt it resolves.
   *
   * @param finalState {@code SUCCEEDED} or {@code FAILED_SAFE}
   * @param error the error of a {@code FAILED_SAFE} resolution, {@code null} for {@code SUCCEEDED}
   * @param resolvedAt when the ambiguity was resolved, also the receipt's {@code recordedAt}
   * @param evidence the confirmation evidence of a {@code SUCCEEDED} resolution, {@code null} for {@code FAILED_SAFE}
   * @param reconciliationEvidence the reconciler's evidence digest
   * @param ambiguousRecordedAt {@code recordedAt} of the {@code AMBIGUOUS} receipt being resolved
   */
  public static EffectReceipt resolution(EffectRecord effect, EffectState finalState,
      @Nullable NormalizedError error, Instant resolvedAt, Instant dispatchStartedAt,
      @Nullable ConfirmationEvidenceRef evidence, String reconciliationEvidence, Instant ambiguousRecordedAt) {
    return new EffectReceipt(effect.effectId(), effect.organizationId(), effect.connectionId(),
        finalState, error, resolvedAt, dispatchStartedAt, resolvedAt, evidence, reconciliationEvidence,
        ambiguousRecordedAt, null);
  }

  /** A refusal: {@code REFUSED} with its error; nothing was dispatched. */
  public static EffectReceipt refusal(EffectId effectId, OrganizationId organizationId,
      ConnectionId connectionId, NormalizedError error, Instant recordedAt) {
    return new EffectReceipt(effectId, organizationId, connectionId, EffectState.REFUSED, error, recordedAt, null,
        null, null, null, null, null);
  }

  /** Whether this receipt resolves an earlier {@code AMBIGUOUS} receipt. */
  public boolean resolvesAmbiguity() {
    return resolvesAmbiguousRecordedAt != null;
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(EffectReceipt.class, name);
  }
}
