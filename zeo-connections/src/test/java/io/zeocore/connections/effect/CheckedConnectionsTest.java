package io.zeocore.connections.effect;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.OrganizationId;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckedConnectionsTest {

  private static Connection connection(OrganizationId organization, String id) {
    Connection fixture = ContractFixtures.connection();
    return new Connection(new ConnectionId(id), organization, fixture.connectorId(), fixture.connectorRevision(),
        fixture.providerApplicationProfile(), fixture.verifiedExternalIdentity(), List.of(), List.of(), List.of(),
        fixture.secretHandle(), fixture.status(), fixture.health(), fixture.createdAt(), null, null);
  }

  @Test
  void remembersTheLastConnectionPerOrganizationAndIdUntilForgotten() {
    CheckedConnections checked = new CheckedConnections();
    OrganizationId org = new OrganizationId("org-a");
    OrganizationId other = new OrganizationId("org-b");
    Connection first = connection(org, "conn-1");
    checked.remember(org, first);

    assertThat(checked.get(org, new ConnectionId("conn-1"))).isSameAs(first);
    assertThat(checked.get(other, new ConnectionId("conn-1"))).as("another organization's").isNull();
    Connection again = connection(org, "conn-1");
    checked.remember(org, again);
    assertThat(checked.get(org, new ConnectionId("conn-1"))).isSameAs(again);
    checked.forget(org, new ConnectionId("conn-1"));
    assertThat(checked.get(org, new ConnectionId("conn-1"))).isNull();
  }

  @Test
  void startsAgainEmptyRatherThanGrowPastItsLimit() {
    CheckedConnections checked = new CheckedConnections();
    OrganizationId org = new OrganizationId("org-a");
    for (int i = 0; i < CheckedConnections.LIMIT; i++) {
      checked.remember(org, connection(org, "conn-" + i));
    }
    assertThat(checked.get(org, new ConnectionId("conn-0"))).isNotNull();
    checked.remember(org, connection(org, "conn-last"));
    assertThat(checked.get(org, new ConnectionId("conn-0"))).isNull();
    assertThat(checked.get(org, new ConnectionId("conn-last"))).isNotNull();
  }
}
