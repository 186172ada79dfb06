package io.zeocore.connections.contract;

/**
 * The durable state of an {@link ObservationRecord}. Reads have no {@code AMBIGUOUS}: a read that did not
 * complete safely is {@link #FAILED_SAFE}.
 */
public enum ObservationState {
  CLAIMED,
  CONFIRMED,
  FAILED_SAFE;
}
