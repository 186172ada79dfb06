package io.zeocore.springai;

import io.zeocore.execution.ExecutionFailedException;
import io.zeocore.execution.ExecutionMode;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.ResilientExecutionResult;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One conversation's bounds — a deadline, a number of model requests and the policy's token budget — bound to the
 * thread that runs it, which every {@link PolicyChatModel} request inside it is admitted against. Opened by
 * {@link ConversationBoundAdvisor} around a {@code ChatClient} call (or by {@link #within} around any code); it needs
 * no {@code ChatClient} on the class path.
 */
public final class Conversation {

  /** The machine code of a request refused because the conversation's model requests are spent. */
  public static final String LIMIT_REACHED = "ZEO_EXEC_CONVERSATION_LIMIT";

  private static final ThreadLocal<Conversation> CURRENT = new ThreadLocal<>();

  private final long deadlineNanos;
  private final int maxRequests;
  private final long startNanos = System.nanoTime();
  private int requests;
  private long tokens;

  private Conversation(long deadlineNanos, int maxRequests) {
    this.deadlineNanos = deadlineNanos;
    this.maxRequests = maxRequests;
  }

  /**
   * Runs {@code work} as one conversation of at most {@code deadline} and {@code maxModelRequests} policy-backed model
   * requests, bound to this thread (an outer conversation is restored afterwards).
   */
  public static <T> T within(Duration deadline, int maxModelRequests, Supplier<T> work) {
    requireBounds(deadline, maxModelRequests);
    Conversation outer = CURRENT.get();
    CURRENT.set(new Conversation(System.nanoTime() + deadline.toNanos(), maxModelRequests));
    try {
      return work.get();
    } finally {
      if (outer == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(outer);
      }
    }
  }
  /** @throws IllegalArgumentException unless {@code deadline} is positive and {@code maxModelRequests} at least 1 */
  static void requireBounds(Duration deadline, int maxModelRequests) {
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("deadline must be positive");
    }
    if (maxModelRequests < 1) {
      throw new IllegalArgumentException("maxModelRequests must be at least 1");
    }
  }

  /**
   * {@code policy} admitted to the conversation bound to this thread, if any: one more model request counted and the
   * total timeout cut to what is left.
   *
   * @throws ExecutionFailedException when the conversation has no request or no time left
   */
  static ExecutionPolicy admitted(ExecutionPolicy policy) {
    Conversation conversation = CURRENT.get();
    return conversation == null ? policy : conversation.admit(policy);
  }

  /** Adds the tokens one admitted request's run reported to the conversation bound to this thread, if any. */
  static void spent(long tokens) {
    Conversation conversation = CURRENT.get();
    if (conversation != null) {
      conversation.tokens += tokens;
    }
  }

  /** Admits one request: counted, checked, its policy cut to what is left. */
  private ExecutionPolicy admit(ExecutionPolicy policy) {
    long now = System.nanoTime();
    if (requests >= maxRequests) {
      throw refused(policy, null, LIMIT_REACHED, now);
    }
    long left = deadlineNanos - now;
    if (left <= 0) {
      throw refused(policy, FailureKind.TIMEOUT, MachineCodes.TIMEOUT, now);
    }
    Long budget = policy.maxTokens();
    if (budget != null && tokens >= budget) {
      throw refused(policy, null, MachineCodes.BUDGET_EXHAUSTED, now);
    }
    requests++;
    Duration remaining = Duration.ofNanos(left);
    boolean cutTime = remaining.compareTo(policy.totalTimeout()) < 0;
    if (!cutTime && (budget == null || tokens == 0)) {
      return policy;
    }
    ExecutionPolicy.Builder admitted = policy.toBuilder();
    if (cutTime) {
      admitted.totalTimeout(remaining);
    }
    if (budget != null) {
      admitted.maxTokens(budget - tokens);
    }
    return admitted.build();
  }

  // javac keeps no type-use annotations on a record's compact constructor parameters in the class file, so NullAway
  // reads ResilientExecutionResult's canonical constructor as taking no nulls; its components say which may be null
  @SuppressWarnings("NullAway")
  private ExecutionFailedException refused(ExecutionPolicy policy, @Nullable FailureKind kind, String code,
      long now) {
    return new ExecutionFailedException(policy.name(), new ResilientExecutionResult<>(ExecutionOutcome.EXHAUSTED,
        null, List.of(), null, ExecutionMode.NONE, kind, code, Duration.ofNanos(now - startNanos), null));
  }
}
