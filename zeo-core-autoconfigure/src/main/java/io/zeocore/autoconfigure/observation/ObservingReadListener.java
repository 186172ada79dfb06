package io.zeocore.autoconfigure.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.zeocore.connections.contract.ObservationId;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.observation.ObservationExecutionResult;
import io.zeocore.connections.observation.ObservationListener;
import io.zeocore.connections.observation.ObservationPreflightException;
import java.util.Objects;

/**
 * The {@link ObservationListener} that makes each authorized read ({@code ObservationOrchestrator.observe}) one
 * {@value #NAME} Micrometer observation ({@code zeocore read <operation>}), in scope on the caller's thread while the
 * call runs. Low-cardinality keys: {@code operation}, {@code state} (the state the call returned, lower case —
 * {@code confirmed}, {@code failed_safe}, {@code claimed}, {@code refused} — or {@code error} when it threw),
 * {@code refusal.reason} (lower case, {@code none} unless refused), {@code error} (the thrown exception's simple class
 * name, with the preflight code for a preflight rejection; {@code none} when it returned); high-cardinality key:
 * {@code observation.id}. Ids and codes only: never a body, result, message or provider text.
 */
public final class ObservingReadListener implements ObservationListener {

  /** The observation's name. */
  public static final String NAME = "zeocore.read";

  private static final Convention CONVENTION = new Convention();

  private final ObservationRegistry registry;

  public ObservingReadListener(ObservationRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public ObserveScope observeStarted(OperationId operationId, ObservationId observationId) {
    ReadContext context = new ReadContext(operationId, observationId);
    context.start(Observation.createNotStarted(null, CONVENTION, () -> context, registry));
    return new ObserveScope() {
      @Override
      public void returned(ObservationExecutionResult result) {
        context.returned(result.state(), result.refusalReason());
      }

      @Override
      public void threw(RuntimeException thrown) {
        context.threw(thrown, thrown instanceof ObservationPreflightException preflight ? preflight.code() : null);
      }
    };
  }

  /** The context of one read; {@link #getCallId()} is the observation id. */
  public static final class ReadContext extends ConnectionCallContext {

    ReadContext(OperationId operationId, ObservationId observationId) {
      super(operationId, observationId.value());
    }
  }

  private static final class Convention extends ConnectionCallConvention<ReadContext> {

    Convention() {
      super(NAME, "zeocore read");
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
      return context instanceof ReadContext;
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(ReadContext context) {
      return KeyValues.of("observation.id", context.getCallId());
    }
  }
}
