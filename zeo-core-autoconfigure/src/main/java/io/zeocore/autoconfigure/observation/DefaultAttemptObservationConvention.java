package io.zeocore.autoconfigure.observation;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ModelUsage;
import io.zeocore.execution.StreamEvidence;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The default convention of attempt observations, named {@value #NAME}, children of their run's observation.
 * Low-cardinality keys: {@code policy}, {@code target} (the planned target id), {@code attempt} (the 1-based number),
 * {@code outcome} ({@code succeeded}/{@code failed}), {@code failure.kind} (the kind's wire value, {@code none} for a
 * success) and {@code dispatch.started} ({@code true}/{@code false}: whether the provider may have been reached).
 * High-cardinality key: {@code execution.id}. For a model request whose target reported its usage
 * ({@link ModelUsage}), OpenTelemetry's GenAI attributes as far as the provider reported them: low-cardinality
 * {@code gen_ai.provider.name}, {@code gen_ai.request.model}, {@code gen_ai.response.model}; high-cardinality
 * {@code gen_ai.usage.input_tokens} and {@code gen_ai.usage.output_tokens}. Never a value, request, secret, exception
 * text or provider text.
 */
public class DefaultAttemptObservationConvention extends PolicyRunConvention<AttemptObservationContext>
    implements AttemptObservationConvention {

  /** The observation's name. */
  public static final String NAME = "zeocore.execution.attempt";

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public String getContextualName(AttemptObservationContext context) {
    return "zeocore attempt " + context.getAttempt().targetId();
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(AttemptObservationContext context) {
    AttemptRecord record = context.getRecord();
    return policyRunKeyValues(context, record != null ? record.outcome() : null,
        record != null ? record.failureKind() : null).and("target", context.getAttempt().targetId(), "attempt",
            Integer.toString(context.getAttempt().attemptNumber()), "dispatch.started",
            record != null ? Boolean.toString(record.dispatchStarted()) : "unknown")
        .and(genAi(record, false));
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(AttemptObservationContext context) {
    return super.getHighCardinalityKeyValues(context).and(genAi(context.getRecord(), true))
        .and(stream(context.getRecord()));
  }

  /** What a streamed attempt delivered: chunk count and time to its first chunk in milliseconds (never the text). */
  private static KeyValues stream(@Nullable AttemptRecord record) {
    StreamEvidence stream = record != null ? record.stream() : null;
    if (stream == null) {
      return KeyValues.empty();
    }
    List<KeyValue> values = new ArrayList<>();
    add(values, "stream.chunks", stream.chunks());
    Duration firstChunk = stream.timeToFirstChunk();
    add(values, "stream.time_to_first_chunk_ms", firstChunk != null ? firstChunk.toMillis() : null);
    return KeyValues.of(values);
  }

  /** The GenAI attributes of the attempt's reported usage: names (low cardinality) or token counts (high). */
  private static KeyValues genAi(@Nullable AttemptRecord record, boolean counts) {
    ModelUsage usage = record != null ? record.usage() : null;
    if (usage == null) {
      return KeyValues.empty();
    }
    List<KeyValue> values = new ArrayList<>();
    if (counts) {
      add(values, "gen_ai.usage.input_tokens", usage.inputTokens());
      add(values, "gen_ai.usage.output_tokens", usage.outputTokens());
    } else {
      add(values, "gen_ai.provider.name", usage.provider());
      add(values, "gen_ai.request.model", usage.requestModel());
      add(values, "gen_ai.response.model", usage.responseModel());
    }
    return KeyValues.of(values);
  }

  private static void add(List<KeyValue> values, String key, @Nullable Object value) {
    if (value != null) {
      values.add(KeyValue.of(key, value.toString()));
    }
  }
}
