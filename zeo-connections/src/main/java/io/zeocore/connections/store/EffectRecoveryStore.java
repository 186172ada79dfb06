package io.zeocore.connections.store;

import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.effect.EffectRecovery;
import java.time.Duration;
import java.util.List;

/**
 * The store port of {@link EffectRecovery}: {@link EffectStore} plus the one query that is deliberately not
 * organization-scoped, because recovery is a system sweep over every organization. Everything recovery then reads or
 * writes about a candidate goes through the organization-scoped methods with the candidate's own organization.
 */
public interface EffectRecoveryStore extends EffectStore {

  /**
   * Effects at {@code DISPATCH_STARTED} whose dispatch began more than {@code dispatchStaleAfter} ago <b>by the
   * database's own clock</b> (the instant the claim transaction committed {@code DISPATCH_STARTED}, compared with the
   * database's clock now, in the same query: no application host's clock is involved), oldest first, then effects
   * at {@code AMBIGUOUS} least recently receipted first; at most {@code limit} in all.
   */
  List<RecoveryCandidate> findRecoveryCandidates(Duration dispatchStaleAfter, int limit);

  /**
   * Takes the recovery lease of one effect for {@code holder}, until the database's clock passes now +
   * {@code lease}, in one short transaction. Succeeds when nobody holds the lease or the previous holder's lease
   * expired (it died mid-reconciliation); fails, changing nothing, while another holder's lease runs. Several
   * recovery sweepers, in any number of processes, therefore reconcile each effect one at a time.
   */
  boolean claimRecoveryLease(OrganizationId organizationId, EffectId effectId, String holder, Duration lease);

  /** Gives back {@code holder}'s lease of the execution; a lease another holder took over is left alone. */
  void releaseRecoveryLease(OrganizationId organizationId, EffectId effectId, String holder);
}
