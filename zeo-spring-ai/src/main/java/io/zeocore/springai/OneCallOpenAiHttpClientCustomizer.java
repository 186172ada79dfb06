package io.zeocore.springai;

import java.io.IOException;
import java.io.UncheckedIOException;
import okhttp3.Interceptor;
import okhttp3.Response;
import org.springframework.ai.openai.http.okhttp.OpenAiHttpClientBuilderCustomizer;
import org.springframework.ai.openai.http.okhttp.SpringAiOpenAiHttpClient;

/**
 * Makes the OpenAI Java SDK under Spring AI's {@code OpenAiChatModel} send exactly one HTTP request inside a ZeoCore
 * attempt. Spring AI 2 does not use its {@code RetryTemplate} for OpenAI: the SDK retries by itself
 * ({@code spring.ai.openai.max-retries}, default 3) on 408, 409, 429, 5xx and I/O failures, after a backoff sleep.
 *
 * <p>Inside a ZeoCore attempt this interceptor marks every failed response {@code X-Should-Retry: false} (which the
 * SDK obeys), turns an I/O failure into an unchecked exception that the SDK does not retry (so it does not sleep
 * either), records the status, Retry-After headers or transport failure for classification, and refuses — before
 * anything is sent — any second request in the same attempt. Outside ZeoCore attempts it does nothing.
 *
 * <p>The Spring Boot starter declares it as a bean, which Spring AI's OpenAI auto-configuration applies to the clients
 * it builds. Outside Spring Boot, pass it to {@code OpenAiChatModel.builder().httpClientBuilderCustomizer(...)}.
 */
public final class OneCallOpenAiHttpClientCustomizer implements OpenAiHttpClientBuilderCustomizer {

  @Override
  public void customize(SpringAiOpenAiHttpClient.Builder builder) {
    builder.interceptor(OneCallOpenAiHttpClientCustomizer::intercept);
  }

  private static Response intercept(Interceptor.Chain chain) throws IOException {
    AttemptScope scope = AttemptScope.current();
    if (scope == null) {
      return chain.proceed(chain.request());
    }
    if (!scope.beginHttpRequest()) {
      throw new HiddenRetryRefusedException();
    }
    Response response;
    try {
      response = chain.proceed(chain.request());
    } catch (IOException failure) {
      scope.recordTransportFailure(failure);
      throw new OneCallIoException(failure);
    }
    if (response.isSuccessful()) {
      return response;
    }
    scope.recordFailedResponse(response.code(), response.header("Retry-After"), response.header("retry-after-ms"));
    return response.newBuilder().header("X-Should-Retry", "false").build();
  }

  /** An I/O failure inside a ZeoCore attempt, unchecked so that the SDK neither retries nor sleeps. */
  static final class OneCallIoException extends UncheckedIOException {

    private static final long serialVersionUID = 1L;

    OneCallIoException(IOException cause) {
      super("OpenAI request failed inside a ZeoCore attempt: " + cause.getClass().getName(), cause);
    }
  }

  /** A second HTTP request inside one ZeoCore attempt; it is never sent. */
  static final class HiddenRetryRefusedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    HiddenRetryRefusedException() {
      super("a second OpenAI request inside one ZeoCore attempt was refused before sending");
    }
  }
}
