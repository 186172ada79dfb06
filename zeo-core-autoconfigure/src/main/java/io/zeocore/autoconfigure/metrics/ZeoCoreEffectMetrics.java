package io.zeocore.autoconfigure.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.zeocore.autoconfigure.connections.EffectTransitionEvent;
import io.zeocore.connections.store.ConnectionStoreException;
import io.zeocore.connections.contract.EffectExecution;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.store.StoreIntrospection;
import java.util.Locale;
import java.util.Objects;
import org.springframework.context.event.EventListener;

/**
 * Micrometer meters of ZeoCore's effects:
 * <ul>
 *   <li>{@code zeocore.effects} (counter of committed transitions), tags {@code operation} (the operation id) and
 *       {@code state} (the state reached, lower case, e.g. {@code dispatch_started});</li>
 *   <li>{@code zeocore.effects.ambiguous} (gauge): effects currently {@code AMBIGUOUS} in the store, across
 *       organizations, read from the database when the gauge is sampled ({@code NaN} when it cannot be read).</li>
 * </ul>
 */
public final class ZeoCoreEffectMetrics {

  /** Name of the transition counter. */
  public static final String EFFECTS = "zeocore.effects";
  /** Name of the ambiguous-effects gauge. */
  public static final String AMBIGUOUS = "zeocore.effects.ambiguous";

  private final MeterRegistry registry;

  public ZeoCoreEffectMetrics(MeterRegistry registry, StoreIntrospection store) {
    this.registry = Objects.requireNonNull(registry, "registry");
    Gauge.builder(AMBIGUOUS, store, ZeoCoreEffectMetrics::ambiguous)
        .description("Effects whose outcome is unknown and awaits reconciliation")
        .strongReference(true)
        .register(registry);
  }

  /** Counts one committed transition. */
  @EventListener
  public void transitionRecorded(EffectTransitionEvent event) {
    EffectExecution execution = event.execution();
    Counter.builder(EFFECTS)
        .description("Committed effect transitions, by operation and state reached")
        .tag("operation", execution.operationId().value())
        .tag("state", execution.state().name().toLowerCase(Locale.ROOT))
        .register(registry)
        .increment();
  }

  private static double ambiguous(StoreIntrospection store) {
    try {
      return store.executionCountsByState().getOrDefault(EffectState.AMBIGUOUS, 0L);
    } catch (ConnectionStoreException unreadable) {
      return Double.NaN;
    }
  }
}
