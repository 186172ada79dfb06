package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.ZeoCoreExecutions;

/**
 * Customizes the auto-configured {@link ResilientRunner} before it is built: a clock, a scheduler for asynchronous
 * timeouts and backoff, workers for enforced deadlines, extra listeners, a jitter source. Declare one or more as
 * beans; they run in {@link org.springframework.core.Ordered order}, after ZeoCore has set the exception classifier
 * and added every {@link io.zeocore.execution.AttemptListener} bean, so a customizer sees and may adjust both.
 *
 * <p>The runner's events still reach Spring: {@link ZeoCoreExecutions} always runs with the
 * {@link ExecutionEventPublisher}.
 */
@FunctionalInterface
public interface ResilientRunnerCustomizer {

  /** Customizes the runner's builder. */
  void customize(ResilientRunner.Builder builder);
}
