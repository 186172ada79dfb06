package io.zeocore.connections;

/**
 * What an {@link ObservationDispatcher} established about a read.
 */
public enum ObservationDisposition {
  CONFIRMED,
  FAILED_SAFE;
}
