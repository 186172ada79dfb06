package io.zeocore.connections.contract;

import io.zeocore.connections.internal.ContractRules;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The digest formats of the connection contracts. They differ on purpose, as in the reference:
 * <ul>
 *   <li>request digest, {@code argument_digest}, {@code EffectRecord.requestDigest}, authorization digest, read
 *       result digests: {@code sha256:} + 64 lowercase hex;
 *   <li>confirmation and evidence digests: bare 64 lowercase hex.
 * </ul>
 */
public final class Digests {

  /** The prefix of prefixed digests. */
  public static final String SHA256_PREFIX = "sha256:";

  private Digests() {}

  /**
   * The request digest: {@code sha256:} + lowercase hex of SHA-256 over the raw body bytes exactly as given (no JSON
   * canonicalization, no field selection). An authorization's {@code argument_digest} must equal it.
   */
  public static String requestDigest(byte[] requestBody) {
    return SHA256_PREFIX + sha256Hex(ContractRules.required(requestBody, "request_body"));
  }

  /**
   * The authorization digest: {@code sha256:} + lowercase hex of SHA-256 over
   * {@link AuthorizationCanonicalForm#document(EffectAuthorization)} (every field, the signature included). Used to
   * pin an effect's authorization; the encoding is RFC 8785 (JCS), a deliberate divergence from the Python
   * reference's library-specific dump, which no other language can reproduce.
   */
  public static String authorizationDigest(EffectAuthorization authorization) {
    return SHA256_PREFIX + sha256Hex(AuthorizationCanonicalForm.document(authorization));
  }

  /** Bare lowercase hex of SHA-256 over {@code bytes} (64 characters). */
  public static String sha256Hex(byte[] bytes) {
    ContractRules.required(bytes, "bytes");
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }

  /** Whether {@code value} is {@code sha256:} + 64 lowercase hex. */
  public static boolean isPrefixedSha256(String value) {
    return ContractRules.isSha256Digest(value);
  }

  /** Whether {@code value} is exactly 64 lowercase hex characters. */
  public static boolean isBareSha256(String value) {
    return ContractRules.isHex64(value);
  }
}
