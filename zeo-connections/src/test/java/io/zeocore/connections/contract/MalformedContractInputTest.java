package io.zeocore.connections.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.zeocore.connections.admission.AdmissionException;
import io.zeocore.connections.admission.ConnectorAdmission;
import io.zeocore.connections.internal.JsonValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;

/** Hostile JSON gets an ordinary, classified error: never a StackOverflowError, never a silent null. */
class MalformedContractInputTest {

  private static String nested(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }

  @Test
  void deeplyNestedContractJsonIsRefusedWithAnOrdinaryError() {
    String schema = "{\"type\":\"object\",\"x\":" + nested(5_000) + "}";
    String operation = ContractJson.mapper().writeValueAsString(ContractFixtures.refundOperation())
        .replace("\"response_schema\":{\"type\":\"object\"}", "\"response_schema\":" + schema);
    Throwable thrown = catchThrowable(() -> ContractJson.read(operation, BusinessOperation.class));
    assertThat(thrown).isInstanceOf(JacksonException.class).isNotInstanceOf(Error.class);
  }

  @Test
  void deeplyNestedRequestBodiesAreRefusedWithTheExistingAdmissionCode() {
    byte[] body = ("{\"amount\":1,\"charge\":" + nested(5_000) + "}").getBytes(StandardCharsets.UTF_8);
    Throwable thrown = catchThrowable(() -> ConnectorAdmission.validateOperationRequest(ContractFixtures.revision(),
        ContractFixtures.CREATE_REFUND, body));
    assertThat(thrown).isInstanceOf(AdmissionException.class);
    byte[] shallow = "{\"amount\":1,\"charge\":[[[1]]]}".getBytes(StandardCharsets.UTF_8);
    Throwable other = catchThrowable(() -> ConnectorAdmission.validateOperationRequest(ContractFixtures.revision(),
        ContractFixtures.CREATE_REFUND, new byte[] {'{'}));
    assertThat(((AdmissionException) thrown).code()).isEqualTo(((AdmissionException) other).code());
    assertThat(shallow).isNotEmpty();
  }

  @Test
  void deeplyNestedValuesBuiltInJavaAreRefusedWhenCopiedIntoAContract() {
    Object value = "leaf";
    for (int i = 0; i < 5_000; i++) {
      List<Object> wrapper = new ArrayList<>();
      wrapper.add(value);
      value = wrapper;
    }
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("deep", value);
    assertThatThrownBy(() -> JsonValues.object(schema, "request_schema"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("request_schema nests deeper than " + JsonValues.MAX_DEPTH + " levels");
  }

  @Test
  void theJsonLiteralNullIsNotAContract() {
    assertThatThrownBy(() -> ContractJson.read("null", EffectAuthorization.class))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("EffectAuthorization JSON must be an object, not null");
  }
}
