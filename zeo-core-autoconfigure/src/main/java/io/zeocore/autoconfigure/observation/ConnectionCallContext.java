package io.zeocore.autoconfigure.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.zeocore.connections.contract.OperationId;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The context of one orchestrator call — an effect's {@code execute}, a read's {@code read} — what was asked, then
 * how it ended, as codes: the state it returned (lower case, {@code refused} for a refusal, {@code error} when it
 * threw), the refusal reason and the error (the thrown exception's simple class name and, for a preflight rejection,
 * its code). Never a body, result, message or provider text.
 */
public abstract class ConnectionCallContext extends Observation.Context {

  private final OperationId operationId;
  private final String callId;
  private String state = "unknown";
  private String refusalReason = "none";
  private String error = "none";
  private Observation.@Nullable Scope scope;

  ConnectionCallContext(OperationId operationId, String callId) {
    this.operationId = operationId;
    this.callId = callId;
  }

  public OperationId getOperationId() {
    return operationId;
  }

  /** The effect id or the read id. */
  public String getCallId() {
    return callId;
  }

  /** The state the call returned, lower case, or {@code refused}, {@code error}, {@code unknown} while it runs. */
  public String getState() {
    return state;
  }

  /** The refusal reason, lower case, or {@code none}. */
  public String getRefusalReason() {
    return refusalReason;
  }

  /** What the call threw ({@code EffectPreflightException:operation_not_exposed}, …) or {@code none}. */
  public String getErrorCode() {
    return error;
  }

  /** The low-cardinality keys every call observation carries. */
  KeyValues callKeyValues() {
    return KeyValues.of("operation", operationId.value(), "state", state, "refusal.reason", refusalReason, "error",
        error);
  }

  /** Starts {@code observation} of this call and opens it in scope on the calling thread. */
  void start(Observation observation) {
    this.scope = observation.start().openScope();
  }

  /** The call returned {@code state}, refused for {@code reason} when there is one; ends the observation. */
  void returned(@Nullable Enum<?> state, @Nullable Enum<?> reason) {
    this.state = reason != null || state == null ? "refused" : lower(state); // a result without a state is refused
    this.refusalReason = reason != null ? lower(reason) : "none";
    end();
  }

  /** The call threw {@code thrown}, a rejection with {@code code} when there is one; ends the observation. */
  void threw(RuntimeException thrown, @Nullable Enum<?> code) {
    this.state = "error";
    this.error = thrown.getClass().getSimpleName() + (code != null ? ":" + lower(code) : "");
    end();
  }

  private void end() {
    Observation.Scope open = scope;
    if (open != null) {
      scope = null;
      open.close();
      open.getCurrentObservation().stop();
    }
  }

  private static String lower(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT);
  }
}
