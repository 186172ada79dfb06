package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.connections.internal.ContractRules;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * Metadata of a read result stored outside the receipt. Only metadata is kept here, never the content.
 *
 * @param artifactRef where the artifact is stored
 * @param contentSha256 {@code sha256:} + 64 lowercase hex of the content
 * @param sizeBytes content size, zero or more
 * @param mediaType 1 to 200 characters, not blank
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ReadArtifact(
    ReadArtifactRef artifactRef, String contentSha256, long sizeBytes, String mediaType) {

  public ReadArtifact {
    ContractRules.required(artifactRef, "artifact_ref");
    ContractRules.sha256Digest(contentSha256, "content_sha256");
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("size_bytes must not be negative");
    }
    ContractRules.text(mediaType, "media_type");
    if (mediaType.length() > 200) {
      throw new IllegalArgumentException("media_type must be at most 200 characters");
    }
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(ReadArtifact.class, name);
  }
}
