package io.zeocore.springai;

import io.zeocore.execution.ExecutionFailedException;
import java.time.Duration;
import java.util.Objects;
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
 * provider and throws {@link ExecutionFailedException}: outcome {@code EXHAUSTED}, with {@value Conversation#LIMIT_REACHED} once
 * the requests are spent, or failure kind {@code TIMEOUT} ({@code ZEO_EXEC_TIMEOUT}) once the deadline has passed.
 *
 * <p>The conversation also keeps the policy's token budget ({@code ExecutionPolicy.maxTokens}) across its model
 * requests: the tokens every request reported are added up, a request is admitted only while they are below the
 * budget ({@code ZEO_EXEC_BUDGET_EXHAUSTED} otherwise), and its run gets what is left of the budget.
 *
 * <p>The conversation ({@link Conversation}) is bound to the calling thread while the call runs (a {@code ChatClient}
 * call runs its advisors and model on the caller's thread); models other than {@link PolicyChatModel} are not bounded
 * by it.
 */
public final class ConversationBoundAdvisor implements CallAdvisor {

  /** Outside the tool-calling advisor's loop, inside memory advisors at their default order. */
  public static final int DEFAULT_ORDER = ToolCallingAdvisor.DEFAULT_ORDER - 50;

  private final Duration deadline;
  private final int maxModelRequests;
  private final int order;

  private ConversationBoundAdvisor(Duration deadline, int maxModelRequests, int order) {
    Conversation.requireBounds(deadline, maxModelRequests);
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
    return Conversation.within(deadline, maxModelRequests, () -> chain.nextCall(request));
  }

  @Override
  public String getName() {
    return "ZeoCore conversation bound";
  }

  @Override
  public int getOrder() {
    return order;
  }
}
