package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.connections.internal.ContractRules;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Points at the {@link ConfirmationEvidence} behind a {@code SUCCEEDED} receipt: exactly {@code zeo-evidence:v1:}
 * followed by a lowercase RFC 4122 version-4 UUID, nothing before or after. Minted only by the evidence store. The
 * string form is the raw value; the JSON form is {@code {"value": "..."}} and a bare JSON string is never coerced into
 * this type.
 *
 * @param value the reference
 */
public record ConfirmationEvidenceRef(String value) {

  /** The required prefix. */
  public static final String PREFIX = "zeo-evidence:v1:";

  private static final Pattern PATTERN = Pattern.compile(Pattern.quote(PREFIX) + ContractRules.UUID_V4);

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public ConfirmationEvidenceRef {
    ContractRules.required(value, "ConfirmationEvidenceRef");
    if (!PATTERN.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "ConfirmationEvidenceRef does not have the canonical shape " + PREFIX
              + " followed by a lowercase version-4 UUID");
    }
  }

  /** A reference for {@code uuid}, which must be a version-4 UUID (for example {@link UUID#randomUUID()}). */
  public static ConfirmationEvidenceRef of(UUID uuid) {
    return new ConfirmationEvidenceRef(PREFIX + ContractRules.required(uuid, "uuid"));
  }

  /** The raw value. */
  @Override
  public String toString() {
    return value;
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ConfirmationEvidenceRef.class, name);
  }
}
