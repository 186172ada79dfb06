package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.zeocore.EffectKind;
import io.zeocore.InvalidFieldException;
import io.zeocore.connections.internal.ContractRules;
import io.zeocore.connections.internal.JsonValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
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
    @Nullable String reconciliationStrategy,
    @Nullable String resourceArgument) {

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

  /**
   * A request schema that admission accepts: a closed object ({@code "type": "object"},
   * {@code "additionalProperties": false}) whose {@code "properties"} are {@code properties}, in their iteration order,
   * each a property's name and its own JSON schema (for example {@code Map.of("type", "string")}). A fresh mutable map
   * on every call; the record keeps a deep immutable copy.
   */
  public static Map<String, Object> closedRequestSchema(Map<String, ?> properties) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("additionalProperties", false);
    schema.put("properties", new LinkedHashMap<>(ContractRules.required(properties, "properties")));
    return schema;
  }

  /**
   * A builder for an operation written by hand: no secret bindings, redaction paths, reconciliation strategy or
   * resource argument unless set. {@link Builder#build()} applies the record's rules.
   */
  public static Builder builder(OperationId operationId, EffectKind effect) {
    return new Builder(operationId, effect);
  }

  /** Builds a {@link BusinessOperation} by field name instead of 12 positions. Not thread-safe. */
  public static final class Builder {

    private final OperationId operationId;
    private final EffectKind effect;
    private @Nullable Map<String, Object> requestSchema;
    private @Nullable Map<String, Object> responseSchema;
    private @Nullable String allowedOrigin;
    private @Nullable String method;
    private @Nullable String pathTemplate;
    private final List<String> secretBindings = new ArrayList<>();
    private final List<String> redactionPaths = new ArrayList<>();
    private @Nullable IdempotencyMode idempotencyMode;
    private @Nullable String reconciliationStrategy;
    private @Nullable String resourceArgument;

    private Builder(OperationId operationId, EffectKind effect) {
      this.operationId = operationId;
      this.effect = effect;
    }

    /** The closed JSON schemas of the request body and of the response. */
    public Builder schemas(Map<String, Object> requestSchema, Map<String, Object> responseSchema) {
      this.requestSchema = requestSchema;
      this.responseSchema = responseSchema;
      return this;
    }

    /** Where the operation goes: its single upstream origin, HTTP method and path template. */
    public Builder endpoint(String allowedOrigin, String method, String pathTemplate) {
      this.allowedOrigin = allowedOrigin;
      this.method = method;
      this.pathTemplate = pathTemplate;
      return this;
    }

    /** Adds the name of a secret the dispatcher injects. */
    public Builder secretBinding(String name) {
      secretBindings.add(name);
      return this;
    }

    /** Adds a response path redacted before anything is kept. */
    public Builder redactionPath(String path) {
      redactionPaths.add(path);
      return this;
    }

    /** How idempotency is achieved. */
    public Builder idempotencyMode(IdempotencyMode idempotencyMode) {
      this.idempotencyMode = idempotencyMode;
      return this;
    }

    /** How an ambiguous effect is inspected; required for every effect kind but {@code read}. */
    public Builder reconciliationStrategy(String reconciliationStrategy) {
      this.reconciliationStrategy = reconciliationStrategy;
      return this;
    }

    /** The request property that selects a business resource. */
    public Builder resourceArgument(String resourceArgument) {
      this.resourceArgument = resourceArgument;
      return this;
    }

    /**
     * The operation.
     *
     * @throws IllegalArgumentException naming the first field (by its wire name) that breaks a rule
     */
    @SuppressWarnings("NullAway") // the record's constructor refuses every missing required field, naming it
    public BusinessOperation build() {
      return new BusinessOperation(operationId, effect, requestSchema, responseSchema, allowedOrigin, method,
          pathTemplate, secretBindings, redactionPaths, idempotencyMode, reconciliationStrategy, resourceArgument);
    }
  }

  private static void nonEmpty(String value, String field) {
    if (ContractRules.required(value, field).isEmpty()) {
      throw new InvalidFieldException(field, "must not be empty");
    }
  }

  /** Contract types are closed: a JSON property this record does not declare is refused, whatever the mapper. */
  @JsonAnySetter
  private void refuseUndeclaredProperty(String name, Object value) {
    throw ContractRules.unknownProperty(BusinessOperation.class, name);
  }
}
