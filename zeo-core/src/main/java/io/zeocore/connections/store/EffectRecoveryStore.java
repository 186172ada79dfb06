package io.zeocore.connections.store;

import io.zeocore.connections.effect.EffectRecovery;
import java.time.Instant;
import java.util.List;

/**
 * The store port of {@link EffectRecovery}: {@link EffectStore} plus the one query that is deliberately not
 * organization-scoped, because recovery is a system sweep over every organization. Everything recovery then reads or
 * writes about a candidate goes through the organization-scoped methods with the candidate's own organization.
 */
public interface EffectRecoveryStore extends EffectStore {

  /**
   * Executions at {@code DISPATCH_STARTED} whose {@code updatedAt} is before {@code dispatchStartedBefore}, then
   * executions at {@code AMBIGUOUS} least recently receipted first; at most {@code limit} in all.
   */
  List<RecoveryCandidate> findRecoveryCandidates(Instant dispatchStartedBefore, int limit);
}
