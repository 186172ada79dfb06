package io.zeocore.connections.admission;

import io.zeocore.EffectKind;
import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.OperationId;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Admission of connector revisions, connections and runtime requests: is the provider surface narrow enough to let
 * an authorized caller reach it? Every check runs in the reference's order and the first failure is thrown as an
 * {@link AdmissionException} carrying its {@link AdmissionCode}. Pure functions: no I/O, no DNS resolution (a public
 * name that resolves to a private address is not caught here), thread-safe.
 *
 * <p>Deliberate tightenings over the reference: transport field names are matched case-insensitively (and {@code -}
 * as {@code _}); every special-use and local-only name is local, not only {@code localhost} and {@code .local}
 * (RFC 6761 {@code .test}, {@code .invalid}, {@code .example}; RFC 8375 {@code home.arpa}; {@code .onion},
 * {@code .internal}, {@code .lan}, {@code .corp}, {@code .localdomain}, ... and single-label names; the closed list
 * is on {@link AdmissionCode#ORIGIN_LOCAL}), with or without a trailing dot; numeric hosts that resolvers
 * read as IPv4 ({@code 127.1}, {@code 2130706433}) and IP literals outside the global unicast ranges are refused;
 * percent-encoded {@code ..}, backslashes, whitespace and control characters in path templates are refused; request
 * bodies must be strict UTF-8 JSON without {@code NaN}/{@code Infinity} and without a key repeated at any depth.
 */
public final class ConnectorAdmission {

  private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");

  private ConnectorAdmission() {}

  /**
   * Checks a revision's surface, in order: origins unique; per origin a valid port, an HTTPS origin only, not local,
   * global if an IP literal; no redirects; then per operation: origin listed, method allowed, path constrained,
   * request schema closed, with a properties map, without transport fields, a valid resource argument; and for
   * effectful operations also a secret binding, unique non-blank bindings, redaction paths and a reconciliation
   * strategy.
   *
   * @throws AdmissionException at the first failing rule
   */
  public static void validateConnectorRevision(ConnectorRevision revision) {
    Objects.requireNonNull(revision, "revision");
    List<String> origins = revision.permittedUpstreamOrigins();
    if (new HashSet<>(origins).size() != origins.size()) {
      throw new AdmissionException(AdmissionCode.ORIGINS_NOT_UNIQUE, "permitted upstream origins must be unique");
    }
    for (String origin : origins) {
      Origins.check(origin);
    }
    if (revision.followRedirects()) {
      throw new AdmissionException(AdmissionCode.REDIRECTS_FORBIDDEN, "connector admission forbids redirects");
    }
    for (BusinessOperation operation : revision.operations()) {
      validateOperation(operation, origins);
    }
  }

  private static void validateOperation(BusinessOperation operation, List<String> origins) {
    String id = operation.operationId().value();
    if (!origins.contains(operation.allowedOrigin())) {
      throw new AdmissionException(AdmissionCode.OPERATION_ORIGIN_UNLISTED,
          "operation " + id + " allowed_origin is outside permitted upstream origins");
    }
    if (!METHODS.contains(operation.method())) {
      throw new AdmissionException(AdmissionCode.METHOD_NOT_ALLOWED,
          "operation " + id + " must use an uppercase HTTP method: GET, POST, PUT, PATCH or DELETE");
    }
    if (!PathTemplates.isConstrained(operation.pathTemplate())) {
      throw new AdmissionException(AdmissionCode.PATH_UNCONSTRAINED,
          "operation " + id + " path_template is unconstrained");
    }
    Map<String, Object> schema = operation.requestSchema();
    if (!"object".equals(schema.get("type")) || !Boolean.FALSE.equals(schema.get("additionalProperties"))) {
      throw new AdmissionException(AdmissionCode.REQUEST_SCHEMA_OPEN,
          "operation " + id + " request_schema must be a closed object (type object, additionalProperties false)");
    }
    if (!(schema.get("properties") instanceof Map<?, ?> properties)) {
      throw new AdmissionException(AdmissionCode.REQUEST_SCHEMA_NO_PROPERTIES,
          "operation " + id + " request_schema must have a properties map");
    }
    for (Object name : properties.keySet()) {
      if (TransportFields.isTransportField((String) name)) {
        throw new AdmissionException(AdmissionCode.REQUEST_SCHEMA_TRANSPORT_FIELD,
            "operation " + id + " request_schema must not declare caller-controlled transport fields");
      }
    }
    String resourceArgument = operation.resourceArgument();
    if (resourceArgument != null && !(properties.get(resourceArgument) instanceof Map<?, ?> argumentSchema
        && "string".equals(argumentSchema.get("type")))) {
      throw new AdmissionException(AdmissionCode.RESOURCE_ARGUMENT_INVALID,
          "operation " + id + " resource argument must name a declared string property");
    }
    if (operation.effect() == EffectKind.READ) {
      return;
    }
    List<String> bindings = operation.secretBindings();
    if (bindings.isEmpty()) {
      throw new AdmissionException(AdmissionCode.SECRET_BINDING_MISSING,
          "effectful operation " + id + " must declare at least one secret binding");
    }
    if (new HashSet<>(bindings).size() != bindings.size() || bindings.stream().anyMatch(String::isBlank)) {
      throw new AdmissionException(AdmissionCode.SECRET_BINDING_INVALID,
          "effectful operation " + id + " secret bindings must be non-empty and unique");
    }
    if (operation.redactionPaths().isEmpty()) {
      throw new AdmissionException(AdmissionCode.REDACTION_PATHS_MISSING,
          "effectful operation " + id + " must declare redaction paths");
    }
    if (operation.reconciliationStrategy() == null) {
      throw new AdmissionException(AdmissionCode.RECONCILIATION_MISSING,
          "effectful operation " + id + " must declare a reconciliation strategy");
    }
  }

  /**
   * {@link #validateConnectorRevision} first, then: the connection's connector is the revision's, the connection pins
   * this revision, every exposed operation is declared, every required provider scope is granted.
   *
   * @throws AdmissionException at the first failing rule
   */
  public static void validateConnectionAdmission(Connection connection, ConnectorRevision revision) {
    Objects.requireNonNull(connection, "connection");
    validateConnectorRevision(revision);
    if (!connection.connectorId().equals(revision.connectorId())) {
      throw new AdmissionException(AdmissionCode.CONNECTOR_MISMATCH, "connection connector does not match revision");
    }
    if (!connection.connectorRevision().equals(revision.revisionId())) {
      throw new AdmissionException(AdmissionCode.REVISION_NOT_PINNED, "connection does not pin this revision");
    }
    for (OperationId exposed : connection.exposedBusinessOperations()) {
      if (revision.findOperation(exposed).isEmpty()) {
        throw new AdmissionException(AdmissionCode.EXPOSED_OPERATION_UNDECLARED,
            "connection exposes undeclared operation " + exposed.value());
      }
    }
    for (String scope : revision.requiredProviderScopes()) {
      if (!connection.grantedProviderScopes().contains(scope)) {
        throw new AdmissionException(AdmissionCode.PROVIDER_SCOPE_MISSING,
            "connection lacks a required provider scope");
      }
    }
  }

  /**
   * Runtime admission of one request body, top-level fields only, in order: the operation is declared; the body is
   * strict UTF-8 JSON with no key repeated at any depth; it is an object; no top-level key is a transport field; the
   * schema has a properties map; every top-level key is a declared property (exact match). Values, nested shapes,
   * {@code required} and types are not validated. Messages never name body keys or values.
   *
   * @return the declared operation and the parsed top-level fields
   * @throws AdmissionException at the first failing rule
   */
  public static AdmittedRequest validateOperationRequest(ConnectorRevision revision, OperationId operationId,
      byte[] requestBody) {
    Objects.requireNonNull(revision, "revision");
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(requestBody, "requestBody");
    BusinessOperation operation = revision.findOperation(operationId).orElseThrow(() -> new AdmissionException(
        AdmissionCode.OPERATION_ABSENT, "operation " + operationId.value() + " is absent from connector revision"));
    Object body;
    try {
      body = RequestBodies.parse(requestBody);
    } catch (RequestBodies.DuplicateKeyException e) {
      throw new AdmissionException(AdmissionCode.REQUEST_DUPLICATE_FIELDS, "request body has duplicate fields");
    } catch (RequestBodies.InvalidJsonException e) {
      throw new AdmissionException(AdmissionCode.REQUEST_INVALID_JSON, "request body must be valid JSON in UTF-8");
    }
    if (!(body instanceof Map<?, ?> map)) {
      throw new AdmissionException(AdmissionCode.REQUEST_NOT_OBJECT, "request body must be a JSON object");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> fields = (Map<String, Object>) map;
    for (String key : fields.keySet()) {
      if (TransportFields.isTransportField(key)) {
        throw new AdmissionException(AdmissionCode.REQUEST_TRANSPORT_FIELD,
            "request body must not set caller-controlled transport fields");
      }
    }
    if (!(operation.requestSchema().get("properties") instanceof Map<?, ?> properties)) {
      throw new AdmissionException(AdmissionCode.REQUEST_SCHEMA_MISSING_PROPERTIES,
          "operation " + operationId.value() + " request schema has no properties map");
    }
    for (String key : fields.keySet()) {
      if (!properties.containsKey(key)) {
        throw new AdmissionException(AdmissionCode.REQUEST_UNDECLARED_FIELD, "request body has undeclared fields");
      }
    }
    return new AdmittedRequest(operation, fields);
  }
}
