package io.zeocore.execution;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A classified attempt failure: only the normalized fields and, for the DEBUG log line, the class of what was thrown;
 * never the exception's text.
 *
 * @param retryAfter the provider's Retry-After, or {@code null}
 * @param thrownType the class of the exception the target threw, {@code null} when nothing was thrown (a wrong value
 *     type, an enforced timeout)
 * @param ownCode a machine code other than the kind's ({@link MachineCodes#NOT_STARTED}), or {@code null}
 */
record Failure(FailureKind kind, boolean dispatchStarted, @Nullable Duration retryAfter, @Nullable Class<?> thrownType,
    @Nullable String ownCode) {

  private static final Logger log = LoggerFactory.getLogger(ResilientRunner.class);

  /**
   * An enforced attempt whose target was never called: no worker could take it before its deadline, or its target
   * already holds the most abandoned workers allowed. {@code TRANSIENT} (another target, or a later attempt, may
   * run), nothing dispatched, {@link MachineCodes#NOT_STARTED}.
   */
  static final Failure NOT_STARTED = new Failure(FailureKind.TRANSIENT, false, null, null, MachineCodes.NOT_STARTED);

  Failure(FailureKind kind, boolean dispatchStarted, @Nullable Duration retryAfter, @Nullable Class<?> thrownType) {
    this(kind, dispatchStarted, retryAfter, thrownType, null);
  }

  static Failure of(FailureKind kind) {
    return new Failure(kind, true, null, null);
  }

  /** The attempt's machine code: its own when it has one ({@link #NOT_STARTED}), else its kind's. */
  String machineCode() {
    return ownCode != null ? ownCode : kind.machineCode();
  }

  /**
   * Classifies what a target threw (reading {@code hostCancelled} only when it matters), in this order: an {@link AttemptError} keeps its fields; a
   * {@link CancellationException} or {@link InterruptedException} while the host has cancelled the run is
   * {@code CANCELLED}; the policy's {@link ExecutionPolicy#failureKinds()} choose the kind (with dispatch and
   * Retry-After from {@code classifier} when it has an opinion); then {@code classifier}; then {@code PERMANENT}. A
   * {@code CANCELLED} classification while the host has not cancelled becomes {@code PERMANENT}.
   */
  static Failure classify(Throwable thrown, ExecutionPolicy policy, ExceptionClassifier classifier,
      BooleanSupplier hostCancelled) {
    Throwable error = unwrap(thrown);
    Class<?> type = error.getClass();
    if (error instanceof InjectedFault injected) {
      return new Failure(injected.kind(), false, injected.retryAfter().orElse(null), type, MachineCodes.FAULT_INJECTED);
    }
    if (error instanceof AttemptError attemptError) {
      return new Failure(attemptError.kind(), attemptError.dispatchStarted(), attemptError.retryAfter().orElse(null),
          type);
    }
    if ((error instanceof CancellationException || error instanceof InterruptedException)
        && hostCancelled.getAsBoolean()) {
      return new Failure(FailureKind.CANCELLED, true, null, type);
    }
    FailureClassification base;
    try {
      base = classifier.classify(error);
    } catch (RuntimeException classifierFailure) {
      log.warn("ExceptionClassifier {} threw {}; the attempt is classified without it",
          classifier.getClass().getName(), classifierFailure.getClass().getName());
      base = null;
    }
    FailureKind mapped = ExceptionTypes.find(policy.failureKinds(), error);
    if (mapped != null) {
      return new Failure(mapped, base == null || base.dispatchStarted(), base != null ? base.retryAfter() : null, type);
    }
    if (base == null) {
      return new Failure(FailureKind.PERMANENT, true, null, type);
    }
    FailureKind kind = base.kind() == FailureKind.CANCELLED && !hostCancelled.getAsBoolean() ? FailureKind.PERMANENT : base.kind();
    return new Failure(kind, base.dispatchStarted(), base.retryAfter(), type);
  }

  /** Strips the wrappers that futures put around a target's own exception. */
  static Throwable unwrap(Throwable thrown) {
    Throwable error = thrown;
    while ((error instanceof CompletionException || error instanceof ExecutionException) && error.getCause() != null) {
      error = error.getCause();
    }
    return error;
  }
}
