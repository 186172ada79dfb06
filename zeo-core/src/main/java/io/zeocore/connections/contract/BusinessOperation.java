package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.internal.ContractRules;
import io.zeocore.internal.JsonValues;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.annotation.JsonNaming;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * One business operation admitted by a {@link ConnectorRevision}: what it does, the closed request schema a caller's
 * body must satisfy, and where and how it reaches the provider. Construction checks only the field rules below;
 * {@code ConnectorAdmission} checks the surface (origins, method, path, schema closure, secrets, redaction).
 *
 * @param operationId unique within its revision
 * @param effect what the operation does; every kind but {@code read} needs a reconciliation strategy
 * @param requestSchema JSON-schema object the request body is admitted against (deep immutable copy)
 * @param responseSchema JSON-schema object of the response (deep immutable copy)
 * @param allowedOrigin the single upstream origin this operation may call; not blank
 * @param method HTTP method; at least one character
 * @param pathTemplate path, may contain {@code {placeholder}} segments; at least one character
 * @param secretBindings names of the secrets the dispatcher injects; empty when absent
 * @param redactionPaths response paths redacted before anything is kept; empty when absent
 * @param idempotencyMode how idempotency is achieved; required
 * @param reconciliationStrategy how an ambiguous effect is inspected; a blank value becomes {@code null}
 * @param resourceArgument name of a request property that selects a business resource, or {@code null}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record BusinessOperation(
    OperationId operationId,
    @JsonSerialize(using = EffectKindJson.Writer.class) @JsonDeserialize(using = EffectKindJson.Reader.class)
    EffectKind effect,
    Map<String, Object> requestSchema,
    Map<String, Object> responseSchema,
    String allowedOrigin,
    String method,
    String pathTemplate,
    List<String> secretBindings,
    List<String> redactionPaths,
    IdempotencyMode idempotencyMode,
    String reconciliationStrategy,
    String resourceArgument) {

  public BusinessOperation {
    ContractRules.required(operationId, "operation_id");
    ContractRules.required(effect, "effect");
    requestSchema = JsonValues.object(requestSchema, "request_schema");
    responseSchema = JsonValues.object(responseSchema, "response_schema");
    ContractRules.text(allowedOrigin, "allowed_origin");
    nonEmpty(method, "method");
    nonEmpty(pathTemplate, "path_template");
    secretBindings = ContractRules.list(secretBindings, "secret_bindings");
    redactionPaths = ContractRules.list(redactionPaths, "redaction_paths");
    ContractRules.required(idempotencyMode, "idempotency_mode");
    reconciliationStrategy = ContractRules.blankToNull(reconciliationStrategy);
  }

  private static void nonEmpty(String value, String field) {
    if (ContractRules.required(value, field).isEmpty()) {
      throw new IllegalArgumentException(field + " must not be empty");
    }
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(BusinessOperation.class, name);
  }
}
