package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.HttpStatusCodeException;
import org.springframework.web.client.ResourceAccessException;

class ExceptionClassificationTest {

  private static final String CANARY = "canary-91c4-provider-said-secret-token";

  private static final class RefusedByPolicy extends ConnectException {
    private static final long serialVersionUID = 1L;
  }

  private final ExceptionClassifier defaults = ExceptionClassifier.defaults();

  private static ExecutionPolicy.Builder policy(String... plan) {
    return ExecutionPolicy.builder().totalTimeout(Duration.ofSeconds(10)).attemptTimeout(Duration.ofSeconds(5))
        .attemptTargets(plan);
  }

  private static SyncExecutionTarget<String> throwing(String id, Exception error) {
    return SyncExecutionTarget.of(id, String.class, context -> {
      throw error;
    });
  }

  private static SyncExecutionTarget<String> answering(String id) {
    return SyncExecutionTarget.of(id, String.class, context -> "answer from " + id);
  }

  @Test
  void refusedConnectionsAreTransientBeforeDispatch() {
    assertThat(defaults.classify(new ConnectException(CANARY)))
        .isEqualTo(FailureClassification.beforeDispatch(FailureKind.TRANSIENT));
    assertThat(defaults.classify(new UnknownHostException(CANARY)))
        .isEqualTo(FailureClassification.beforeDispatch(FailureKind.TRANSIENT));
    assertThat(defaults.classify(new ResourceAccessException(CANARY, new ConnectException(CANARY))))
        .isEqualTo(FailureClassification.beforeDispatch(FailureKind.TRANSIENT));
    assertThat(defaults.classify(new UncheckedIOException(new ConnectException(CANARY))))
        .isEqualTo(FailureClassification.beforeDispatch(FailureKind.TRANSIENT));
  }

  @Test
  void httpTimeoutsAreTimeouts() {
    assertThat(defaults.classify(new HttpTimeoutException(CANARY)).kind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(defaults.classify(new HttpConnectTimeoutException(CANARY)))
        .isEqualTo(FailureClassification.beforeDispatch(FailureKind.TIMEOUT));
    assertThat(defaults.classify(new ResourceAccessException(CANARY, new HttpTimeoutException(CANARY))).kind())
        .isEqualTo(FailureKind.TIMEOUT);
  }

  @ParameterizedTest(name = "HTTP {0} is {1}")
  @CsvSource({"UNAUTHORIZED, AUTHENTICATION", "FORBIDDEN, AUTHENTICATION", "REQUEST_TIMEOUT, TIMEOUT",
      "GATEWAY_TIMEOUT, TIMEOUT", "BAD_GATEWAY, TRANSIENT", "NOT_FOUND, PERMANENT"})
  void springResponseExceptionsAreClassifiedByStatus(HttpStatus status, FailureKind kind) {
    HttpStatusCodeException response = status.is4xxClientError() ? new HttpClientErrorException(status)
        : new HttpServerErrorException(status);
    assertThat(defaults.classify(response).kind()).isEqualTo(kind);
  }

  @Test
  void springTooManyRequestsIsARateLimitThatWaitsForItsRetryAfter() {
    HttpHeaders headers = new HttpHeaders();
    headers.add("Retry-After", "7");
    byte[] body = CANARY.getBytes(StandardCharsets.UTF_8);
    assertThat(defaults.classify(HttpClientErrorException.create(HttpStatus.TOO_MANY_REQUESTS, CANARY, headers, body,
        StandardCharsets.UTF_8))).isEqualTo(new FailureClassification(FailureKind.RATE_LIMIT, true,
            Duration.ofSeconds(7)));
  }

  @Test
  void aResponseExceptionBelow400IsClassifiedByItsCause() {
    // WebClient reports a body that failed after a 200 as a response exception of status 200
    org.springframework.web.client.RestClientResponseException bodyFailed =
        new org.springframework.web.client.RestClientResponseException(CANARY, 200, "OK", null, null, null);
    bodyFailed.initCause(new java.net.http.HttpTimeoutException("timed out"));

    assertThat(defaults.classify(bodyFailed).kind()).isEqualTo(FailureKind.TIMEOUT);
    assertThat(defaults.classify(
        new org.springframework.web.client.RestClientResponseException(CANARY, 200, "OK", null, null, null))).isNull();
  }

  @Test
  void unknownExceptionsHaveNoDefaultOpinion() {
    assertThat(defaults.classify(new IllegalStateException(CANARY))).isNull();
    assertThat(defaults.classify(new IOException(CANARY))).isNull();
  }

  @Test
  void byTypeMatchesSubclassesAndPrefersTheMostSpecificType() {
    ExceptionClassifier classifier = ExceptionClassifier.byType(Map.of(
        IOException.class, FailureKind.TRANSIENT,
        ConnectException.class, FailureKind.PERMANENT));

    assertThat(classifier.classify(new java.io.EOFException()).kind()).isEqualTo(FailureKind.TRANSIENT);
    assertThat(classifier.classify(new ConnectException()).kind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(classifier.classify(new RefusedByPolicy()).kind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(classifier.classify(new IllegalStateException(new java.io.EOFException())).kind())
        .isEqualTo(FailureKind.TRANSIENT);
    assertThat(classifier.classify(new IllegalStateException())).isNull();
  }

  @Test
  void fallsBackWhenTheDefaultsSeeARefusedConnection() {
    ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy("primary", "fallback").build(),
        Map.of("primary", throwing("primary", new ConnectException(CANARY)), "fallback", answering("fallback")));

    assertThat(result.selectedTargetId()).isEqualTo("fallback");
    assertThat(result.attempts().get(0).dispatchStarted()).isFalse();
  }

  @Test
  void policyMappingChangesTheOutcome() {
    Map<String, SyncExecutionTarget<String>> targets = Map.of(
        "primary", throwing("primary", new IllegalStateException(CANARY)), "fallback", answering("fallback"));

    ResilientExecutionResult<String> unmapped = ResilientRunner.create().runSync(policy("primary", "fallback").build(),
        targets);
    ResilientExecutionResult<String> mapped = ResilientRunner.create().runSync(policy("primary", "fallback")
        .failureKind(RuntimeException.class, FailureKind.TRANSIENT).build(), targets);

    assertThat(unmapped.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(unmapped.failureKind()).isEqualTo(FailureKind.PERMANENT);
    assertThat(mapped.outcome()).isEqualTo(ExecutionOutcome.SUCCEEDED);
    assertThat(mapped.attempts().get(0).failureKind()).isEqualTo(FailureKind.TRANSIENT);
  }

  @Test
  void policyMappingNeverOverridesAnAttemptError() {
    ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy("primary", "fallback")
        .failureKind(AttemptError.class, FailureKind.TRANSIENT).build(), Map.of(
            "primary", throwing("primary", new AttemptError(FailureKind.PERMANENT)), "fallback", answering("fallback")));

    assertThat(result.failureKind()).isEqualTo(FailureKind.PERMANENT);
  }

  @Test
  void policyCannotMapAnExceptionToCancelled() {
    assertThatThrownBy(() -> policy("a").failureKind(IOException.class, FailureKind.CANCELLED).build())
        .isInstanceOf(InvalidPolicyException.class)
        .hasMessageContaining("cancelled");
  }

  @Test
  void runnerClassifierReplacesTheDefaults() {
    ResilientRunner runner = ResilientRunner.builder()
        .exceptionClassifier(thrown -> thrown instanceof IllegalStateException
            ? FailureClassification.of(FailureKind.RATE_LIMIT) : null)
        .build();

    ResilientExecutionResult<String> result = runner.runSync(policy("primary", "fallback").build(), Map.of(
        "primary", throwing("primary", new IllegalStateException(CANARY)), "fallback", answering("fallback")));

    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
  }

  @Test
  void cancellationTheHostDidNotAskForIsPermanent() {
    ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy("primary", "fallback").build(),
        Map.of("primary", throwing("primary", new CancellationException()), "fallback", answering("fallback")));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.FAILED_SAFE);
    assertThat(result.failureKind()).isEqualTo(FailureKind.PERMANENT);
  }

  @Test
  void cancellationTheHostAskedForEndsTheRunCancelled() {
    SettableCancellationToken token = new SettableCancellationToken();
    SyncExecutionTarget<String> cancelling = SyncExecutionTarget.of("primary", String.class, context -> {
      token.cancel();
      throw new CancellationException();
    });

    ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy("primary", "fallback").build(),
        Map.of("primary", cancelling, "fallback", answering("fallback")), token);

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.CANCELLED);
    assertThat(result.attempts().get(0).failureKind()).isEqualTo(FailureKind.CANCELLED);
  }

  @Test
  void refusalForAMissingTargetNamesTheMissingId() {
    ResilientExecutionResult<String> result = ResilientRunner.create().runSync(policy("primary", "fallback").build(),
        Map.of("primary", answering("primary")));

    assertThat(result.outcome()).isEqualTo(ExecutionOutcome.REFUSED);
    assertThat(result.machineCode()).isEqualTo(MachineCodes.TARGET_UNAVAILABLE);
    assertThat(result.refusedTarget()).contains("fallback");
  }

  @Test
  void listenerCanKeepStatePerRun() {
    List<String> heard = new ArrayList<>();
    AttemptListener perRun = new AttemptListener() {
      @Override
      public void attemptFinished(ExecutionPolicy policy, AttemptRecord record) {
        throw new AssertionError("the shared instance must not be called");
      }

      @Override
      public AttemptListener forRun(ExecutionPolicy policy, String executionId) {
        String run = "run-" + heard.size();
        return new AttemptListener() {
          @Override
          public void attemptFinished(ExecutionPolicy p, AttemptRecord record) {
            heard.add(run + ":" + p.name() + ":" + record.targetId());
          }
        };
      }
    };
    ResilientRunner runner = ResilientRunner.builder().listener(perRun).build();

    runner.runSync(policy("primary").name("summarize").build(), Map.of("primary", answering("primary")));
    runner.runSync(policy("primary").name("summarize").build(), Map.of("primary", answering("primary")));

    assertThat(heard).containsExactly("run-0:summarize:primary", "run-1:summarize:primary");
  }
}
