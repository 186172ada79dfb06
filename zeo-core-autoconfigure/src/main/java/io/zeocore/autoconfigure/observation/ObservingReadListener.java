package io.zeocore.autoconfigure.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import io.zeocore.connections.contract.ObservationId;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.observation.ObservationExecutionResult;
import io.zeocore.connections.observation.ObservationListener;
import io.zeocore.connections.observation.ObservationPreflightException;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

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
    Observation observation = Observation.createNotStarted(null, CONVENTION, () -> context, registry).start();
    Observation.Scope scope = observation.openScope();
    return new ObserveScope() {
      @Override
      public void returned(ObservationExecutionResult result) {
        context.result = result;
        scope.close();
        observation.stop();
      }

      @Override
      public void threw(RuntimeException thrown) {
        context.thrown = thrown;
        scope.close();
        observation.stop();
      }
    };
  }

  /** The context of one read: what was asked, then how the call ended. */
  public static final class ReadContext extends Observation.Context {

    private final OperationId operationId;
    private final ObservationId observationId;
    private @Nullable ObservationExecutionResult result;
    private @Nullable RuntimeException thrown;

    ReadContext(OperationId operationId, ObservationId observationId) {
      this.operationId = operationId;
      this.observationId = observationId;
    }

    public OperationId getOperationId() {
      return operationId;
    }

    public ObservationId getObservationId() {
      return observationId;
    }

    /** The call's result, once it returned. */
    public @Nullable ObservationExecutionResult getResult() {
      return result;
    }

    /** What the call threw, once it did. */
    public @Nullable RuntimeException getThrown() {
      return thrown;
    }
  }

  private static final class Convention implements ObservationConvention<ReadContext> {

    @Override
    public String getName() {
      return NAME;
    }

    @Override
    public String getContextualName(ReadContext context) {
      return "zeocore read " + context.getOperationId().value();
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
      return context instanceof ReadContext;
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(ReadContext context) {
      ObservationExecutionResult result = context.getResult();
      RuntimeException thrown = context.getThrown();
      String error = "none";
      if (thrown != null) {
        error = thrown.getClass().getSimpleName() + (thrown instanceof ObservationPreflightException preflight
            && preflight.code() != null ? ":" + preflight.code().name().toLowerCase(Locale.ROOT) : "");
      }
      String state = "unknown";
      String reason = "none";
      if (result != null && result.refusalReason() != null) {
        state = "refused";
        reason = result.refusalReason().name().toLowerCase(Locale.ROOT);
      } else if (result != null) {
        state = result.state().name().toLowerCase(Locale.ROOT);
      } else if (thrown != null) {
        state = "error";
      }
      return KeyValues.of("operation", context.getOperationId().value(), "state", state, "refusal.reason", reason,
          "error", error);
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(ReadContext context) {
      return KeyValues.of("observation.id", context.getObservationId().value());
    }
  }
}
