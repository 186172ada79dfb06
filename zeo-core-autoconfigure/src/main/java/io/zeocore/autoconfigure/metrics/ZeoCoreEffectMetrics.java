package io.zeocore.autoconfigure.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.zeocore.autoconfigure.connections.EffectTransitionEvent;
import io.zeocore.autoconfigure.connections.RecoverySweptEvent;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.store.ConnectionStoreException;
import io.zeocore.connections.store.SessionPoolStats;
import io.zeocore.connections.store.StoreIntrospection;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
import org.jspecify.annotations.Nullable;
import org.springframework.context.event.EventListener;

/**
 * Micrometer meters of ZeoCore's effects:
 * <ul>
 *   <li>{@code zeocore.effects} (counter of committed transitions), tags {@code operation} (the operation id) and
 *       {@code state} (the state reached, lower case, e.g. {@code dispatch_started});</li>
 *   <li>{@code zeocore.effects.ambiguous} (gauge): effects currently {@code AMBIGUOUS} in the store, across
 *       organizations — the backlog recovery works on;</li>
 *   <li>{@code zeocore.effects.state} (gauge), tag {@code state} (lower case, one gauge per state): effects in each
 *       state in the store, across organizations;</li>
 *   <li>{@code zeocore.recovery.sweeps} (counter): recovery sweeps run;</li>
 *   <li>{@code zeocore.recovery.effects} (counter), tag {@code outcome}: what sweeps did with the executions they
 *       examined — {@code marked_ambiguous} (an orphaned dispatch presumed lost), {@code succeeded},
 *       {@code failed_safe}, {@code still_ambiguous} (reconciled without an answer), {@code not_due} (waiting for its
 *       backoff), {@code leased_elsewhere} (another sweeper had it), {@code failed} (an error, logged);</li>
 *   <li>for a store with a connection pool of its own (a PostgreSQL URL) the gauges
 *       {@code zeocore.store.sessions.active}, {@code .idle}, {@code .pending} (callers waiting for a connection)
 *       and {@code .max}, read from the pool without a query.</li>
 * </ul>
 * The gauges read one {@code GROUP BY state} query, at most once a second however many gauges are sampled
 * ({@code NaN} when the store cannot be read).
 */
public final class ZeoCoreEffectMetrics {

  /** Name of the transition counter. */
  public static final String EFFECTS = "zeocore.effects";
  /** Name of the ambiguous-effects gauge. */
  public static final String AMBIGUOUS = "zeocore.effects.ambiguous";
  /** Name of the per-state gauges. */
  public static final String STATES = "zeocore.effects.state";
  /** Name of the sweep counter. */
  public static final String SWEEPS = "zeocore.recovery.sweeps";
  /** Name of the counter of what sweeps did. */
  public static final String RECOVERED = "zeocore.recovery.effects";
  /** Prefix of the gauges of the store's own pool: {@code .active}, {@code .idle}, {@code .pending}, {@code .max}. */
  public static final String POOL = "zeocore.store.sessions";

  private static final long COUNTS_MAX_AGE_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final MeterRegistry registry;
  private final StoreIntrospection store;
  private @Nullable Map<EffectState, Long> counts;
  private long countsReadAt;

  public ZeoCoreEffectMetrics(MeterRegistry registry, StoreIntrospection store) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.store = Objects.requireNonNull(store, "store");
    Gauge.builder(AMBIGUOUS, this, metrics -> metrics.count(EffectState.AMBIGUOUS))
        .description("Effects whose outcome is unknown and awaits reconciliation")
        .strongReference(true)
        .register(registry);
    for (EffectState state : EffectState.values()) {
      Gauge.builder(STATES, this, metrics -> metrics.count(state))
          .description("Effects in each state in the store")
          .tag("state", state.name().toLowerCase(Locale.ROOT))
          .strongReference(true)
          .register(registry);
    }
    if (store.sessionPool().isPresent()) {
      poolGauge("active", "Store connections lent to an operation", SessionPoolStats::active);
      poolGauge("idle", "Store connections open and idle", SessionPoolStats::idle);
      poolGauge("pending", "Operations waiting for a store connection", SessionPoolStats::pending);
      poolGauge("max", "Most store connections the pool opens", SessionPoolStats::max);
    }
  }

  private void poolGauge(String name, String description, ToIntFunction<SessionPoolStats> value) {
    Gauge.builder(POOL + "." + name, store,
            introspection -> introspection.sessionPool().map(value::applyAsInt).map(Integer::doubleValue)
                .orElse(Double.NaN))
        .description(description)
        .strongReference(true)
        .register(registry);
  }

  /** Counts one recovery sweep and what it did. */
  @EventListener
  public void sweepFinished(RecoverySweptEvent event) {
    EffectRecovery.Sweep sweep = event.sweep();
    Counter.builder(SWEEPS).description("Recovery sweeps run").register(registry).increment();
    recovered("marked_ambiguous", sweep.markedAmbiguous());
    recovered("succeeded", sweep.succeeded());
    recovered("failed_safe", sweep.failedSafe());
    recovered("still_ambiguous", sweep.stillAmbiguous());
    recovered("not_due", sweep.notDue());
    recovered("leased_elsewhere", sweep.leasedElsewhere());
    recovered("failed", sweep.failures());
  }

  private void recovered(String outcome, int count) {
    Counter.builder(RECOVERED).description("Executions examined by recovery sweeps, by what became of them")
        .tag("outcome", outcome).register(registry).increment(count);
  }

  private synchronized double count(EffectState state) {
    long now = System.nanoTime();
    if (counts == null || now - countsReadAt > COUNTS_MAX_AGE_NANOS) {
      try {
        counts = store.effectCountsByState();
      } catch (ConnectionStoreException unreadable) {
        counts = null;
        return Double.NaN;
      }
      countsReadAt = now;
    }
    return counts.getOrDefault(state, 0L);
  }

  /** Counts one committed transition. */
  @EventListener
  public void transitionRecorded(EffectTransitionEvent event) {
    EffectRecord effect = event.effect();
    Counter.builder(EFFECTS)
        .description("Committed effect transitions, by operation and state reached")
        .tag("operation", effect.operationId().value())
        .tag("state", effect.state().name().toLowerCase(Locale.ROOT))
        .register(registry)
        .increment();
  }
}
