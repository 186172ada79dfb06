package io.zeocore.connections.store;

import io.zeocore.connections.contract.OrganizationId;
import java.util.Objects;

/** The store's organization scoping: a record written for an organization must belong to it. */
final class OrganizationScope {

  private OrganizationScope() {}

  /**
   * @throws NullPointerException if {@code organizationId} is null
   * @throws ConnectionStoreException "{@code <kind>} organization mismatch" if the record belongs to another
   */
  static void require(OrganizationId organizationId, OrganizationId recordOrganization, String kind) {
    Objects.requireNonNull(organizationId, "organizationId");
    if (!organizationId.equals(recordOrganization)) {
      throw new ConnectionStoreException(kind + " organization mismatch");
    }
  }
}
