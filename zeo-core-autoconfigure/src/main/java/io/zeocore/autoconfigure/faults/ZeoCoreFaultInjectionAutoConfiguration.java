package io.zeocore.autoconfigure.faults;

import io.zeocore.autoconfigure.execution.InvalidExecutionPolicyPropertyException;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.autoconfigure.faults.ZeoCoreFaultsProperties.TargetFault;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.OperationMode;
import io.zeocore.execution.ResilientRunner;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.env.Profiles;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of fault injection, for
 * exercising an application's plans in a staging environment: switched on only by {@code zeocore.faults.enabled=true},
 * and then start-up refuses it unless {@code zeocore.faults.profile} names an active profile, every faulted id is a
 * registered target, each fault is well-formed, and no policy that plans a faulted target is effectful. Injected
 * failures are recorded as {@code ZEO_EXEC_FAULT_INJECTED} with their kind and {@code dispatchStarted=false}, published
 * as {@link FaultInjectedEvent}s, metered ({@code zeocore.faults.injected}, and {@code injected=true} on
 * {@code zeocore.execution.attempts}) and never counted towards target cooldowns; effects are never faulted.
 */
@AutoConfiguration(before = ZeoCoreExecutionAutoConfiguration.class)
@ConditionalOnClass(ResilientRunner.class)
@ConditionalOnBooleanProperty(name = "zeocore.faults.enabled")
public final class ZeoCoreFaultInjectionAutoConfiguration {

  static final String PREFIX = "zeocore.faults.";

  /** The wrapper of the target registry; its settings are checked as it is made, before any target exists. */
  @Bean
  static FaultInjectingTargets zeoCoreFaultInjectingTargets(Environment environment) {
    ZeoCoreFaultsProperties faults = Binder.get(environment).bind("zeocore.faults", ZeoCoreFaultsProperties.class)
        .orElseGet(ZeoCoreFaultsProperties::new);
    String profile = faults.getProfile();
    if (profile == null || profile.isBlank()) {
      throw invalid(PREFIX + "profile", null, "fault injection needs the profile it is meant for (typically "
          + "staging): set zeocore.faults.profile, and activate that profile where faults may be injected");
    }
    if (!environment.acceptsProfiles(Profiles.of(profile))) {
      throw invalid(PREFIX + "profile", profile, "the profile '" + profile + "' is not active (active: "
          + String.join(", ", environment.getActiveProfiles()) + "): fault injection stays off outside it, so "
          + "start-up stops instead of running without the faults you asked for or with them where you did not");
    }
    for (Map.Entry<String, TargetFault> entry : faults.getTargets().entrySet()) {
      check(entry.getKey(), entry.getValue());
    }
    return new FaultInjectingTargets(faults.getTargets());
  }

  private static void check(String id, TargetFault fault) {
    String prefix = PREFIX + "targets." + id + ".";
    if (!(fault.getRate() > 0 && fault.getRate() <= 1)) {
      throw invalid(prefix + "rate", String.valueOf(fault.getRate()), "rate must be more than 0 and at most 1");
    }
    if (fault.getKind() == FailureKind.CANCELLED) {
      throw invalid(prefix + "kind", "cancelled", "cancelled is the host's and cannot be injected");
    }
    if (fault.getLatency() != null && fault.getLatency().isNegative()) {
      throw invalid(prefix + "latency", fault.getLatency().toString(), "latency cannot be negative");
    }
    if (fault.getRetryAfter() != null && fault.getKind() != FailureKind.RATE_LIMIT) {
      throw invalid(prefix + "retry-after", fault.getRetryAfter().toString(), "retry-after goes with kind: rate_limit");
    }
    int chosen = (fault.getKind() != null ? 1 : 0) + (fault.isHang() ? 1 : 0) + (fault.getLatency() != null ? 1 : 0);
    if (chosen != 1) {
      throw invalid(prefix + "kind", fault.getKind() != null ? fault.getKind().wireValue() : null,
          "each target gets one fault: a kind, hang: true or a latency");
    }
  }

  /** Refuses a faulted target that an effectful policy plans (a policies bean of the application's may hold one). */
  @Bean
  static SmartInitializingSingleton zeoCoreFaultInjectionPolicyCheck(ObjectProvider<ExecutionPolicies> policies,
      FaultInjectingTargets faults) {
    return () -> {
      ExecutionPolicies all = policies.getIfAvailable(ExecutionPolicies::empty);
      for (ExecutionPolicy policy : all.asMap().values()) {
        if (policy.operationMode() != OperationMode.EFFECTFUL) {
          continue;
        }
        for (String id : policy.attemptTargets()) {
          if (faults.faultedIds().contains(id)) {
            throw invalid(PREFIX + "targets." + id, null, "the effectful policy '" + policy.name() + "' plans '"
                + id + "': faults are never injected where an effect could be involved");
          }
        }
      }
    };
  }

  private static InvalidExecutionPolicyPropertyException invalid(String property, @org.jspecify.annotations.Nullable
      String value, String rule) {
    return new InvalidExecutionPolicyPropertyException(null, property, value, null, rule);
  }
}
