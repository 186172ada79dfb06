package io.zeocore.autoconfigure;

import io.zeocore.connections.read.ReadOrchestrator;
import io.zeocore.connections.store.JdbcConnectionStore;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The configuration metadata that IDEs complete {@code zeocore.*} keys from: every default and hint is there. */
class ConfigurationMetadataTests {

  /** Settings that have no default on purpose: secrets, identities, and what must be chosen by the application. */
  private static final Set<String> NO_DEFAULT_BY_DESIGN = Set.of(
      "zeocore.connections.authorization.audience", "zeocore.connections.authorization.trusted-issuers",
      "zeocore.connections.authorization.trust-roots", "zeocore.connections.custody.key-store",
      "zeocore.connections.custody.password", "zeocore.connections.store.password",
      "zeocore.connections.store.url", "zeocore.connections.store.username", "zeocore.llm.openai.api-key",
      "zeocore.execution.target-health.instance-id", "zeocore.faults.profile",
      "zeocore.llm.openai.organization");

  @Test
  void everyScalarZeoCorePropertyDocumentsItsDefaultUnlessItHasNoneByDesign() throws Exception {
    JsonNode metadata = metadata();
    List<String> missing = new ArrayList<>();
    for (JsonNode property : metadata.path("properties")) {
      String name = property.path("name").asString();
      String type = property.path("type").asString("");
      boolean scalar = !type.startsWith("java.util.Map") && !type.startsWith("java.util.List")
          && !type.startsWith("java.util.Set");
      if (name.startsWith("zeocore.") && scalar && !NO_DEFAULT_BY_DESIGN.contains(name)
          && !property.has("defaultValue")) {
        missing.add(name);
      }
    }
    assertThat(missing).as("zeocore.* properties without a documented default").isEmpty();
  }

  @Test
  void defaultsAreTheOnesTheLibraryUses() throws Exception {
    JsonNode metadata = metadata();
    assertThat(defaultOf(metadata, "zeocore.connections.recovery.dispatch-stale-after")).isEqualTo("5m");
    assertThat(defaultOf(metadata, "zeocore.connections.custody.lease-ttl")).isEqualTo("300s");
    assertThat(defaultOf(metadata, "zeocore.connections.reads.max-result-depth"))
        .isEqualTo(String.valueOf(ReadOrchestrator.DEFAULT_MAX_RESULT_DEPTH));
    assertThat(defaultOf(metadata, "zeocore.llm.ollama.base-url")).isEqualTo("http://localhost:11434");
    assertThat(defaultOf(metadata, "zeocore.llm.openai.model")).isEqualTo("gpt-4o");
    assertThat(defaultOf(metadata, "zeocore.connections.store.pool-size"))
        .isEqualTo(String.valueOf(JdbcConnectionStore.DEFAULT_POOL_SIZE));
  }

  @Test
  void theDefaultConfigNameIsHinted() throws Exception {
    JsonNode hint = null;
    for (JsonNode candidate : metadata().path("hints")) {
      if (candidate.path("name").asString().equals("zeocore.execution.configs.keys")) {
        hint = candidate;
      }
    }
    assertThat(hint).isNotNull();
    assertThat(hint.path("values").get(0).path("value").asString()).isEqualTo("default");
  }

  private static String defaultOf(JsonNode metadata, String name) {
    for (JsonNode property : metadata.path("properties")) {
      if (property.path("name").asString().equals(name)) {
        return property.path("defaultValue").asString();
      }
    }
    throw new AssertionError("no property " + name);
  }

  private static JsonNode metadata() throws Exception {
    try (InputStream in = ConfigurationMetadataTests.class.getClassLoader()
        .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("generated configuration metadata").isNotNull();
      return JsonMapper.builder().build().readTree(in);
    }
  }
}
