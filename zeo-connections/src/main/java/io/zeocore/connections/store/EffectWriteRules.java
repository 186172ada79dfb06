package io.zeocore.connections.store;

import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.OrganizationId;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The rules every write of an effect is checked against before it reaches the database. The schema enforces the same
 * rules (its triggers and constraints refuse a write that breaks them, whoever sends it); these checks choose the
 * error phrase the caller gets and spare the round trip.
 */
final class EffectWriteRules {

  private EffectWriteRules() {}


  static void requireNoProviderDetail(EffectReceipt receipt) {
    if (receipt.normalizedError() != null && receipt.normalizedError().providerDetail() != null) {
      throw new ConnectionStoreException("provider_detail is never persisted");
    }
  }

  static void requireReceiptMatches(OrganizationId organizationId, EffectRecord effect,
      EffectReceipt receipt) {
    OrganizationScope.require(organizationId, receipt.organizationId(), "receipt");
    if (!receipt.effectId().equals(effect.effectId())) {
      throw new ConnectionStoreException("receipt execution mismatch");
    }
    if (!receipt.connectionId().equals(effect.connectionId())) {
      throw new ConnectionStoreException("receipt connection mismatch");
    }
    if (receipt.finalState() != effect.state()) {
      throw new ConnectionStoreException("receipt state does not match execution");
    }
    requireNoProviderDetail(receipt);
  }

  static void requireSnapshotChain(OrganizationId organizationId, @Nullable List<EffectRecord> snapshots,
      String startMessage) {
    if (snapshots == null || snapshots.isEmpty()) {
      throw new ConnectionStoreException("at least one execution snapshot is required");
    }
    EffectRecord first = snapshots.get(0);
    OrganizationScope.require(organizationId, first.organizationId(), "execution");
    if (first.state() != EffectState.CREATED) {
      throw new ConnectionStoreException(startMessage);
    }
    for (int i = 1; i < snapshots.size(); i++) {
      EffectRecord previous = snapshots.get(i - 1);
      EffectRecord next = snapshots.get(i);
      if (!first.hasSameIdentityAs(next)) {
        throw new ConnectionStoreException("execution identity is immutable");
      }
      if (!previous.state().canTransitionTo(next.state())) {
        throw new ConnectionStoreException("transition is not allowed");
      }
      if (!next.updatedAt().isAfter(previous.updatedAt())) {
        throw new ConnectionStoreException("snapshot timestamps must strictly increase");
      }
    }
  }
}
