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
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;

/**
 * One bound over a whole {@code ChatClient} call, its tool loop included: a deadline for the conversation and a
 * maximum number of model requests. Ordered outside the tool-calling advisor (and inside memory advisors), it opens a
 * conversation for the duration of the call; every {@link PolicyChatModel} request inside it — the first one and each
 * one the tool loop makes after running tools — is admitted only while the conversation has requests and time left,
 * and its run's total timeout is cut to what is left of the conversation. Past either bound the request calls no
 * provider and throws {@link ExecutionFailedException}: outcome {@code EXHAUSTED}, with {@value #LIMIT_REACHED} once
 * the requests are spent, or failure kind {@code TIMEOUT} ({@code ZEO_EXEC_TIMEOUT}) once the deadline has passed.
 *
 * <p>The conversation also keeps the policy's token budget ({@code ExecutionPolicy.maxTokens}) across its model
 * requests: the tokens every request reported are added up, a request is admitted only while they are below the
 * budget ({@code ZEO_EXEC_BUDGET_EXHAUSTED} otherwise), and its run gets what is left of the budget.
 *
 * <p>The conversation is bound to the calling thread while the call runs (a {@code ChatClient} call runs its advisors
 * and model on the caller's thread); models other than {@link PolicyChatModel} are not bounded by it.
 */
public final class ConversationBoundAdvisor implements CallAdvisor {

  /** The machine code of a request refused because the conversation's model requests are spent. */
  public static final String LIMIT_REACHED = "ZEO_EXEC_CONVERSATION_LIMIT";

  /** Outside the tool-calling advisor's loop, inside memory advisors at their default order. */
  public static final int DEFAULT_ORDER = ToolCallingAdvisor.DEFAULT_ORDER - 50;

  private static final ThreadLocal<Conversation> CURRENT = new ThreadLocal<>();

  private final Duration deadline;
  private final int maxModelRequests;
  private final int order;

  private ConversationBoundAdvisor(Duration deadline, int maxModelRequests, int order) {
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("deadline must be positive");
    }
    if (maxModelRequests < 1) {
      throw new IllegalArgumentException("maxModelRequests must be at least 1");
    }
    this.deadline = deadline;
    this.maxModelRequests = maxModelRequests;
    this.order = order;
  }

  /**
   * A bound of {@code deadline} over the whole call and at most {@code maxModelRequests} model requests, at
   * {@link #DEFAULT_ORDER}.
   */
  public static ConversationBoundAdvisor of(Duration deadline, int maxModelRequests) {
    return new ConversationBoundAdvisor(Objects.requireNonNull(deadline, "deadline"), maxModelRequests,
        DEFAULT_ORDER);
  }

  /** This bound at another advisor order. */
  public ConversationBoundAdvisor withOrder(int order) {
    return new ConversationBoundAdvisor(deadline, maxModelRequests, order);
  }

  @Override
  public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
    Conversation outer = CURRENT.get();
    CURRENT.set(new Conversation(System.nanoTime() + deadline.toNanos(), maxModelRequests));
    try {
      return chain.nextCall(request);
    } finally {
      if (outer == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(outer);
      }
    }
  }

  @Override
  public String getName() {
    return "ZeoCore conversation bound";
  }

  @Override
  public int getOrder() {
    return order;
  }

  /**
   * {@code policy} admitted to the conversation bound to this thread, if any: one more model request counted and the
   * total timeout cut to what is left.
   *
   * @throws ExecutionFailedException when the conversation has no request or no time left
   */
  static ExecutionPolicy admit(ExecutionPolicy policy) {
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

  /** One {@code ChatClient} call's bound: its requests are counted on the one thread that runs it. */
  private static final class Conversation {

    private final long deadlineNanos;
    private final int maxRequests;
    private final long startNanos = System.nanoTime();
    private int requests;
    private long tokens;

    Conversation(long deadlineNanos, int maxRequests) {
      this.deadlineNanos = deadlineNanos;
      this.maxRequests = maxRequests;
    }

    ExecutionPolicy admit(ExecutionPolicy policy) {
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

    private ExecutionFailedException refused(ExecutionPolicy policy, @Nullable FailureKind kind, String code,
        long now) {
      return new ExecutionFailedException(policy.name(), new ResilientExecutionResult<>(ExecutionOutcome.EXHAUSTED,
          null, List.of(), null, ExecutionMode.NONE, kind, code, Duration.ofNanos(now - startNanos), null));
    }
  }
}
