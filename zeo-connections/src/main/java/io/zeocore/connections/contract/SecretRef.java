package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.connections.internal.ContractRules;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * An opaque locator of credential material held by a secret store. It is not the secret, but it is treated as
 * sensitive: every accidental channel shows {@value #REDACTED} instead of the handle.
 *
 * <ul>
 *   <li>{@link #toString()} (and so string concatenation, {@code %s}, SLF4J {@code {}} and the {@code toString} of
 *       every record that contains one) prints {@code SecretRef[handle=<redacted>]};
 *   <li>JSON written by any Jackson 3 mapper is {@code {"handle":"<redacted>"}} (the serializer is bound by annotation
 *       on this type), except through {@link ContractJson#storeDocumentMapper()}, the one deliberate path by which
 *       the store persists the raw handle;
 *   <li>the type is deliberately not {@link java.io.Serializable};
 *   <li>{@link #handle()} is the only sanctioned way to read the raw value. There are no reveal-style methods.
 * </ul>
 *
 * <p>The handle has at least one character and is not whitespace only. The redaction placeholder itself is refused
 * as a handle, so that a redacted JSON dump can never be read back into a ref that silently points nowhere.
 *
 * @param handle the raw handle, for example {@code zc0-kc:<organization>:<uuid>}
 */
@JsonSerialize(using = SecretRefJson.Redacting.class)
public record SecretRef(String handle) {

  /** The placeholder shown instead of a handle on every accidental channel. */
  public static final String REDACTED = "<redacted>";

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public SecretRef {
    ContractRules.text(handle, "handle");
    if (REDACTED.equals(handle)) {
      throw new IllegalArgumentException("handle must not be the redaction placeholder " + REDACTED);
    }
  }

  /** Always {@code SecretRef[handle=<redacted>]}. */
  @Override
  public String toString() {
    return "SecretRef[handle=" + REDACTED + "]";
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(SecretRef.class, name);
  }
}
