package io.zeocore.sample;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** Tells a newcomer, once the application is ready, what is running and which URLs to try. */
@Component
class StartupGuide {

  private static final Logger log = LoggerFactory.getLogger(StartupGuide.class);

  private final Environment environment;

  StartupGuide(Environment environment) {
    this.environment = environment;
  }

  @EventListener(ApplicationReadyEvent.class)
  void explain() {
    String base = "http://localhost:" + environment.getProperty("local.server.port", "8080");
    String dataDir = SampleWorkspace.dataDir(environment.getProperty(SampleWorkspace.DATA_DIR_PROPERTY, "./data"))
        .toString();
    log.info("ZeoCore sample is ready. Data directory: {} (SQLite store, provider script, demo issuer key)", dataDir);
    log.info("Policy 'summarize' plans [ollama-local, text-stats]; without Ollama it falls back to the subprocess:");
    log.info("  curl -s -X POST -H 'Content-Type: text/plain' --data 'Hello ZeoCore' {}/api/summaries", base);
    log.info("  curl -s -X POST -H 'Content-Type: text/plain' --data 'stuck #hang' '{}/api/summaries?policy=quick-stats'",
        base);
    log.info("Durable effects (demo ledger, authorizations signed by the demo issuer):");
    log.info("  curl -s -X POST -H 'Content-Type: application/json' --data '{\"amountCents\":1250,\"reference\":\"inv-1\"}'"
        + " {}/api/payments", base);
    log.info("  curl -s {}/api/payments/<effectId>   and   curl -s -X POST {}/api/payments/<effectId>/replay",
        base, base);
    log.info("Operations: {}/actuator/health  {}/actuator/zeocore  {}/actuator/metrics/zeocore.execution.attempts",
        base, base, base);
  }
}
