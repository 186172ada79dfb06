package io.zeocore.connections.contract;

import static io.zeocore.connections.contract.ContractFixtures.SECRET_HANDLE;
import static io.zeocore.connections.contract.ContractFixtures.connection;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Serializable;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.MessageFormatter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class SecretRefRedactionTest {

  private static final String CANARY = "zc0-kc:org-1:CANARY-9d1e";

  @Test
  void accessorReturnsTheExactRawHandle() {
    assertThat(new SecretRef(" " + CANARY + " ").handle()).isEqualTo(" " + CANARY + " ");
  }

  @Test
  void textChannelsShowOnlyThePlaceholder() {
    SecretRef ref = new SecretRef(CANARY);

    assertThat(ref.toString()).isEqualTo("SecretRef[handle=<redacted>]");
    assertThat(String.format("%s", ref)).doesNotContain(CANARY).contains("<redacted>");
    assertThat("ref=" + ref).doesNotContain(CANARY);
    assertThat(MessageFormatter.format("resolving {}", ref).getMessage()).doesNotContain(CANARY)
        .contains("<redacted>");
    assertThat(connection().toString()).doesNotContain(SECRET_HANDLE).contains("<redacted>");
  }

  @Test
  void everyJacksonMapperWritesThePlaceholderKeepingTheFieldShape() {
    SecretRef ref = new SecretRef(CANARY);

    assertThat(ContractJson.mapper().writeValueAsString(ref)).isEqualTo("{\"handle\":\"<redacted>\"}");
    // a host's own mapper (no ZeoCore configuration) still redacts: the serializer is bound on the type
    assertThat(JsonMapper.builder().build().writeValueAsString(ref)).isEqualTo("{\"handle\":\"<redacted>\"}");
    JsonNode connection = ContractJson.mapper().valueToTree(connection());
    assertThat(connection.get("secret_handle").get("handle").asString()).isEqualTo("<redacted>");
    assertThat(ContractJson.mapper().writeValueAsString(connection())).doesNotContain(SECRET_HANDLE);
  }

  @Test
  void onlyTheStoreDocumentMapperWritesTheRawHandle() {
    String document = ContractJson.storeDocumentMapper().writeValueAsString(connection());

    assertThat(document).contains("\"secret_handle\":{\"handle\":\"" + SECRET_HANDLE + "\"}");
    assertThat(ContractJson.storeDocumentMapper().readValue(document, Connection.class).secretHandle().handle())
        .isEqualTo(SECRET_HANDLE);
  }

  @Test
  void refusesThePlaceholderAndBlankHandles() {
    assertThatThrownBy(() -> new SecretRef("<redacted>")).hasMessageContaining("redaction placeholder");
    assertThatThrownBy(() -> new SecretRef(" \t")).hasMessage("handle must not be empty or whitespace only");
    assertThatThrownBy(() -> new SecretRef(null)).hasMessage("handle is required");
  }

  @Test
  void isNotSerializableAndHasNoRevealMethods() {
    assertThat(Serializable.class.isAssignableFrom(SecretRef.class)).isFalse();
    assertThat(Serializable.class.isAssignableFrom(Connection.class)).isFalse();
    assertThat(Arrays.stream(SecretRef.class.getMethods()).map(Method::getName)
        .map(name -> name.toLowerCase(Locale.ROOT)))
        .doesNotContain("reveal", "unwrap", "getsecret", "get_secret", "expose", "raw");
    assertThat(SecretRef.class.getRecordComponents()).extracting(c -> c.getName()).containsExactly("handle");
  }
}
