package io.zeocore.autoconfigure.execution;

import static org.assertj.core.api.Assertions.assertThat;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Start-up failures of a bad policy, as the failure analysis reports them. */
final class PolicyFailureAnalyses {

  private PolicyFailureAnalyses() {}

  /** {@code runner} fails to start, and the failure analysis's description contains every {@code expected}. */
  static void assertFailure(ApplicationContextRunner runner, String... expected) {
    runner.run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = new InvalidExecutionPolicyFailureAnalyzer().analyze(context.getStartupFailure());
      assertThat(analysis).as("failure analysis of %s", context.getStartupFailure()).isNotNull();
      assertThat(analysis.getDescription()).contains(expected);
    });
  }
}
