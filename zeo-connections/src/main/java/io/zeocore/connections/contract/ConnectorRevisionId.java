package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.connections.internal.ContractRules;

/**
 * Identifies one immutable {@link ConnectorRevision} manifest of a connector.
 *
 * <p>The value has at least one character and is not whitespace only; surrounding whitespace is kept as given. The
 * string form is the raw value; the JSON form is {@code {"value": "..."}}.
 *
 * @param value the identifier
 */
public record ConnectorRevisionId(String value) {

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public ConnectorRevisionId {
    ContractRules.identifier(value, "ConnectorRevisionId");
  }

  /** The raw value. */
  @Override
  public String toString() {
    return value;
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ConnectorRevisionId.class, name);
  }
}
