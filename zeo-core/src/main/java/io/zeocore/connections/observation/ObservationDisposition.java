package io.zeocore.connections.observation;

/**
 * What an {@link ObservationDispatcher} established about a read.
 */
public enum ObservationDisposition {
  CONFIRMED,
  FAILED_SAFE;
}
