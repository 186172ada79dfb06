package io.zeocore.autoconfigure.connections;

import io.zeocore.connections.effect.EffectRecovery;
import java.time.Duration;
import java.util.Objects;
import org.springframework.context.SmartLifecycle;

/**
 * Runs {@link EffectRecovery} with the application: a sweep when the context starts, then one every
 * {@code interval} on recovery's own daemon thread; the sweeps stop (a running one finishes) when the context stops.
 */
public final class EffectRecoveryLifecycle implements SmartLifecycle {

  private final EffectRecovery recovery;
  private final Duration interval;
  private volatile boolean running;

  public EffectRecoveryLifecycle(EffectRecovery recovery, Duration interval) {
    this.recovery = Objects.requireNonNull(recovery, "recovery");
    this.interval = Objects.requireNonNull(interval, "interval");
  }

  @Override
  public void start() {
    recovery.start(interval);
    running = true;
  }

  @Override
  public void stop() {
    running = false;
    recovery.close();
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
