package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.DeadlineMode;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.OperationMode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for ZeoCore's bounded execution: named {@link io.zeocore.execution.ExecutionPolicy
 * ExecutionPolicies} and the shared configs they inherit from.
 *
 * <p>A policy takes every property it does not set from the config named by its {@code base-config}, or, when it
 * names none, from the config called {@code default} (when there is one). Configs inherit the same way, so chains
 * such as policy → {@code slow} → {@code default} work; a cycle or an unknown name stops start-up. Lists are
 * replaced, never merged. A bare number for a duration is milliseconds; write {@code 90s} or {@code 500ms}.
 *
 * @see ExecutionPolicies
 */
@ConfigurationProperties("zeocore.execution")
public class ZeoCoreExecutionProperties {

  /** Whether to enable ZeoCore's execution support (policies, runner and events). */
  private boolean enabled = true;

  /**
   * Whether the log MDC holds zeocore.execution.id, zeocore.policy, zeocore.target and zeocore.attempt while a
   * target is called (restored afterwards), so that log lines correlate with the run's events and observations.
   */
  private boolean logCorrelation = true;

  /**
   * Whether the RestClient.Builder and WebClient.Builder that Spring Boot makes bound every exchange made inside a
   * ZeoCore attempt by what is left of that attempt (exchanges outside attempts are left alone).
   */
  private boolean httpClientTimeouts = true;

  /**
   * Shared, partial policy settings by name. Policies (and other configs) that do not name a base-config inherit
   * from the config called "default".
   */
  private final Map<String, Policy> configs = new LinkedHashMap<>();

  /**
   * Execution policies by name; each becomes an entry of the ExecutionPolicies bean. The ids a policy plans must be
   * registered targets (checked at start-up) unless it sets targets: call-time.
   */
  private final Map<String, Policy> policies = new LinkedHashMap<>();

  /**
   * Per-target settings by target id (the id policies plan): when the target cools down. Targets not listed follow
   * target-health.default-cooldown.
   */
  private final Map<String, Target> targets = new LinkedHashMap<>();

  /** Target health: cooldowns on Retry-After and repeated failures, shared per JVM or through the store. */
  private final TargetHealthSettings targetHealth = new TargetHealthSettings();

  public Map<String, Target> getTargets() {
    return this.targets;
  }

  public TargetHealthSettings getTargetHealth() {
    return this.targetHealth;
  }

  public boolean isEnabled() {
    return this.enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public boolean isHttpClientTimeouts() {
    return this.httpClientTimeouts;
  }

  public void setHttpClientTimeouts(boolean httpClientTimeouts) {
    this.httpClientTimeouts = httpClientTimeouts;
  }

  public boolean isLogCorrelation() {
    return this.logCorrelation;
  }

  public void setLogCorrelation(boolean logCorrelation) {
    this.logCorrelation = logCorrelation;
  }

  public Map<String, Policy> getConfigs() {
    return this.configs;
  }

  public Map<String, Policy> getPolicies() {
    return this.policies;
  }

  /**
   * One policy or shared config. Every property is optional here: what a policy leaves unset comes from its base
   * config, then from the library's defaults; total-timeout, attempt-timeout and attempt-targets have no default.
   */
  public static class Policy {

    /**
     * Name of the entry under zeocore.execution.configs to inherit unset properties from. When unset, the config
     * called "default" is used if it exists.
     */
    private @Nullable String baseConfig;

    /**
     * Safety class of the work. Only read-only and advisory work runs in the runner; an effectful policy is refused
     * before any call (effects need the durable orchestrator). Default: read-only.
     */
    private @Nullable OperationMode operationMode;

    /** Budget of the whole run, including backoff waits. Must be greater than zero. */
    private @Nullable Duration totalTimeout;

    /**
     * Cap of each attempt. Must be greater than zero; each attempt gets the smaller of this and what is left of
     * total-timeout.
     */
    private @Nullable Duration attemptTimeout;

    /**
     * The ordered plan: the target ids to call, at most one call per entry. Repeat an id to retry the same target.
     */
    private @Nullable List<String> attemptTargets;

    /**
     * Where the planned targets come from. registered: every id of attempt-targets is a NamedTarget bean, a Spring AI
     * chat target or a subprocess provider, checked at start-up (an unknown id stops it, naming the nearest known
     * id). call-time: the targets are passed to each run (ZeoCoreExecutions.run(name, targets)), so the ids are not
     * checked at start-up. Default: registered.
     */
    private @Nullable TargetSource targets;

    /**
     * Delays after attempt 1, 2, and so on. At most one fewer than attempt-targets; missing entries mean no delay.
     * Set either this or exponential-backoff.
     */
    private @Nullable List<Duration> backoff;

    /**
     * Backoff written as a rule instead of a list: initial, multiplied by multiplier after each attempt, capped at
     * max. Expanded at start-up into the explicit backoff list, one delay per attempt transition (attempt-targets
     * size - 1), which the actuator shows. Set either this or backoff.
     */
    private @Nullable ExponentialBackoff exponentialBackoff;

    /** Random spread of each backoff delay, between 0 and 1: a delay d becomes a value in [d(1-f), d(1+f)]. */
    private @Nullable Double jitterFraction;

    /**
     * Failure kinds after which the next planned target may run. Default: timeout, transient, rate-limit.
     * malformed-response may be added; validation, authorization, authentication, cancelled and permanent can never
     * be retryable.
     */
    private @Nullable Set<FailureKind> retryableFailures;

    /** Whether simulated (test or scripted) targets may run under this policy. Default: false. */
    private @Nullable Boolean allowSimulated;

    /**
     * Whether this policy's runs call targets that are cooling down (a probe or health-check policy). Its attempts
     * still count towards cooldowns and an answer from a cooling target ends its cooldown. Default: false.
     */
    private @Nullable Boolean ignoreCooldowns;

    public @Nullable Boolean getIgnoreCooldowns() {
      return this.ignoreCooldowns;
    }

    public void setIgnoreCooldowns(@Nullable Boolean ignoreCooldowns) {
      this.ignoreCooldowns = ignoreCooldowns;
    }

    /** Longest slice of a backoff wait between two cancellation checks. Must be greater than zero. Default: 100ms. */
    private @Nullable Duration cancellationPoll;

    /**
     * How runs on the calling thread apply the attempt timeout. cooperative: the target must apply it itself (no
     * extra thread). enforced: the attempt runs on a worker (a virtual thread on Java 21+), the caller stops waiting
     * at the timeout, interrupts the worker and records a timeout; work that ignores interrupts is abandoned and may
     * still finish. Asynchronous runs are always enforced. Default: cooperative.
     */
    private @Nullable DeadlineMode deadline;

    /**
     * Failure kind of an exception a target throws, by fully qualified exception class name, for example
     * "java.io.IOException: transient". Subclasses match and the most specific class wins; the exception is tried
     * before its causes. It decides the kind (retryable-failures still decides retries); cancelled cannot be mapped.
     * Entries merge along the base-config chain, the nearer entry winning per class.
     */
    private final Map<String, String> failureKinds = new LinkedHashMap<>();

    /** What a run may spend, counted from what its targets report (Spring AI chat targets report tokens). */
    private final Budget budget = new Budget();

    /** Timeouts of a streamed run (ResilientRunner.runStream, PolicyChatModel.stream). */
    private final Stream stream = new Stream();

    public @Nullable String getBaseConfig() {
      return this.baseConfig;
    }

    public void setBaseConfig(@Nullable String baseConfig) {
      this.baseConfig = baseConfig;
    }

    public @Nullable OperationMode getOperationMode() {
      return this.operationMode;
    }

    public void setOperationMode(@Nullable OperationMode operationMode) {
      this.operationMode = operationMode;
    }

    public @Nullable Duration getTotalTimeout() {
      return this.totalTimeout;
    }

    public void setTotalTimeout(@Nullable Duration totalTimeout) {
      this.totalTimeout = totalTimeout;
    }

    public @Nullable Duration getAttemptTimeout() {
      return this.attemptTimeout;
    }

    public void setAttemptTimeout(@Nullable Duration attemptTimeout) {
      this.attemptTimeout = attemptTimeout;
    }

    public @Nullable List<String> getAttemptTargets() {
      return this.attemptTargets;
    }

    public void setAttemptTargets(@Nullable List<String> attemptTargets) {
      this.attemptTargets = attemptTargets;
    }

    public @Nullable TargetSource getTargets() {
      return this.targets;
    }

    public void setTargets(@Nullable TargetSource targets) {
      this.targets = targets;
    }

    public @Nullable List<Duration> getBackoff() {
      return this.backoff;
    }

    public void setBackoff(@Nullable List<Duration> backoff) {
      this.backoff = backoff;
    }

    public @Nullable ExponentialBackoff getExponentialBackoff() {
      return this.exponentialBackoff;
    }

    public void setExponentialBackoff(@Nullable ExponentialBackoff exponentialBackoff) {
      this.exponentialBackoff = exponentialBackoff;
    }

    public @Nullable Double getJitterFraction() {
      return this.jitterFraction;
    }

    public void setJitterFraction(@Nullable Double jitterFraction) {
      this.jitterFraction = jitterFraction;
    }

    public @Nullable Set<FailureKind> getRetryableFailures() {
      return this.retryableFailures;
    }

    public void setRetryableFailures(@Nullable Set<FailureKind> retryableFailures) {
      this.retryableFailures = retryableFailures;
    }

    public @Nullable Boolean getAllowSimulated() {
      return this.allowSimulated;
    }

    public void setAllowSimulated(@Nullable Boolean allowSimulated) {
      this.allowSimulated = allowSimulated;
    }

    public @Nullable Duration getCancellationPoll() {
      return this.cancellationPoll;
    }

    public void setCancellationPoll(@Nullable Duration cancellationPoll) {
      this.cancellationPoll = cancellationPoll;
    }

    public @Nullable DeadlineMode getDeadline() {
      return this.deadline;
    }

    public void setDeadline(@Nullable DeadlineMode deadline) {
      this.deadline = deadline;
    }

    public Map<String, String> getFailureKinds() {
      return this.failureKinds;
    }

    public Budget getBudget() {
      return this.budget;
    }

    public Stream getStream() {
      return this.stream;
    }
  }

  /**
   * The timeouts of a streamed run. Until its first chunk reaches the caller a streamed attempt may fail over to the next
   * planned target; after it, nothing is retried and a failure ends the stream (ZEO_EXEC_STREAM_INTERRUPTED).
   */
  public static class Stream {

    /**
     * How long each streamed attempt waits for its first chunk before it times out and the plan continues. Never more
     * than attempt-timeout nor what is left of total-timeout. Default: attempt-timeout.
     */
    private @Nullable Duration firstChunkTimeout;

    /**
     * Longest silence between two chunks once the first was delivered (counted only while the caller has asked for
     * more); then the stream ends interrupted. Default: attempt-timeout. The total-timeout bounds the whole stream.
     */
    private @Nullable Duration chunkIdleTimeout;

    public @Nullable Duration getFirstChunkTimeout() {
      return this.firstChunkTimeout;
    }

    public void setFirstChunkTimeout(@Nullable Duration firstChunkTimeout) {
      this.firstChunkTimeout = firstChunkTimeout;
    }

    public @Nullable Duration getChunkIdleTimeout() {
      return this.chunkIdleTimeout;
    }

    public void setChunkIdleTimeout(@Nullable Duration chunkIdleTimeout) {
      this.chunkIdleTimeout = chunkIdleTimeout;
    }
  }

  /** A run's budget. */
  public static class Budget {

    /**
     * Tokens a run may spend, input and output together, counted from what its attempts reported: once they reach it
     * no further attempt starts (exhausted, ZEO_EXEC_BUDGET_EXHAUSTED); a policy-backed ChatModel under a conversation
     * bound applies it across the conversation's model requests. Default: no budget.
     */
    private @Nullable Long maxTokens;

    public @Nullable Long getMaxTokens() {
      return this.maxTokens;
    }

    public void setMaxTokens(@Nullable Long maxTokens) {
      this.maxTokens = maxTokens;
    }
  }

  /**
   * A backoff rule: the delay after attempt n is initial x multiplier^(n-1), capped at max. For example initial 200ms,
   * multiplier 2, max 1s over five attempts is [200ms, 400ms, 800ms, 1s].
   */
  public static class ExponentialBackoff {

    /** Delay after the first attempt. Required; must be greater than zero. */
    private @Nullable Duration initial;

    /** Factor applied to each delay to get the next one. At least 1 (1 repeats initial). Default: 2. */
    private @Nullable Double multiplier;

    /** Longest delay; later delays stay at it. At least initial. Default: no cap. */
    private @Nullable Duration max;

    public @Nullable Duration getInitial() {
      return this.initial;
    }

    public void setInitial(@Nullable Duration initial) {
      this.initial = initial;
    }

    public @Nullable Double getMultiplier() {
      return this.multiplier;
    }

    public void setMultiplier(@Nullable Double multiplier) {
      this.multiplier = multiplier;
    }

    public @Nullable Duration getMax() {
      return this.max;
    }

    public void setMax(@Nullable Duration max) {
      this.max = max;
    }
  }

  /** Settings of one target. */
  public static class Target {

    /** When this target cools down; unset properties come from target-health.default-cooldown. */
    private final Cooldown cooldown = new Cooldown();

    public Cooldown getCooldown() {
      return this.cooldown;
    }
  }

  /**
   * When a target cools down: not called by any run (each skips it at once and falls back) until the cooldown ends and
   * one probe answers.
   */
  public static class Cooldown {

    /** Whether a rate_limit failure's Retry-After cools the target for that long (capped by max-retry-after). */
    private @Nullable Boolean honorRetryAfter;

    /** The longest cooldown a Retry-After may ask for. Must be greater than zero. Default: 1m. */
    private @Nullable Duration maxRetryAfter;

    /** Cooling after repeated failures within a window. */
    private final Failures failures = new Failures();

    public @Nullable Boolean getHonorRetryAfter() {
      return this.honorRetryAfter;
    }

    public void setHonorRetryAfter(@Nullable Boolean honorRetryAfter) {
      this.honorRetryAfter = honorRetryAfter;
    }

    public @Nullable Duration getMaxRetryAfter() {
      return this.maxRetryAfter;
    }

    public void setMaxRetryAfter(@Nullable Duration maxRetryAfter) {
      this.maxRetryAfter = maxRetryAfter;
    }

    public Failures getFailures() {
      return this.failures;
    }
  }

  /** Repeated failures that cool a target: threshold failures of the kinds within the window cool it for cool-for. */
  public static class Failures {

    /** How many failures within the window cool the target; 0 turns this rule off. Default: 0 (off). */
    private @Nullable Integer threshold;

    /** How far back failures count. Must be greater than zero. Default: 1m. */
    private @Nullable Duration window;

    /** How long the failures cool the target (and a failed probe, again). Must be greater than zero. Default: 30s. */
    private @Nullable Duration coolFor;

    /**
     * The failure kinds that count: timeout, transient, rate_limit, malformed_response. Default: timeout and
     * transient.
     */
    private @Nullable Set<FailureKind> kinds;

    public @Nullable Integer getThreshold() {
      return this.threshold;
    }

    public void setThreshold(@Nullable Integer threshold) {
      this.threshold = threshold;
    }

    public @Nullable Duration getWindow() {
      return this.window;
    }

    public void setWindow(@Nullable Duration window) {
      this.window = window;
    }

    public @Nullable Duration getCoolFor() {
      return this.coolFor;
    }

    public void setCoolFor(@Nullable Duration coolFor) {
      this.coolFor = coolFor;
    }

    public @Nullable Set<FailureKind> getKinds() {
      return this.kinds;
    }

    public void setKinds(@Nullable Set<FailureKind> kinds) {
      this.kinds = kinds;
    }
  }

  /** Target health as a whole. */
  public static class TargetHealthSettings {

    /** Whether runs skip targets that are cooling down. Default: true. */
    private boolean enabled = true;

    /**
     * Where cooldowns are shared. memory: this JVM. store: every instance on ZeoCore's store (the SQLite file or
     * PostgreSQL database of zeocore.connections.store), timed by the database's clock. Default: memory.
     */
    private TargetHealthSharing sharing = TargetHealthSharing.MEMORY;

    /**
     * With sharing: store, how often the store is read: the bound on how stale another instance's cooldown is here.
     * Default: 500ms.
     */
    private Duration refreshInterval = io.zeocore.execution.TargetHealth.DEFAULT_REFRESH_INTERVAL;

    /** How long a probe lease lasts if its holder never answers (it died); should cover one attempt. Default: 1m. */
    private Duration probeLease = io.zeocore.execution.TargetHealth.DEFAULT_PROBE_LEASE;

    /** This instance's id in probe leases. Default: the process id and a random suffix. */
    private @Nullable String instanceId;

    /** The rule of every target that has none under zeocore.execution.targets. */
    private final Cooldown defaultCooldown = new Cooldown();

    public boolean isEnabled() {
      return this.enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public TargetHealthSharing getSharing() {
      return this.sharing;
    }

    public void setSharing(TargetHealthSharing sharing) {
      this.sharing = sharing;
    }

    public Duration getRefreshInterval() {
      return this.refreshInterval;
    }

    public void setRefreshInterval(Duration refreshInterval) {
      this.refreshInterval = refreshInterval;
    }

    public Duration getProbeLease() {
      return this.probeLease;
    }

    public void setProbeLease(Duration probeLease) {
      this.probeLease = probeLease;
    }

    public @Nullable String getInstanceId() {
      return this.instanceId;
    }

    public void setInstanceId(@Nullable String instanceId) {
      this.instanceId = instanceId;
    }

    public Cooldown getDefaultCooldown() {
      return this.defaultCooldown;
    }
  }

  /** Where target cooldowns are shared. */
  public enum TargetHealthSharing {
    /** Within this JVM. */
    MEMORY,
    /** Through ZeoCore's store, with every instance that uses it. */
    STORE
  }
}
