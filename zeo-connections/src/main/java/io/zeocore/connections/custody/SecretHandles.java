package io.zeocore.connections.custody;

import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.SecretRef;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Handles minted by a {@link SecretStore}: {@code zc0-ks:<organization>:<uuid4>}, with a lowercase random version-4
 * UUID. The scope check is the reference's (prefix {@code zc0-ks}, middle part equal to the caller's organization),
 * parsed from both ends so that organization ids containing {@code :} work.
 */
final class SecretHandles {

  static final String PREFIX = "zc0-ks:";

  private static final Pattern UUID_V4_SUFFIX =
      Pattern.compile(":[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  private static final int SUFFIX_LENGTH = 37;

  private SecretHandles() {}

  static SecretRef mint(OrganizationId organization) {
    return new SecretRef(PREFIX + organization.value() + ":" + UUID.randomUUID());
  }

  /** Whether {@code ref} is a handle minted for {@code organization}. Never touches a backend. */
  static boolean inScope(SecretRef ref, OrganizationId organization) {
    String handle = ref.handle();
    String value = organization.value();
    if (!handle.startsWith(PREFIX) || handle.length() != PREFIX.length() + value.length() + SUFFIX_LENGTH) {
      return false;
    }
    int suffixStart = handle.length() - SUFFIX_LENGTH;
    return handle.startsWith(value, PREFIX.length())
        && UUID_V4_SUFFIX.matcher(handle).region(suffixStart, handle.length()).matches();
  }

  static void requireScope(SecretRef ref, OrganizationId organization) {
    if (ref == null) {
      throw new IllegalArgumentException("ref is required");
    }
    if (organization == null) {
      throw new IllegalArgumentException("organization_id is required");
    }
    if (!inScope(ref, organization)) {
      throw new CustodyException(CustodyErrorCode.CUSTODY_SCOPE_MISMATCH);
    }
  }
}
