package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import io.zeocore.connections.internal.ContractRules;
import java.util.regex.Pattern;

/**
 * Locates a stored observation artifact: exactly {@code zeo-observation-artifact:v1:} followed by a lowercase RFC 4122
 * version-4 UUID, nothing before or after (no surrounding whitespace, no trailing newline, no uppercase). The string
 * form is the raw value; the JSON form is {@code {"value": "..."}}.
 *
 * @param value the reference
 */
public record ReadArtifactRef(String value) {

  /** The required prefix. */
  public static final String PREFIX = "zeo-observation-artifact:v1:";

  private static final Pattern PATTERN = Pattern.compile(Pattern.quote(PREFIX) + ContractRules.UUID_V4);

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  public ReadArtifactRef {
    ContractRules.required(value, "ReadArtifactRef");
    if (!PATTERN.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "ReadArtifactRef must be " + PREFIX + " followed by a lowercase version-4 UUID");
    }
  }

  /** The raw value. */
  @Override
  public String toString() {
    return value;
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ReadArtifactRef.class, name);
  }
}
