package io.zeocore.autoconfigure.web;

import io.zeocore.execution.ExecutionFailedException;
import io.zeocore.execution.ExecutionOutcome;
import io.zeocore.execution.FailureKind;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers an {@link ExecutionFailedException} thrown by a controller (typically from
 * {@code result.orElseThrow()}) with an RFC 9457 problem ({@code application/problem+json}), in Spring MVC and WebFlux
 * alike. The starter registers it in web applications; an application's own {@code @ExceptionHandler} for the
 * exception wins (this advice has the lowest precedence), and a bean of this type replaces it.
 *
 * <p>The status says whose move it is:
 * <ul>
 *   <li>{@code exhausted} with kind {@code timeout} → 504 Gateway Timeout; {@code exhausted} otherwise
 *       ({@code transient}, {@code rate_limit}, an enforced attempt not started) and {@code cancelled} → 503 Service
 *       Unavailable: the providers may answer later;</li>
 *   <li>{@code failed_safe} → 502 Bad Gateway: a provider failed in a way that retrying does not fix
 *       ({@code permanent}, {@code authentication}, {@code malformed_response});</li>
 *   <li>{@code refused} → 500 Internal Server Error: this application's plan or its request to the provider is at
 *       fault (a configuration refusal, or a provider's {@code validation}/{@code authorization} refusal), not the
 *       HTTP client's request.</li>
 * </ul>
 *
 * <p>The body holds codes and ids only: {@code type} {@code urn:zeocore:execution:<outcome>}, {@code title}
 * ({@code "ZeoCore execution exhausted"}), {@code detail} (the exception's message: id, outcome, kind, code, attempt
 * count), and the properties {@code executionId}, {@code outcome}, {@code failureKind} (absent when none),
 * {@code machineCode} and {@code attempts} (their number; the records are in the run's events and logs under its
 * execution id). Never a value, a target's exception text or provider text.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class ExecutionProblemDetails {

  /** The problem for {@code failed}, with the status of its outcome. */
  @ExceptionHandler(ExecutionFailedException.class)
  public ResponseEntity<ProblemDetail> handle(ExecutionFailedException failed) {
    ProblemDetail problem = problemDetail(failed);
    return ResponseEntity.status(problem.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
  }

  /** The problem for {@code failed}: status, type, title, detail and the code properties described above. */
  public static ProblemDetail problemDetail(ExecutionFailedException failed) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(status(failed.outcome(), failed.failureKind()),
        failed.getMessage());
    String outcome = failed.outcome().wireValue();
    problem.setType(URI.create("urn:zeocore:execution:" + outcome));
    problem.setTitle("ZeoCore execution " + outcome);
    if (failed.executionId() != null) {
      problem.setProperty("executionId", failed.executionId());
    }
    problem.setProperty("outcome", outcome);
    if (failed.failureKind() != null) {
      problem.setProperty("failureKind", failed.failureKind().wireValue());
    }
    problem.setProperty("machineCode", failed.machineCode());
    problem.setProperty("attempts", failed.attempts().size());
    return problem;
  }

  /** The HTTP status of a run that ended {@code outcome} with terminal {@code kind} (see the class description). */
  public static HttpStatus status(ExecutionOutcome outcome, @Nullable FailureKind kind) {
    return switch (outcome) {
      case EXHAUSTED -> kind == FailureKind.TIMEOUT ? HttpStatus.GATEWAY_TIMEOUT : HttpStatus.SERVICE_UNAVAILABLE;
      case CANCELLED -> HttpStatus.SERVICE_UNAVAILABLE;
      case FAILED_SAFE -> HttpStatus.BAD_GATEWAY;
      case REFUSED, SUCCEEDED -> HttpStatus.INTERNAL_SERVER_ERROR;
    };
  }
}
