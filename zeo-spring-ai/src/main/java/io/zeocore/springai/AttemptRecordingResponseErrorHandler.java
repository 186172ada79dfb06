package io.zeocore.springai;

import java.io.IOException;
import java.net.URI;
import java.util.Objects;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.ResponseErrorHandler;

/**
 * Decorates Spring AI's {@link ResponseErrorHandler} (the {@code RestClient} status handler of the Ollama model and
 * Spring AI's other {@code RestClient}-based models) so that, inside a ZeoCore attempt, the failed response's status
 * and {@code Retry-After} header are recorded for classification before the delegate turns the response into a
 * {@code TransientAiException} or {@code NonTransientAiException} (whose message holds the status and the provider's
 * body text, and no header). Outside ZeoCore attempts it only delegates. The Spring Boot starter decorates every
 * {@code ResponseErrorHandler} bean.
 */
public final class AttemptRecordingResponseErrorHandler implements ResponseErrorHandler {

  private final ResponseErrorHandler delegate;

  public AttemptRecordingResponseErrorHandler(ResponseErrorHandler delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** {@code handler} decorated, or {@code handler} itself when it already is. */
  public static ResponseErrorHandler decorate(ResponseErrorHandler handler) {
    return handler instanceof AttemptRecordingResponseErrorHandler ? handler
        : new AttemptRecordingResponseErrorHandler(handler);
  }

  @Override
  public boolean hasError(ClientHttpResponse response) throws IOException {
    return delegate.hasError(response);
  }

  @Override
  public void handleError(URI url, HttpMethod method, ClientHttpResponse response) throws IOException {
    AttemptScope scope = AttemptScope.current();
    if (scope != null) {
      HttpHeaders headers = response.getHeaders();
      scope.recordFailedResponse(response.getStatusCode().value(), headers.getFirst("Retry-After"),
          headers.getFirst("retry-after-ms"));
    }
    delegate.handleError(url, method, response);
  }

  /** The decorated handler. */
  public ResponseErrorHandler delegate() {
    return delegate;
  }
}
