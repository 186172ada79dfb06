package io.zeocore.capability;

import io.zeocore.EffectKind;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.execution.SettableCancellationToken;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BoundCapabilityTest {

  record Lookup(String sku) {}

  record Stock(int units) {}

  private final AtomicInteger handled = new AtomicInteger();
  private final List<String> steps = new ArrayList<>();

  private BoundCapability.Builder<Lookup, Stock> stock() {
    return BoundCapability.builder("inventory.stock", Lookup.class, Stock.class).effects(EffectKind.READ);
  }

  /** A capability whose handler returns {@code value} as it is, bypassing the compiler's type check. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private BoundCapability<Lookup, Stock> returning(Object value) {
    BoundCapability.Builder raw = stock();
    raw.handler((BoundCapability.Handler) (request, context) -> {
      handled.incrementAndGet();
      return value;
    });
    return raw.build();
  }

  @SuppressWarnings("unchecked")
  private static <T> T castAnything(Object value) {
    return (T) value;
  }

  @Test
  void aValueOfTheResponseTypeSucceeds() {
    CapabilityResult<Stock> result = returning(new Stock(4)).invokeSync(new Lookup("A-1"), CapabilityContext.none());

    assertThat(result.isSuccess()).isTrue();
    assertThat(result.value()).isEqualTo(new Stock(4));
    assertThat(result.handlerStarted()).isTrue();
    assertThat(result.code()).isNull();
  }

  @Test
  void aCancelledContextStopsBeforeGuardsAndHandler() {
    SettableCancellationToken token = new SettableCancellationToken();
    token.cancel();
    BoundCapability<Lookup, Stock> capability = stock()
        .guard((request, context) -> steps.add("guard"))
        .handler((request, context) -> new Stock(handled.incrementAndGet()))
        .build();

    CapabilityResult<Stock> result = capability.invokeSync(new Lookup("A-1"), CapabilityContext.withoutDeadline(token));

    assertThat(result.outcome()).isEqualTo(CapabilityOutcome.CANCELLED);
    assertThat(result.code()).isEqualTo("ZEO_CAP_CANCELLED");
    assertThat(result.handlerStarted()).isFalse();
    assertThat(steps).isEmpty();
    assertThat(handled).hasValue(0);
  }

  @Test
  void guardsRejectWrongRequestsBeforeTheHandler() {
    BoundCapability<Lookup, Stock> capability = stock()
        .guard((request, context) -> !request.sku().isBlank())
        .guard((request, context) -> {
          if (request.sku().startsWith("!")) {
            throw new IllegalStateException("guard broke");
          }
          return true;
        })
        .handler((request, context) -> new Stock(handled.incrementAndGet()))
        .build();

    assertThat(capability.invokeSync(new Lookup(" "), CapabilityContext.none()).outcome())
        .isEqualTo(CapabilityOutcome.GUARD_REJECTED);
    assertThat(capability.invokeSync(new Lookup("!x"), CapabilityContext.none()).outcome())
        .isEqualTo(CapabilityOutcome.GUARD_REJECTED);
    assertThat(capability.invokeSync(null, CapabilityContext.none()).outcome())
        .isEqualTo(CapabilityOutcome.GUARD_REJECTED);
    BoundCapability<Object, Stock> raw = castAnything(capability);
    CapabilityResult<Stock> wrongType = raw.invokeSync("not a Lookup", CapabilityContext.none());
    assertThat(wrongType.outcome()).isEqualTo(CapabilityOutcome.GUARD_REJECTED);
    assertThat(wrongType.code()).isEqualTo("ZEO_CAP_GUARD_REJECTED");
    assertThat(wrongType.handlerStarted()).isFalse();
    assertThat(handled).hasValue(0);
  }

  @Test
  void anUnavailableCapabilityIsSkippedBeforeTheHandler() {
    BoundCapability<Lookup, Stock> capability = stock()
        .availability(() -> false)
        .handler((request, context) -> new Stock(handled.incrementAndGet()))
        .build();

    CapabilityResult<Stock> result = capability.invokeSync(new Lookup("A-1"), CapabilityContext.none());

    assertThat(result.outcome()).isEqualTo(CapabilityOutcome.UNAVAILABLE);
    assertThat(result.outcome().isSkipped()).isTrue();
    assertThat(result.handlerStarted()).isFalse();
    assertThat(handled).hasValue(0);
  }

  @Test
  void nullOrForeignValuesAreInvalidReturns() {
    assertThat(returning(null).invokeSync(new Lookup("A-1"), CapabilityContext.none()).outcome())
        .isEqualTo(CapabilityOutcome.INVALID_RETURN);
    CapabilityResult<Stock> foreign = returning("seven").invokeSync(new Lookup("A-1"), CapabilityContext.none());
    assertThat(foreign.outcome()).isEqualTo(CapabilityOutcome.INVALID_RETURN);
    assertThat(foreign.handlerStarted()).isTrue();
  }

  @Test
  void handlerExceptionsAreClassifiedWithoutTheirText() {
    assertThat(throwing(CapabilityException.integrationFailure(new IllegalStateException("CANARY"))))
        .isEqualTo(CapabilityOutcome.INTEGRATION_FAILURE);
    assertThat(throwing(CapabilityException.unavailable())).isEqualTo(CapabilityOutcome.UNAVAILABLE);
    assertThat(throwing(CapabilityException.policySkipped())).isEqualTo(CapabilityOutcome.POLICY_SKIPPED);
    assertThat(throwing(new SocketTimeoutException("read timed out"))).isEqualTo(CapabilityOutcome.TIMED_OUT);
    assertThat(throwing(new TimeoutException())).isEqualTo(CapabilityOutcome.TIMED_OUT);
    assertThat(throwing(new CancellationException())).isEqualTo(CapabilityOutcome.CANCELLED);
    assertThat(throwing(new IllegalArgumentException("CANARY"))).isEqualTo(CapabilityOutcome.UNEXPECTED_EXCEPTION);
  }

  private CapabilityOutcome throwing(Exception failure) {
    CapabilityResult<Stock> result = stock().handler((request, context) -> {
      throw failure;
    }).build().invokeSync(new Lookup("A-1"), CapabilityContext.none());
    assertThat(result.handlerStarted()).isTrue();
    assertThat(result.toString()).doesNotContain("CANARY");
    return result.outcome();
  }

  @Test
  void anInterruptedHandlerIsCancelledAndTheFlagIsRestored() {
    CapabilityResult<Stock> result = stock().handler((request, context) -> {
      throw new InterruptedException();
    }).build().invokeSync(new Lookup("A-1"), CapabilityContext.none());

    assertThat(result.outcome()).isEqualTo(CapabilityOutcome.CANCELLED);
    assertThat(Thread.interrupted()).isTrue();
  }

  @Test
  void invokeSyncAwaitsAnAsyncHandler() {
    BoundCapability<Lookup, Stock> capability = stock()
        .asyncHandler((request, context) -> CompletableFuture.supplyAsync(() -> new Stock(9),
            CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS)))
        .build();

    CapabilityResult<Stock> result =
        capability.invokeSync(new Lookup("A-1"), CapabilityContext.of(new SettableCancellationToken(),
            Duration.ofSeconds(5)));

    assertThat(capability.isAsync()).isTrue();
    assertThat(result.value()).isEqualTo(new Stock(9));
  }

  @Test
  void invokeSyncStopsWaitingAtTheDeadlineAndCancelsTheStage() {
    CompletableFuture<Stock> never = new CompletableFuture<>();
    BoundCapability<Lookup, Stock> capability = stock().asyncHandler((request, context) -> never).build();

    long start = System.nanoTime();
    CapabilityResult<Stock> result = capability.invokeSync(new Lookup("A-1"),
        CapabilityContext.of(new SettableCancellationToken(), Duration.ofMillis(200)));
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(result.outcome()).isEqualTo(CapabilityOutcome.TIMED_OUT);
    assertThat(result.code()).isEqualTo("ZEO_CAP_TIMED_OUT");
    assertThat(never).isCancelled();
    assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(200)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void invokeSyncObservesCancellationWhileWaiting() {
    CompletableFuture<Stock> never = new CompletableFuture<>();
    SettableCancellationToken token = new SettableCancellationToken();
    CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS).execute(token::cancel);

    CapabilityResult<Stock> result = stock().asyncHandler((request, context) -> never).build()
        .invokeSync(new Lookup("A-1"), CapabilityContext.withoutDeadline(token));

    assertThat(result.outcome()).isEqualTo(CapabilityOutcome.CANCELLED);
    assertThat(result.handlerStarted()).isTrue();
    assertThat(never).isCancelled();
  }

  @Test
  void invokeAsyncNormalizesTheStageAndCancellingItCancelsTheHandlersStage() {
    CompletableFuture<Stock> pending = new CompletableFuture<>();
    BoundCapability<Lookup, Stock> capability = stock().asyncHandler((request, context) -> pending).build();

    CompletableFuture<CapabilityResult<Stock>> result = capability.invokeAsync(new Lookup("A-1"),
        CapabilityContext.none());
    assertThat(result).isNotDone();
    result.cancel(true);

    assertThat(pending).isCancelled();
    CompletableFuture<Stock> failing = CompletableFuture.failedFuture(CapabilityException.unavailable());
    assertThat(stock().asyncHandler((request, context) -> failing).build()
        .invokeAsync(new Lookup("A-1"), CapabilityContext.none()).join().outcome())
        .isEqualTo(CapabilityOutcome.UNAVAILABLE);
    assertThat(stock().asyncHandler((request, context) -> null).build()
        .invokeAsync(new Lookup("A-1"), CapabilityContext.none()).join().outcome())
        .isEqualTo(CapabilityOutcome.INVALID_RETURN);
    assertThat(returning(new Stock(1)).invokeAsync(new Lookup("A-1"), CapabilityContext.none()).join().value())
        .isEqualTo(new Stock(1));
  }

  @Test
  void aCapabilityNeedsANameAnEffectAndExactlyOneHandler() {
    assertThatThrownBy(() -> BoundCapability.builder("stock", Lookup.class, Stock.class)
        .handler((request, context) -> new Stock(1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("effects must declare at least one EffectKind");
    assertThatThrownBy(() -> stock().build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exactly one handler");
    assertThatThrownBy(() -> BoundCapability.builder(" ", Lookup.class, Stock.class).effects(EffectKind.READ)
        .handler((request, context) -> new Stock(1)).build())
        .hasMessageContaining("name");
  }

  @Test
  void resultsKeepTheirInvariantsAndHideTheirValue() {
    assertThat(CapabilityResult.success(new Stock(3)).toString()).doesNotContain("units");
    assertThatThrownBy(() -> new CapabilityResult<>(CapabilityOutcome.SUCCEEDED, null, true))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CapabilityResult<>(CapabilityOutcome.UNAVAILABLE, new Stock(1), false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CapabilityException(CapabilityOutcome.SUCCEEDED, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(CapabilityException.integrationFailure(new IllegalStateException("CANARY")))
        .hasMessage("integration_failure");
  }
}
