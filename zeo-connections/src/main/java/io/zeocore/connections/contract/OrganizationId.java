package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.connections.internal.ContractRules;

/**
 * The tenant an effect, read, connection or record belongs to. It is trusted runtime context supplied by the host, never read from caller JSON: every store read is scoped by it.
 *
 * <p>The value has at least one character and is not whitespace only; surrounding whitespace is kept as given. The
 * string form is the raw value; the JSON form is {@code {"value": "..."}}.
 *
 * @param value the identifier
 */
public record OrganizationId(String value) {

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public OrganizationId {
    ContractRules.identifier(value, "OrganizationId");
  }

  /** The raw value. */
  @Override
  public String toString() {
    return value;
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(OrganizationId.class, name);
  }
}
