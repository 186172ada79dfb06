package io.zeocore.connections.contract;

import io.zeocore.internal.ContractRules;
import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * Identifies one durable read ({@link ObservationRecord}).
 *
 * <p>The value has at least one character and is not whitespace only; surrounding whitespace is kept as given. The
 * string form is the raw value; the JSON form is {@code {"value": "..."}}.
 *
 * @param value the identifier
 */
public record ObservationId(String value) {

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public ObservationId {
    ContractRules.text(value, "ObservationId");
  }

  /** The raw value. */
  @Override
  public String toString() {
    return value;
  }
}
