package io.zeocore.autoconfigure.connections;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.custody.InMemorySecretStore;
import io.zeocore.connections.custody.KeyStoreSecretStore;
import io.zeocore.connections.custody.SecretStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class ZeoCoreCustodyAutoConfigurationTests {

  private static final String PASSWORD = "canary-password-41c7";
  private static final OrganizationId ORG = new OrganizationId("org-1");

  @TempDir
  Path temp;

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreConnectionsAutoConfiguration.class));

  private ApplicationContextRunner withKeyStore(String password) {
    return contextRunner.withPropertyValues("zeocore.connections.store.path=" + temp.resolve("zeocore.db"),
        "zeocore.connections.recovery.enabled=false",
        "zeocore.connections.custody.key-store=" + temp.resolve("custody/secrets.p12"),
        "zeocore.connections.custody.password=" + password);
  }

  @Test
  void keyStoreSecretStoreKeepsSecretsAcrossRestartsInA0600File() throws Exception {
    SecretRef[] stored = new SecretRef[1];
    withKeyStore(PASSWORD).run(context -> {
      SecretStore store = context.getBean(SecretStore.class);
      assertThat(store).isInstanceOf(KeyStoreSecretStore.class);
      assertThat(store.toString()).doesNotContain(PASSWORD);
      stored[0] = store.put(ORG, "sk_live_canary_material".getBytes(StandardCharsets.UTF_8));
    });
    Path file = temp.resolve("custody/secrets.p12");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(Files.readString(file, StandardCharsets.ISO_8859_1)).doesNotContain("sk_live_canary_material");
    withKeyStore(PASSWORD).run(context ->
        assertThat(context.getBean(SecretStore.class).health(stored[0], ORG).reachable()).isTrue());
  }

  @Test
  void wrongOrMissingPasswordStopsStartUpWithoutShowingThePassword() {
    withKeyStore(PASSWORD).run(context -> assertThat(context).hasNotFailed());
    withKeyStore("another-password").run(context -> {
      assertThat(context.getStartupFailure()).rootCause()
          .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class,
              invalid -> assertThat(invalid.getName()).isEqualTo("zeocore.connections.custody.key-store"));
      assertThat(context.getStartupFailure()).rootCause().message().doesNotContain("another-password");
    });
    withKeyStore("").run(context -> assertThat(context.getStartupFailure()).rootCause()
        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class,
            invalid -> assertThat(invalid.getName()).isEqualTo("zeocore.connections.custody.password")));
  }

  @Test
  void noSecretStoreWithoutAKeyStoreAndTheApplicationsOwnWins() {
    contextRunner.withPropertyValues("zeocore.connections.store.path=" + temp.resolve("zeocore.db"))
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(SecretStore.class));
    InMemorySecretStore mine = new InMemorySecretStore();
    withKeyStore(PASSWORD).withBean(SecretStore.class, () -> mine)
        .run(context -> assertThat(context.getBean(SecretStore.class)).isSameAs(mine));
  }
}
