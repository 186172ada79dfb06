package io.zeocore.subprocess;

import io.zeocore.execution.AttemptContext;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.internal.SaturatingDurations;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt of a subprocess target: resolve the invocation, check the executable, spawn, wait under the deadline,
 * stop the tree when needed, classify, parse. See {@link SubprocessTargets} for the contract.
 */
final class SubprocessCall<T> implements SyncExecutionTarget.Invocation<T> {

  private static final Logger log = LoggerFactory.getLogger(SubprocessCall.class);

  /** Keeps {@code start + timeout} far from overflow for absurdly long timeouts. */
  private final String targetId;
  private final Function<AttemptContext, SubprocessInvocation> invocations;
  private final Class<T> responseType;
  private final StdoutParser<T> parser;
  private final ProcessContainment containment;

  SubprocessCall(String targetId, Function<AttemptContext, SubprocessInvocation> invocations, Class<T> responseType,
      StdoutParser<T> parser, ProcessContainment containment) {
    this.targetId = targetId;
    this.invocations = invocations;
    this.responseType = responseType;
    this.parser = parser;
    this.containment = containment;
  }

  @Override
  public T invoke(AttemptContext context) throws InterruptedException {
    if (context.cancellation().isCancelled()) {
      throw new AttemptError(FailureKind.CANCELLED, false);
    }
    SubprocessInvocation invocation = resolve(context);
    Optional<String> unusable = ExecutableFormat.problem(Path.of(invocation.argv().get(0)));
    if (unusable.isPresent()) {
      throw preDispatch(new IllegalArgumentException(unusable.get()));
    }
    long timeoutNanos = SaturatingDurations.toNanos(context.timeout());
    long deadline = System.nanoTime() + timeoutNanos;
    ChildProcess child = spawn(invocation);
    ChildProcess.Ending ending = null;
    try {
      ending = child.await(deadline, context.cancellation());
      if (ending != ChildProcess.Ending.EXITED) {
        child.terminate();
      }
    } finally {
      if (ending == null) {
        child.terminate(); // interrupted, or a failing cancellation token: never leave the tree behind
      }
      child.release();
    }
    return conclude(context, invocation, child, ending);
  }

  private SubprocessInvocation resolve(AttemptContext context) {
    SubprocessInvocation invocation;
    try {
      invocation = invocations.apply(context);
    } catch (RuntimeException factoryFailed) {
      throw preDispatch(factoryFailed);
    }
    if (invocation == null) {
      throw preDispatch(new IllegalArgumentException("the invocation factory returned null"));
    }
    return invocation;
  }

  private ChildProcess spawn(SubprocessInvocation invocation) {
    ProcessBuilder builder = new ProcessBuilder(containment.command(invocation.argv()));
    builder.environment().clear();
    builder.environment().putAll(invocation.environment());
    if (invocation.workingDirectory() != null) {
      builder.directory(invocation.workingDirectory().toFile());
    }
    try {
      return ChildProcess.start(builder, invocation, containment);
    } catch (IOException | RuntimeException spawnFailed) {
      // The JDK's message names the program and directory only; no input or environment value.
      throw preDispatch(spawnFailed);
    }
  }

  private T conclude(AttemptContext context, SubprocessInvocation invocation, ChildProcess child,
      ChildProcess.Ending ending) {
    switch (ending) {
      case TIMED_OUT:
        throw failed(context, FailureKind.TIMEOUT);
      case CANCELLED:
        throw failed(context, FailureKind.CANCELLED);
      case OUTPUT_OVERFLOW:
        throw failed(context, FailureKind.MALFORMED_RESPONSE);
      case OUTPUT_UNREADABLE:
        throw failed(context, FailureKind.PERMANENT);
      case EXITED:
        break;
      default:
        throw new IllegalStateException("unknown ending " + ending);
    }
    int exitCode = child.exitCode();
    if (exitCode != 0) {
      throw failed(context, invocation.failureKindOfExitCode(exitCode));
    }
    T value;
    try {
      value = parser.parse(child.stdoutBytes());
    } catch (Exception parseFailed) {
      // Dropped on purpose: parser messages quote stdout.
      throw failed(context, FailureKind.MALFORMED_RESPONSE);
    }
    if (!responseType.isInstance(value)) {
      throw failed(context, FailureKind.MALFORMED_RESPONSE);
    }
    return value;
  }

  private AttemptError failed(AttemptContext context, FailureKind kind) {
    if (log.isDebugEnabled()) {
      log.debug("subprocess target {} attempt {} failed: {}", targetId, context.attemptNumber(), kind.wireValue());
    }
    return new AttemptError(kind, true);
  }

  private AttemptError preDispatch(Exception cause) {
    if (log.isDebugEnabled()) {
      log.debug("subprocess target {} failed before dispatch: {}", targetId, cause.getClass().getSimpleName());
    }
    return new AttemptError(FailureKind.PERMANENT, false, null, cause);
  }

}
