package io.zeocore.connections.admission;

import static io.zeocore.connections.contract.ContractFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.EffectKind;
import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectorId;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.IdempotencyMode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.RiskClass;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConnectorAdmissionTest {

  private static final String ORIGIN = "https://api.example.com";

  /** A mutable description of one operation; every field starts valid. */
  static final class Op {
    String id = "create_refund";
    EffectKind effect = EffectKind.FINANCIAL;
    Map<String, Object> schema = closedSchema("amount", "charge");
    String origin = ORIGIN;
    String method = "POST";
    String path = "/v1/refunds/{charge}";
    List<String> bindings = List.of("api_key");
    List<String> redactions = List.of("$.id");
    String reconciliation = "lookup_by_idempotency_key";
    String resourceArgument = null;

    BusinessOperation build() {
      return new BusinessOperation(new OperationId(id), effect, schema, Map.of("type", "object"), origin, method,
          path, bindings, redactions, IdempotencyMode.PROVIDER_NATIVE, reconciliation, resourceArgument);
    }
  }

  static ConnectorRevision revision(List<String> origins, boolean followRedirects, Op... operations) {
    return new ConnectorRevision(new ConnectorId("example"), new ConnectorRevisionId("example-r1"), "example",
        "api_key", "probe", "health", "header:Authorization", "default", "1", origins, List.of("refunds:write"),
        java.util.Arrays.stream(operations).map(Op::build).toList(), 1024, 1024, 10.0, followRedirects,
        RiskClass.HIGH, false, null, null, null);
  }

  static ConnectorRevision revision(Op... operations) {
    return revision(List.of(ORIGIN), false, operations);
  }

  static AbstractThrowableAssert<?, ? extends Throwable> refuses(Runnable check, AdmissionCode code, String phrase) {
    return assertThatThrownBy(check::run)
        .isInstanceOf(AdmissionException.class)
        .satisfies(e -> assertThat(((AdmissionException) e).code()).isEqualTo(code))
        .hasMessageContaining(phrase)
        .hasMessageStartingWith(code.machineCode());
  }

  static void refusesRevision(ConnectorRevision revision, AdmissionCode code, String phrase) {
    refuses(() -> ConnectorAdmission.validateConnectorRevision(revision), code, phrase);
  }

  static void refusesOrigin(String origin, AdmissionCode code, String phrase) {
    Op op = new Op();
    op.origin = origin;
    refusesRevision(revision(List.of(origin), false, op), code, phrase);
  }

  @Nested
  class Revisions {

    @Test
    void admitsANarrowRevisionWithAReadAndAnEffect() {
      Op read = new Op();
      read.id = "list_files";
      read.effect = EffectKind.READ;
      read.method = "GET";
      read.bindings = List.of();
      read.redactions = List.of();
      read.reconciliation = null;
      read.schema = closedSchema("folder");
      read.resourceArgument = "folder";
      assertThatCode(() -> ConnectorAdmission.validateConnectorRevision(revision(new Op(), read)))
          .doesNotThrowAnyException();
      assertThatCode(() -> ConnectorAdmission.validateConnectorRevision(
          revision(List.of(ORIGIN, "https://api.example.com:443/", "https://[2606:4700::1111]", "https://8.8.8.8",
              "https://API.Example.COM."), false,
              new Op()))).doesNotThrowAnyException();
    }

    @Test
    void rule1RefusesDuplicateOrigins() {
      refusesRevision(revision(List.of(ORIGIN, ORIGIN), false, new Op()), AdmissionCode.ORIGINS_NOT_UNIQUE,
          "origins must be unique");
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://api.example.com:abc", "https://api.example.com:", "https://api.example.com:99999",
        "https://[2606:4700::1111]:x", "http://api.example.com:-1"})
    void rule2RefusesInvalidPorts(String origin) {
      refusesOrigin(origin, AdmissionCode.ORIGIN_INVALID_PORT, "invalid port");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://api.example.com", "ftp://api.example.com", "https://", "https://user@api.example.com",
        "https://user:pw@api.example.com", "https://api.example.com/v1", "https://api.example.com?x=1",
        "https://api.example.com?", "https://api.example.com#frag", "https://api.example.com:8443", "api.example.com",
        "https://api example.com", "https://api.exa%6dple.com", "https://[::1]x", "https://api_example.com"})
    void rule3RefusesAnythingButAnHttpsOrigin(String origin) {
      refusesOrigin(origin, AdmissionCode.ORIGIN_NOT_HTTPS_ORIGIN, "HTTPS origin only");
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://localhost", "https://LOCALHOST", "https://localhost.", "https://api.localhost",
        "https://printer.local", "https://printer.local.", "https://vault.internal", "https://metadata.google.internal"})
    void rule4RefusesLocalNames(String origin) {
      refusesOrigin(origin, AdmissionCode.ORIGIN_LOCAL, "must not be local");
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://foo.home.arpa", "https://foo.lan", "https://nas.localdomain", "https://svc.test",
        "https://x.invalid", "https://www.example", "https://abcdefghijklmnop.onion", "https://hr.intranet",
        "https://git.corp", "https://vault.private", "https://router.home", "https://exchange.mail", "https://x.alt",
        "https://1.0.0.10.in-addr.arpa", "https://ipv4only.arpa", "https://FOO.Home.Arpa.", "https://home.arpa",
        "https://lan", "https://intranet", "https://printer"})
    void rule4RefusesSpecialUseAndLocalOnlyNames(String origin) {
      refusesOrigin(origin, AdmissionCode.ORIGIN_LOCAL, "must not be local");
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://example.com", "https://example.org", "https://api.stripe.com",
        "https://lan.example.com", "https://corp.example.net", "https://testing.dev", "https://home.depot.com",
        "https://mail.google.com", "https://api.localhostx.com", "https://arpa.example.com"})
    void rule4AdmitsPublicNamesThatOnlyContainALocalWord(String origin) {
      assertThatCode(
          () -> ConnectorAdmission.validateConnectorRevision(revision(List.of(ORIGIN, origin), false, new Op())))
          .as(origin).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://127.0.0.1", "https://10.1.2.3", "https://172.16.0.1", "https://192.168.1.1",
        "https://169.254.169.254", "https://100.64.0.1", "https://0.0.0.0", "https://224.0.0.1",
        "https://255.255.255.255", "https://192.0.2.1", "https://[::1]", "https://[::]", "https://[fe80::1]",
        "https://[fc00::1]", "https://[fd12:3456::1]", "https://[ff02::1]", "https://[::ffff:127.0.0.1]",
        "https://[2001:db8::1]", "https://[2002:7f00:1::1]", "https://127.1", "https://2130706433",
        "https://0x7f.0.0.1", "https://010.0.0.1", "https://1.2.3.256"})
    void rule5RefusesIpLiteralsThatAreNotGlobal(String origin) {
      refusesOrigin(origin, AdmissionCode.ORIGIN_NOT_GLOBAL, "address must be global");
    }

    @Test
    void rule6RefusesRedirects() {
      refusesRevision(revision(List.of(ORIGIN), true, new Op()), AdmissionCode.REDIRECTS_FORBIDDEN,
          "forbids redirects");
    }

    @Test
    void rule7RefusesAnOperationOriginOutsideThePermittedSet() {
      Op op = new Op();
      op.origin = "https://api.example.com/";
      refusesRevision(revision(op), AdmissionCode.OPERATION_ORIGIN_UNLISTED, "outside permitted");
    }

    @ParameterizedTest
    @ValueSource(strings = {"post", "HEAD", "OPTIONS", "CONNECT", "TRACE", " POST"})
    void rule8RefusesOtherMethodsCaseSensitively(String method) {
      Op op = new Op();
      op.method = method;
      refusesRevision(revision(op), AdmissionCode.METHOD_NOT_ALLOWED, "uppercase HTTP");
    }

    @ParameterizedTest
    @ValueSource(strings = {"v1/refunds", "//evil.example.com/x", "/redirect/https://evil", "/v1/*", "/v1/../admin",
        "/v1/refunds?all=1", "/v1/refunds#x", "/v1/%2e%2e/admin", "/v1/%2E%2E/admin", "/v1/.%2e/admin",
        "/v1/%252e%252e/admin", "/v1\\admin", "/v1/ refunds", "/v1/\trefunds", "/v1/\nx",
        "/v1/%zz", "/v1/%2", "/v1/%3fx", "/v1/%23x", "/v1/%5cadmin", "/v1/%20x", "/%2f/evil"})
    void rule9RefusesUnconstrainedPaths(String path) {
      Op op = new Op();
      op.path = path;
      refusesRevision(revision(op), AdmissionCode.PATH_UNCONSTRAINED, "unconstrained");
    }

    @Test
    void rule10RefusesOpenRequestSchemas() {
      Op notObject = new Op();
      notObject.schema = new LinkedHashMap<>(closedSchema("amount"));
      notObject.schema.put("type", "array");
      refusesRevision(revision(notObject), AdmissionCode.REQUEST_SCHEMA_OPEN, "closed object");

      Op open = new Op();
      open.schema = new LinkedHashMap<>(closedSchema("amount"));
      open.schema.put("additionalProperties", "false");
      refusesRevision(revision(open), AdmissionCode.REQUEST_SCHEMA_OPEN, "closed object");

      Op missing = new Op();
      missing.schema = new LinkedHashMap<>(closedSchema("amount"));
      missing.schema.remove("additionalProperties");
      refusesRevision(revision(missing), AdmissionCode.REQUEST_SCHEMA_OPEN, "closed object");
    }

    @Test
    void rule11RequiresAPropertiesMap() {
      Op op = new Op();
      op.schema = Map.of("type", "object", "additionalProperties", false, "properties", List.of("amount"));
      refusesRevision(revision(op), AdmissionCode.REQUEST_SCHEMA_NO_PROPERTIES, "properties map");
    }

    @ParameterizedTest
    @ValueSource(strings = {"url", "Authorization", "HEADERS", "callback-url", "Redirect_URL", " cookie"})
    void rule12RefusesTransportFieldsInTheSchemaCaseInsensitively(String field) {
      Op op = new Op();
      op.schema = closedSchema("amount", field);
      refusesRevision(revision(op), AdmissionCode.REQUEST_SCHEMA_TRANSPORT_FIELD, "transport fields");
    }

    @Test
    void rule13RequiresTheResourceArgumentToBeADeclaredString() {
      Op undeclared = new Op();
      undeclared.resourceArgument = "folder";
      refusesRevision(revision(undeclared), AdmissionCode.RESOURCE_ARGUMENT_INVALID, "resource argument");

      Op notString = new Op();
      Map<String, Object> schema = new LinkedHashMap<>(closedSchema());
      schema.put("properties", Map.of("folder", Map.of("type", "integer")));
      notString.schema = schema;
      notString.resourceArgument = "folder";
      refusesRevision(revision(notString), AdmissionCode.RESOURCE_ARGUMENT_INVALID, "resource argument");
    }

    @Test
    void readOperationsStopBeforeTheEffectRules() {
      Op read = new Op();
      read.effect = EffectKind.READ;
      read.bindings = List.of();
      read.redactions = List.of();
      read.reconciliation = null;
      assertThatCode(() -> ConnectorAdmission.validateConnectorRevision(revision(read))).doesNotThrowAnyException();
    }

    @Test
    void rule14RequiresASecretBindingOnEffects() {
      Op op = new Op();
      op.bindings = List.of();
      refusesRevision(revision(op), AdmissionCode.SECRET_BINDING_MISSING, "secret binding");
    }

    @Test
    void rule15RequiresUniqueNonBlankBindings() {
      Op duplicate = new Op();
      duplicate.bindings = List.of("api_key", "api_key");
      refusesRevision(revision(duplicate), AdmissionCode.SECRET_BINDING_INVALID, "non-empty and unique");
      Op blank = new Op();
      blank.bindings = List.of("api_key", " ");
      refusesRevision(revision(blank), AdmissionCode.SECRET_BINDING_INVALID, "non-empty and unique");
    }

    @Test
    void rule16RequiresRedactionPathsOnEffects() {
      Op op = new Op();
      op.redactions = List.of();
      refusesRevision(revision(op), AdmissionCode.REDACTION_PATHS_MISSING, "redaction paths");
    }

    @Test
    void rule17ReconciliationIsAlreadyEnforcedWhenTheRevisionIsBuilt() {
      Op op = new Op();
      op.reconciliation = " ";
      assertThatThrownBy(() -> revision(op)).hasMessageContaining("reconciliation_strategy");
      assertThat(AdmissionCode.RECONCILIATION_MISSING.machineCode()).isEqualTo("ZEO_ADMISSION_RECONCILIATION_MISSING");
    }

    @Test
    void reportsTheFirstFailingRule() {
      // duplicate origins (1) and an http origin (3): 1 wins
      refusesRevision(revision(List.of("http://a.example.com", "http://a.example.com"), false, new Op()),
          AdmissionCode.ORIGINS_NOT_UNIQUE, "unique");
      // a local origin (4) and redirects (6): 4 wins
      Op local = new Op();
      local.origin = "https://localhost";
      refusesRevision(revision(List.of("https://localhost"), true, local), AdmissionCode.ORIGIN_LOCAL, "local");
      // bad method (8) and unconstrained path (9) and open schema (10): 8 wins
      Op many = new Op();
      many.method = "get";
      many.path = "/../x";
      many.schema = Map.of("type", "object");
      refusesRevision(revision(many), AdmissionCode.METHOD_NOT_ALLOWED, "uppercase");
      // missing secret binding (14) and missing redaction (16): 14 wins
      Op effect = new Op();
      effect.bindings = List.of();
      effect.redactions = List.of();
      refusesRevision(revision(effect), AdmissionCode.SECRET_BINDING_MISSING, "secret binding");
      // operations are checked in order: the second operation's failure is reported only if the first passes
      Op first = new Op();
      first.id = "first";
      first.path = "*";
      Op second = new Op();
      second.id = "second";
      second.method = "get";
      refusesRevision(revision(first, second), AdmissionCode.PATH_UNCONSTRAINED, "operation first");
    }
  }

  @Nested
  class Connections {

    private final ConnectorRevision revision = revision(new Op());

    private Connection connection(ConnectorId connector, ConnectorRevisionId pinned, List<OperationId> exposed,
        List<String> scopes) {
      Connection c = io.zeocore.connections.contract.ContractFixtures.connection();
      return new Connection(c.connectionId(), c.organizationId(), connector, pinned, "app", "acct", List.of(), scopes,
          exposed, c.secretHandle(), c.status(), c.health(), c.createdAt(), null, null);
    }

    @Test
    void admitsAMatchingConnection() {
      assertThatCode(() -> ConnectorAdmission.validateConnectionAdmission(connection(revision.connectorId(),
          revision.revisionId(), List.of(new OperationId("create_refund")), List.of("refunds:write", "x")), revision))
          .doesNotThrowAnyException();
    }

    @Test
    void runsRevisionAdmissionFirst() {
      ConnectorRevision redirecting = revision(List.of(ORIGIN), true, new Op());
      refuses(() -> ConnectorAdmission.validateConnectionAdmission(
          connection(new ConnectorId("other"), REVISION, List.of(), List.of()), redirecting),
          AdmissionCode.REDIRECTS_FORBIDDEN, "redirects");
    }

    @Test
    void refusesAnotherConnector() {
      refuses(() -> ConnectorAdmission.validateConnectionAdmission(
          connection(new ConnectorId("other"), new ConnectorRevisionId("other-r"), List.of(), List.of()), revision),
          AdmissionCode.CONNECTOR_MISMATCH, "connector does not match revision");
    }

    @Test
    void refusesAConnectionPinningAnotherRevision() {
      refuses(() -> ConnectorAdmission.validateConnectionAdmission(
          connection(revision.connectorId(), new ConnectorRevisionId("example-r2"), List.of(), List.of()), revision),
          AdmissionCode.REVISION_NOT_PINNED, "does not pin this revision");
    }

    @Test
    void refusesExposingUndeclaredOperations() {
      refuses(() -> ConnectorAdmission.validateConnectionAdmission(connection(revision.connectorId(),
          revision.revisionId(), List.of(new OperationId("delete_everything")), List.of("refunds:write")), revision),
          AdmissionCode.EXPOSED_OPERATION_UNDECLARED, "undeclared operation");
    }

    @Test
    void refusesMissingRequiredProviderScopes() {
      refuses(() -> ConnectorAdmission.validateConnectionAdmission(connection(revision.connectorId(),
          revision.revisionId(), List.of(), List.of("refunds:read")), revision),
          AdmissionCode.PROVIDER_SCOPE_MISSING, "required provider scope");
    }
  }

  @Nested
  class Requests {

    private final ConnectorRevision revision = revision(new Op());
    private final OperationId refund = new OperationId("create_refund");

    private void refusesBody(byte[] body, AdmissionCode code, String phrase) {
      refuses(() -> ConnectorAdmission.validateOperationRequest(revision, refund, body), code, phrase);
    }

    private void refusesBody(String body, AdmissionCode code, String phrase) {
      refusesBody(body.getBytes(StandardCharsets.UTF_8), code, phrase);
    }

    @Test
    void admitsDeclaredTopLevelFieldsWithoutValidatingValues() {
      AdmittedRequest admitted = ConnectorAdmission.validateOperationRequest(revision, refund,
          "{\"amount\":{\"nested\":[1,2.5,1e400]},\"charge\":\"ch_1\"}".getBytes(StandardCharsets.UTF_8));
      assertThat(admitted.operation().operationId()).isEqualTo(refund);
      assertThat(admitted.stringField("charge")).contains("ch_1");
      assertThat(admitted.stringField("amount")).isEmpty();
      assertThat(admitted.toString()).doesNotContain("ch_1").doesNotContain("charge");
    }

    @Test
    void rule1RefusesAnUndeclaredOperation() {
      refuses(() -> ConnectorAdmission.validateOperationRequest(revision, new OperationId("nope"), "{}".getBytes()),
          AdmissionCode.OPERATION_ABSENT, "absent from connector revision");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"amount\":1,\"amount\":2}", "{\"amount\":{\"a\":1,\"a\":1}}",
        "{\"amount\":[{\"x\":{\"y\":1,\"y\":2}}]}"})
    void rule2RefusesDuplicateKeysAtAnyDepth(String body) {
      refusesBody(body, AdmissionCode.REQUEST_DUPLICATE_FIELDS, "duplicate fields");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{", "{\"amount\":NaN}", "{\"amount\":Infinity}", "{\"amount\":-Infinity}",
        "{\"amount\":1} {}", "{'amount':1}", "{\"amount\":1,}", "{\"amount\":\"\\ud800\"}", "\ufeff{}",
        "{/*c*/\"amount\":1}", "{\"amount\":01}"})
    void rule2RefusesInvalidJson(String body) {
      refusesBody(body, AdmissionCode.REQUEST_INVALID_JSON, "valid JSON");
    }

    @Test
    void rule2RefusesInvalidUtf8() {
      byte[] truncated = {'{', '"', 'a', 'm', 'o', 'u', 'n', 't', '"', ':', '"', (byte) 0xC3, '"', '}'};
      byte[] overlong = {'{', '"', 'a', 'm', 'o', 'u', 'n', 't', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'};
      byte[] surrogate = {'{', '"', 'a', 'm', 'o', 'u', 'n', 't', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80,
          '"', '}'};
      refusesBody(truncated, AdmissionCode.REQUEST_INVALID_JSON, "valid JSON");
      refusesBody(overlong, AdmissionCode.REQUEST_INVALID_JSON, "valid JSON");
      refusesBody(surrogate, AdmissionCode.REQUEST_INVALID_JSON, "valid JSON");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "\"amount\"", "1", "null", "true"})
    void rule3RequiresAnObject(String body) {
      refusesBody(body, AdmissionCode.REQUEST_NOT_OBJECT, "JSON object");
    }

    @ParameterizedTest
    @ValueSource(strings = {"url", "Authorization", "COOKIE", "redirect-url", "Callback_Url"})
    void rule4RefusesTransportFieldsCaseInsensitively(String field) {
      refusesBody("{\"" + field + "\":\"https://evil.example.com\"}", AdmissionCode.REQUEST_TRANSPORT_FIELD,
          "caller-controlled transport fields");
    }

    @Test
    void rule5RequiresAPropertiesMapInTheSchema() {
      // a revision whose schema lacks properties cannot pass revision admission; runtime admission still checks it
      Op op = new Op();
      op.schema = Map.of("type", "object", "additionalProperties", false);
      ConnectorRevision unadmitted = revision(op);
      refuses(() -> ConnectorAdmission.validateOperationRequest(unadmitted, refund, "{}".getBytes()),
          AdmissionCode.REQUEST_SCHEMA_MISSING_PROPERTIES, "no properties map");
    }

    @Test
    void rule6RefusesUndeclaredFieldsExactly() {
      refusesBody("{\"amount\":1,\"Amount\":2}", AdmissionCode.REQUEST_UNDECLARED_FIELD, "undeclared fields");
      refusesBody("{\"secret_canary_field\":1}", AdmissionCode.REQUEST_UNDECLARED_FIELD, "undeclared fields");
      assertThatThrownBy(() -> ConnectorAdmission.validateOperationRequest(revision, refund,
          "{\"secret_canary_field\":\"CANARY-VALUE\"}".getBytes())).hasMessageNotContaining("canary")
          .hasMessageNotContaining("CANARY");
    }

    @Test
    void reportsTheFirstFailingRule() {
      // duplicate keys (2) and a transport field (4): 2 wins
      refusesBody("{\"url\":1,\"url\":2}", AdmissionCode.REQUEST_DUPLICATE_FIELDS, "duplicate");
      // a transport field (4) and an undeclared field (6): 4 wins
      refusesBody("{\"other\":1,\"headers\":{}}", AdmissionCode.REQUEST_TRANSPORT_FIELD, "transport");
      // absent operation (1) beats invalid JSON (2)
      refuses(() -> ConnectorAdmission.validateOperationRequest(revision, new OperationId("nope"), "{".getBytes()),
          AdmissionCode.OPERATION_ABSENT, "absent");
    }
  }
}
