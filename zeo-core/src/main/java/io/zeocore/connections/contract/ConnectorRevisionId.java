package io.zeocore.connections.contract;

import io.zeocore.internal.ContractRules;
import com.fasterxml.jackson.annotation.JsonCreator;

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
    ContractRules.text(value, "ConnectorRevisionId");
  }

  /** The raw value. */
  @Override
  public String toString() {
    return value;
  }
}
