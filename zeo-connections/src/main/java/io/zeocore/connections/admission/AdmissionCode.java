package io.zeocore.connections.admission;

/**
 * Why {@link ConnectorAdmission} refused a connector revision, a connection or a runtime request. Each code has a
 * stable machine code {@code ZEO_ADMISSION_<NAME>}. The codes of revision admission are listed in check order.
 */
public enum AdmissionCode {
  // validateConnectorRevision, in check order
  /** The permitted upstream origins contain a duplicate. */
  ORIGINS_NOT_UNIQUE,
  /** An origin's port is not 1-5 ASCII digits within 0-65535. */
  ORIGIN_INVALID_PORT,
  /** An origin is not exactly {@code https://host[:443][/]}: other scheme, no or malformed host, userinfo, path, query or fragment. */
  ORIGIN_NOT_HTTPS_ORIGIN,
  /**
   * An origin's host is a special-use or local-only name (trailing dot or not): {@code localhost}, {@code .local},
   * {@code .test}, {@code .invalid}, {@code .example}, {@code .onion}, {@code .alt}, {@code .arpa} (including
   * {@code home.arpa}), {@code .internal}, {@code .intranet}, {@code .private}, {@code .corp}, {@code .home},
   * {@code .lan}, {@code .mail}, {@code .localdomain}, or a single label; see {@code Origins.LOCAL_SUFFIXES}.
   */
  ORIGIN_LOCAL,
  /** An origin's host is an IP literal (or a numeric host a resolver would read as one) that is not globally routable. */
  ORIGIN_NOT_GLOBAL,
  /** The revision allows redirects. */
  REDIRECTS_FORBIDDEN,
  /** An operation's {@code allowed_origin} is not one of the permitted origins (exact string). */
  OPERATION_ORIGIN_UNLISTED,
  /** An operation's method is not one of {@code GET POST PUT PATCH DELETE} (uppercase). */
  METHOD_NOT_ALLOWED,
  /** An operation's path template is not a constrained absolute path. */
  PATH_UNCONSTRAINED,
  /** An operation's request schema is not {@code type: object} with {@code additionalProperties: false}. */
  REQUEST_SCHEMA_OPEN,
  /** An operation's request schema has no {@code properties} map. */
  REQUEST_SCHEMA_NO_PROPERTIES,
  /** An operation's request schema declares a caller-controlled transport field. */
  REQUEST_SCHEMA_TRANSPORT_FIELD,
  /** An operation's {@code resource_argument} does not name a declared string property. */
  RESOURCE_ARGUMENT_INVALID,
  /** An effectful operation has no secret binding. */
  SECRET_BINDING_MISSING,
  /** An effectful operation's secret bindings are blank or not unique. */
  SECRET_BINDING_INVALID,
  /** An effectful operation has no redaction path. */
  REDACTION_PATHS_MISSING,
  /** An effectful operation has no reconciliation strategy. */
  RECONCILIATION_MISSING,

  // validateConnectionAdmission, after the revision checks
  /** The connection's connector is not the revision's connector. */
  CONNECTOR_MISMATCH,
  /** The connection does not pin this revision. */
  REVISION_NOT_PINNED,
  /** The connection exposes an operation the revision does not declare. */
  EXPOSED_OPERATION_UNDECLARED,
  /** A provider scope the revision requires was not granted to the connection. */
  PROVIDER_SCOPE_MISSING,

  // validateOperationRequest, in check order
  /** The requested operation is not declared by the revision. */
  OPERATION_ABSENT,
  /** The request body repeats a key in some object, at any depth. */
  REQUEST_DUPLICATE_FIELDS,
  /** The request body is not strict UTF-8 JSON (including NaN, Infinity, lone surrogates, trailing content). */
  REQUEST_INVALID_JSON,
  /** The request body is valid JSON but not an object. */
  REQUEST_NOT_OBJECT,
  /** The request body sets a caller-controlled transport field. */
  REQUEST_TRANSPORT_FIELD,
  /** The operation's request schema has no {@code properties} map. */
  REQUEST_SCHEMA_MISSING_PROPERTIES,
  /** The request body has a top-level field the schema does not declare. */
  REQUEST_UNDECLARED_FIELD;

  /** {@code ZEO_ADMISSION_} followed by the constant name, e.g. {@code ZEO_ADMISSION_PATH_UNCONSTRAINED}. */
  public String machineCode() {
    return "ZEO_ADMISSION_" + name();
  }
}
