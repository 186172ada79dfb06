package io.zeocore.sample;

import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ExecutionPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Tells a newcomer, once the application is ready, what is running and which URLs to try. The plans it prints are
 * read from the {@link ExecutionPolicies} bean, that is from {@code application.yml} and the active profiles, so they
 * are the plans that run.
 */
@Component
class StartupGuide {

  private static final Logger log = LoggerFactory.getLogger(StartupGuide.class);

  private final Environment environment;
  private final ExecutionPolicies policies;

  StartupGuide(Environment environment, ExecutionPolicies policies) {
    this.environment = environment;
    this.policies = policies;
  }

  @EventListener(ApplicationReadyEvent.class)
  void explain() {
    lines().forEach(log::info);
  }

  /** The guide, one log line each. */
  List<String> lines() {
    String base = "http://localhost:" + environment.getProperty("local.server.port", "8080");
    String dataDir = SampleWorkspace.dataDir(environment.getProperty(SampleWorkspace.DATA_DIR_PROPERTY, "./data"))
        .toString();
    List<String> lines = new ArrayList<>();
    lines.add("ZeoCore sample is ready. Data directory: " + dataDir
        + " (SQLite store, provider script, demo issuer key)");
    for (Map.Entry<String, ExecutionPolicy> entry : policies.asMap().entrySet()) {
      lines.add("Policy '" + entry.getKey() + "' plans " + plan(entry.getValue()));
    }
    lines.add("Try them (without Ollama, 'summarize' falls back to the subprocess provider):");
    lines.add("  curl -s -X POST -H 'Content-Type: text/plain' --data 'Hello ZeoCore' " + base + "/api/summaries");
    lines.add("  curl -s -X POST -H 'Content-Type: text/plain' --data 'stuck #hang' '" + base
        + "/api/summaries?policy=quick-stats'");
    lines.add("Durable effects (demo ledger, authorizations signed by the demo issuer):");
    lines.add("  curl -s -X POST -H 'Content-Type: application/json' --data '{\"amountCents\":1250,\"reference\":\"inv-1\"}' "
        + base + "/api/payments");
    lines.add("  curl -s " + base + "/api/payments/<effectId>   and   curl -s -X POST " + base
        + "/api/payments/<effectId>/replay");
    lines.add("Operations: " + base + "/actuator/health  " + base + "/actuator/zeocore  " + base
        + "/actuator/metrics/zeocore.execution.attempts");
    return lines;
  }

  /** {@code [ollama-local, text-stats], attempts of 20s within 60s, backoff [200ms]}. */
  static String plan(ExecutionPolicy policy) {
    return policy.attemptTargets() + ", attempts of " + format(policy.attemptTimeout()) + " within "
        + format(policy.totalTimeout()) + (policy.backoff().isEmpty() ? ""
            : ", backoff " + policy.backoff().stream().map(StartupGuide::format).toList());
  }

  private static String format(java.time.Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }
}
