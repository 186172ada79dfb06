package io.zeocore.connections.admission;

import io.zeocore.connections.contract.BusinessOperation;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A request body that passed {@link ConnectorAdmission#validateOperationRequest}: the declared operation and the
 * parsed top-level fields (deep immutable: maps, lists, strings, {@link java.math.BigInteger} or {@link Long} or
 * {@link Integer} integers, {@link java.math.BigDecimal} fractions, booleans, {@code null}). Not a JSON contract; hold
 * it no longer than the request.
 *
 * @param operation the declared operation
 * @param fields the body's top-level fields
 */
public record AdmittedRequest(BusinessOperation operation, Map<String, Object> fields) {

  public AdmittedRequest {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(fields, "fields");
  }

  /** The top-level field {@code name} when it is a JSON string. */
  public Optional<String> stringField(String name) {
    return fields.get(name) instanceof String value ? Optional.of(value) : Optional.empty();
  }

  /** The operation and the number of fields; never field names or values. */
  @Override
  public String toString() {
    return "AdmittedRequest[operation=" + operation.operationId() + ", fields=" + fields.size() + "]";
  }
}
