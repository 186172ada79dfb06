package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.connections.internal.ContractRules;

/**
 * Identifies one {@link BusinessOperation} within a connector revision.
 *
 * <p>The value has at least one character and is not whitespace only; surrounding whitespace is kept as given. The
 * string form is the raw value; the JSON form is {@code {"value": "..."}}.
 *
 * @param value the identifier
 */
public record OperationId(String value) {

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public OperationId {
    ContractRules.identifier(value, "OperationId");
  }

  /** The raw value. */
  @Override
  public String toString() {
    return value;
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(OperationId.class, name);
  }
}
