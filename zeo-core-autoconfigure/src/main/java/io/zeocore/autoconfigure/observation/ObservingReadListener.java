package io.zeocore.autoconfigure.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.ReadId;
import io.zeocore.connections.read.ReadListener;
import io.zeocore.connections.read.ReadPreflightException;
import io.zeocore.connections.read.ReadResult;
import java.util.Objects;

/**
 * The {@link ReadListener} that makes each authorized read ({@code ReadOrchestrator.read}) one
 * {@value #NAME} Micrometer observation ({@code zeocore read <operation>}), in scope on the caller's thread while the
 * call runs. Low-cardinality keys: {@code operation}, {@code state} (the state the call returned, lower case —
 * {@code confirmed}, {@code failed_safe}, {@code claimed}, {@code refused} — or {@code error} when it threw),
 * {@code refusal.reason} (lower case, {@code none} unless refused), {@code error} (the thrown exception's simple class
 * name, with the preflight code for a preflight rejection; {@code none} when it returned); high-cardinality key:
 * {@code read.id}. Ids and codes only: never a body, result, message or provider text.
 */
public final class ObservingReadListener implements ReadListener {

  /** The observation's name. */
  public static final String NAME = "zeocore.read";

  private static final Convention CONVENTION = new Convention();

  private final ObservationRegistry registry;

  public ObservingReadListener(ObservationRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public ReadScope readStarted(OperationId operationId, ReadId readId) {
    ReadContext context = new ReadContext(operationId, readId);
    context.start(Observation.createNotStarted(null, CONVENTION, () -> context, registry));
    return new ReadScope() {
      @Override
      public void returned(ReadResult result) {
        context.returned(result.state(), result.refusalReason());
      }

      @Override
      public void threw(RuntimeException thrown) {
        context.threw(thrown, thrown instanceof ReadPreflightException preflight ? preflight.code() : null);
      }
    };
  }

  /** The context of one read; {@link #getCallId()} is the observation id. */
  public static final class ReadContext extends ConnectionCallContext {

    ReadContext(OperationId operationId, ReadId readId) {
      super(operationId, readId.value());
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
      return KeyValues.of("read.id", context.getCallId());
    }
  }
}
