package io.zeocore.autoconfigure.execution;

import io.zeocore.autoconfigure.execution.ZeoCoreExecutionProperties.Cooldown;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionProperties.Failures;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionProperties.TargetHealthSettings;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionProperties.TargetHealthSharing;
import io.zeocore.autoconfigure.internal.Suggestions;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MonotonicClock;
import io.zeocore.execution.TargetCooldown;
import io.zeocore.execution.TargetHealth;
import io.zeocore.execution.TargetHealthStore;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Builds the {@link TargetHealth} bean from {@code zeocore.execution.target-health.*} and
 * {@code zeocore.execution.targets.<id>.cooldown.*}: each broken value stops start-up with an
 * {@link InvalidExecutionPolicyPropertyException} naming its property, as written and where, and the rule.
 */
final class TargetHealthConfiguration {

  static final String TARGET_HEALTH = "zeocore.execution.target-health.";
  static final String TARGETS = "zeocore.execution.targets.";

  private TargetHealthConfiguration() {}

  /**
   * @param known every target id the application plans or registers: a cooldown for any other id is a mistake
   * @param store the store to share through, or {@code null} when the application has none
   * @param clock the runner's clock
   */
  static TargetHealth create(ZeoCoreExecutionProperties properties, ConfiguredValues written, Set<String> known,
      @Nullable TargetHealthStore store, MonotonicClock clock, ApplicationEventPublisher events) {
    TargetHealthSettings settings = properties.getTargetHealth();
    TargetCooldown defaults = cooldown(TARGET_HEALTH + "default-cooldown.", settings.getDefaultCooldown(),
        TargetCooldown.DEFAULT, written);
    TargetHealth.Builder health = TargetHealth.builder().clock(clock).defaultCooldown(defaults)
        .refreshInterval(positive(TARGET_HEALTH + "refresh-interval", settings.getRefreshInterval(), written))
        .probeLease(positive(TARGET_HEALTH + "probe-lease", settings.getProbeLease(), written))
        .listener(change -> events.publishEvent(new TargetHealthChangedEvent(change)));
    for (Map.Entry<String, ZeoCoreExecutionProperties.Target> target : properties.getTargets().entrySet()) {
      String id = target.getKey();
      if (!known.contains(id)) {
        String nearest = Suggestions.nearest(id, known);
        throw invalid(TARGETS + id, written, "no policy plans and no registered target has the id '" + id + "'"
            + (nearest != null ? "; did you mean '" + nearest + "'?" : "") + " (known: "
            + (known.isEmpty() ? "none" : String.join(", ", known)) + ")");
      }
      health.cooldown(id, cooldown(TARGETS + id + ".cooldown.", target.getValue().getCooldown(), defaults, written));
    }
    String instanceId = settings.getInstanceId();
    if (instanceId != null) {
      if (instanceId.isBlank()) {
        throw invalid(TARGET_HEALTH + "instance-id", written, "instance-id must not be blank");
      }
      health.instanceId(instanceId);
    }
    if (settings.getSharing() == TargetHealthSharing.STORE) {
      if (store == null) {
        throw invalid(TARGET_HEALTH + "sharing", written, "sharing: store needs ZeoCore's store: add "
            + "io.zeocore:zeo-connections and configure zeocore.connections.store (the embedded SQLite file works on "
            + "one machine, PostgreSQL across machines), or use sharing: memory");
      }
      health.store(store);
    }
    return health.build();
  }

  /** {@code cooldown}'s settings over {@code base}, each checked under {@code prefix}. */
  private static TargetCooldown cooldown(String prefix, Cooldown cooldown, TargetCooldown base,
      ConfiguredValues written) {
    Duration maxRetryAfter = base.maxRetryAfter();
    if (cooldown.getMaxRetryAfter() != null) {
      maxRetryAfter = positive(prefix + "max-retry-after", cooldown.getMaxRetryAfter(), written);
    }
    Boolean honor = cooldown.getHonorRetryAfter();
    if (Boolean.FALSE.equals(honor)) {
      maxRetryAfter = null;
    } else if (Boolean.TRUE.equals(honor) && maxRetryAfter == null) {
      maxRetryAfter = TargetCooldown.DEFAULT_MAX_RETRY_AFTER;
    }
    Failures failures = cooldown.getFailures();
    int threshold = base.failureThreshold();
    if (failures.getThreshold() != null) {
      threshold = failures.getThreshold();
      if (threshold < 0) {
        throw invalid(prefix + "failures.threshold", written, "threshold must be 0 (off) or more");
      }
    }
    Duration window = failures.getWindow() != null
        ? positive(prefix + "failures.window", failures.getWindow(), written) : base.failureWindow();
    Duration coolFor = failures.getCoolFor() != null
        ? positive(prefix + "failures.cool-for", failures.getCoolFor(), written) : base.failureCooldown();
    Set<FailureKind> kinds = failures.getKinds() != null ? failures.getKinds() : base.failureKinds();
    Set<FailureKind> refused = kinds.stream().filter(kind -> !TargetCooldown.COUNTABLE_KINDS.contains(kind))
        .collect(Collectors.toSet());
    if (!refused.isEmpty() || (threshold > 0 && kinds.isEmpty())) {
      throw invalid(prefix + "failures.kinds", written, "kinds must be among timeout, transient, rate_limit and "
          + "malformed_response (the others say nothing about the target's health: the request, its credentials "
          + "or the caller failed)");
    }
    return new TargetCooldown(maxRetryAfter, threshold, kinds, window, coolFor);
  }

  private static Duration positive(String property, Duration value, ConfiguredValues written) {
    if (value.isZero() || value.isNegative()) {
      throw invalid(property, written, property.substring(property.lastIndexOf('.') + 1)
          + " must be greater than 0");
    }
    return value;
  }

  private static InvalidExecutionPolicyPropertyException invalid(String property, ConfiguredValues written,
      String rule) {
    ConfiguredValues.Written value = written.find(property);
    return new InvalidExecutionPolicyPropertyException(null, property, value.value(), value.origin(), rule);
  }
}
