package io.zeocore.capability;

import io.zeocore.EffectKind;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A typed business capability bound to its handler: a name, the {@link EffectKind}s it declares, request and response
 * types, guards, an availability check and either a blocking or an asynchronous handler. Immutable and thread-safe
 * when its parts are.
 *
 * <p>{@link #invokeSync} and {@link #invokeAsync} make <em>one</em> invocation and never throw (only JVM
 * {@link Error}s escape): every ending is a {@link CapabilityResult}. The pipeline, in order:
 * <ol>
 *   <li>cancellation already requested → {@link CapabilityOutcome#CANCELLED};</li>
 *   <li>request {@code null} or not of the request type, or a guard that does not admit it (or throws) →
 *       {@link CapabilityOutcome#GUARD_REJECTED};</li>
 *   <li>the availability check says no (or throws) → {@link CapabilityOutcome#UNAVAILABLE};</li>
 *   <li>the handler runs: a value of the response type → {@link CapabilityOutcome#SUCCEEDED}; {@code null}, another
 *       type or no future → {@link CapabilityOutcome#INVALID_RETURN}; a {@link CapabilityException} → its outcome;
 *       {@link InterruptedException} or {@link CancellationException} → {@link CapabilityOutcome#CANCELLED} (the
 *       interrupt flag is restored); {@link TimeoutException} or {@link InterruptedIOException} (socket and HTTP
 *       timeouts) → {@link CapabilityOutcome#TIMED_OUT}; any other exception →
 *       {@link CapabilityOutcome#UNEXPECTED_EXCEPTION}.</li>
 * </ol>
 * No retry happens here: retries and fallback belong to the {@link io.zeocore.execution.ResilientRunner}, through
 * {@link CapabilityTargets}.
 *
 * @param <Req> the request type
 * @param <Res> the response type
 */
public final class BoundCapability<Req, Res> {

  /** A blocking handler. It should honour {@link CapabilityContext#remaining()} and poll cancellation. */
  @FunctionalInterface
  public interface Handler<Req, Res> {
    Res handle(Req request, CapabilityContext context) throws Exception;
  }

  /**
   * A non-blocking handler. Cancelling the returned future's result (for example when the async runner's attempt
   * timeout expires) cancels the stage it returned.
   */
  @FunctionalInterface
  public interface AsyncHandler<Req, Res> {
    CompletionStage<Res> handle(Req request, CapabilityContext context) throws Exception;
  }

  /** Admits or rejects a request before the handler runs. A guard that throws rejects. */
  @FunctionalInterface
  public interface Guard<Req> {
    boolean admits(Req request, CapabilityContext context) throws Exception;
  }

  private static final long CANCELLATION_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  private final String name;
  private final Set<EffectKind> effects;
  private final Class<Req> requestType;
  private final Class<Res> responseType;
  private final List<Guard<? super Req>> guards;
  private final BooleanSupplier availability;
  private final @Nullable Handler<? super Req, ? extends Res> handler;
  private final @Nullable AsyncHandler<? super Req, ? extends Res> asyncHandler;

  private BoundCapability(Builder<Req, Res> builder) {
    if (builder.name == null || builder.name.isBlank()) {
      throw new IllegalArgumentException("capability name must not be blank");
    }
    if (builder.effects.isEmpty()) {
      throw new IllegalArgumentException("effects must declare at least one EffectKind");
    }
    if ((builder.handler == null) == (builder.asyncHandler == null)) {
      throw new IllegalArgumentException("a capability needs exactly one handler: handler(...) or asyncHandler(...)");
    }
    this.name = builder.name;
    this.effects = Set.copyOf(builder.effects);
    this.requestType = builder.requestType;
    this.responseType = builder.responseType;
    this.guards = List.copyOf(builder.guards);
    this.availability = builder.availability;
    this.handler = builder.handler;
    this.asyncHandler = builder.asyncHandler;
  }

  /**
   * Starts a capability definition.
   *
   * @param name a non-blank name for logs and diagnostics
   * @param requestType every request must be an instance of it
   * @param responseType every value must be an instance of it
   */
  public static <Req, Res> Builder<Req, Res> builder(String name, Class<Req> requestType, Class<Res> responseType) {
    return new Builder<>(name, requestType, responseType);
  }

  public String name() {
    return name;
  }

  /** The declared effects (unmodifiable, never empty). */
  public Set<EffectKind> effects() {
    return effects;
  }

  public Class<Req> requestType() {
    return requestType;
  }

  public Class<Res> responseType() {
    return responseType;
  }

  /** Whether the handler is an {@link AsyncHandler}. */
  public boolean isAsync() {
    return asyncHandler != null;
  }

  /**
   * One invocation on the calling thread. An asynchronous handler's stage is awaited here, bounded by the context's
   * deadline ({@link CapabilityOutcome#TIMED_OUT} when it passes) and polling its cancellation about every 50 ms
   * ({@link CapabilityOutcome#CANCELLED}); in both cases the stage is cancelled. A blocking handler is not stopped: it
   * must honour the context itself.
   */
  public CapabilityResult<Res> invokeSync(Req request, CapabilityContext context) {
    Objects.requireNonNull(context, "context");
    CapabilityResult<Res> refused = admit(request, context);
    if (refused != null) {
      return refused;
    }
    if (handler != null) {
      try {
        return normalize(handler.handle(request, context));
      } catch (Exception thrown) {
        return fromThrowable(thrown);
      }
    }
    CompletableFuture<? extends Res> pending;
    try {
      AsyncHandler<? super Req, ? extends Res> async = Objects.requireNonNull(asyncHandler, "asyncHandler");
      CompletionStage<? extends Res> stage = async.handle(request, context);
      if (stage == null) {
        return CapabilityResult.failure(CapabilityOutcome.INVALID_RETURN, true);
      }
      pending = stage.toCompletableFuture();
    } catch (Exception thrown) {
      return fromThrowable(thrown);
    }
    return await(pending, context);
  }

  /**
   * One invocation that does not block on an asynchronous handler. A blocking handler runs on the calling thread
   * before this method returns. Cancelling the returned future cancels the handler's stage. The context's deadline
   * is not enforced here: the handler sees it, and the async runner cancels the attempt when it expires.
   */
  public CompletableFuture<CapabilityResult<Res>> invokeAsync(Req request, CapabilityContext context) {
    Objects.requireNonNull(context, "context");
    if (asyncHandler == null) {
      return CompletableFuture.completedFuture(invokeSync(request, context));
    }
    CapabilityResult<Res> refused = admit(request, context);
    if (refused != null) {
      return CompletableFuture.completedFuture(refused);
    }
    CompletableFuture<? extends Res> source;
    try {
      CompletionStage<? extends Res> stage = asyncHandler.handle(request, context);
      if (stage == null) {
        return CompletableFuture.completedFuture(CapabilityResult.failure(CapabilityOutcome.INVALID_RETURN, true));
      }
      source = stage.toCompletableFuture();
    } catch (Exception thrown) {
      return CompletableFuture.completedFuture(fromThrowable(thrown));
    }
    CompletableFuture<CapabilityResult<Res>> result =
        source.handle((value, thrown) -> thrown == null ? normalize(value) : fromThrowable(thrown));
    result.whenComplete((ignored, thrown) -> {
      if (result.isCancelled()) {
        source.cancel(true);
      }
    });
    return result;
  }

  /** Steps 1–3 of the pipeline; {@code null} when the handler may run. */
  private @Nullable CapabilityResult<Res> admit(Req request, CapabilityContext context) {
    if (context.isCancelled()) {
      return CapabilityResult.failure(CapabilityOutcome.CANCELLED, false);
    }
    if (!requestType.isInstance(request)) {
      return CapabilityResult.failure(CapabilityOutcome.GUARD_REJECTED, false);
    }
    for (Guard<? super Req> guard : guards) {
      boolean admitted;
      try {
        admitted = guard.admits(request, context);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return CapabilityResult.failure(CapabilityOutcome.CANCELLED, false);
      } catch (Exception rejected) {
        admitted = false;
      }
      if (!admitted) {
        return CapabilityResult.failure(CapabilityOutcome.GUARD_REJECTED, false);
      }
    }
    boolean available;
    try {
      available = availability.getAsBoolean();
    } catch (RuntimeException unknown) {
      available = false;
    }
    return available ? null : CapabilityResult.failure(CapabilityOutcome.UNAVAILABLE, false);
  }

  private CapabilityResult<Res> await(CompletableFuture<? extends Res> pending, CapabilityContext context) {
    try {
      while (true) {
        long wait = CANCELLATION_POLL_NANOS;
        if (context.timeout().isPresent()) {
          wait = Math.min(wait, context.remaining().orElseThrow().toNanos());
        }
        try {
          return normalize(pending.get(Math.max(0, wait), TimeUnit.NANOSECONDS));
        } catch (TimeoutException notYet) {
          if (context.isCancelled()) {
            pending.cancel(true);
            return CapabilityResult.failure(CapabilityOutcome.CANCELLED, true);
          }
          if (context.isExpired()) {
            pending.cancel(true);
            return CapabilityResult.failure(CapabilityOutcome.TIMED_OUT, true);
          }
        }
      }
    } catch (InterruptedException interrupted) {
      pending.cancel(true);
      Thread.currentThread().interrupt();
      return CapabilityResult.failure(CapabilityOutcome.CANCELLED, true);
    } catch (ExecutionException | CancellationException failed) {
      return fromThrowable(failed);
    }
  }

  private CapabilityResult<Res> normalize(Object value) {
    if (!responseType.isInstance(value)) {
      return CapabilityResult.failure(CapabilityOutcome.INVALID_RETURN, true);
    }
    return CapabilityResult.success(responseType.cast(value));
  }

  private static <Res> CapabilityResult<Res> fromThrowable(Throwable thrown) {
    Throwable error = thrown;
    while ((error instanceof CompletionException || error instanceof ExecutionException) && error.getCause() != null) {
      error = error.getCause();
    }
    if (error instanceof Error fatal) {
      throw fatal;
    }
    if (error instanceof CapabilityException classified) {
      return CapabilityResult.failure(classified.outcome(), true);
    }
    if (error instanceof InterruptedException) {
      Thread.currentThread().interrupt();
      return CapabilityResult.failure(CapabilityOutcome.CANCELLED, true);
    }
    if (error instanceof CancellationException) {
      return CapabilityResult.failure(CapabilityOutcome.CANCELLED, true);
    }
    if (error instanceof TimeoutException || error instanceof InterruptedIOException) {
      return CapabilityResult.failure(CapabilityOutcome.TIMED_OUT, true);
    }
    return CapabilityResult.failure(CapabilityOutcome.UNEXPECTED_EXCEPTION, true);
  }

  @Override
  public String toString() {
    return "BoundCapability[" + name + ", effects=" + effects + ", " + requestType.getSimpleName() + " -> "
        + responseType.getSimpleName() + (isAsync() ? ", async" : "") + "]";
  }

  /** Builds a {@link BoundCapability}. Not thread-safe. */
  public static final class Builder<Req, Res> {

    private final String name;
    private final Class<Req> requestType;
    private final Class<Res> responseType;
    private final Set<EffectKind> effects = EnumSet.noneOf(EffectKind.class);
    private final List<Guard<? super Req>> guards = new ArrayList<>();
    private BooleanSupplier availability = () -> true;
    private @Nullable Handler<? super Req, ? extends Res> handler;
    private @Nullable AsyncHandler<? super Req, ? extends Res> asyncHandler;

    private Builder(String name, Class<Req> requestType, Class<Res> responseType) {
      this.name = name;
      this.requestType = Objects.requireNonNull(requestType, "requestType");
      this.responseType = Objects.requireNonNull(responseType, "responseType");
    }

    /** Adds declared effects; at least one is required. */
    public Builder<Req, Res> effects(EffectKind... effects) {
      return effects(Arrays.asList(effects));
    }

    public Builder<Req, Res> effects(Collection<EffectKind> effects) {
      for (EffectKind effect : effects) {
        this.effects.add(Objects.requireNonNull(effect, "effects must not contain null"));
      }
      return this;
    }

    /** Adds a guard; guards run in the order added, all must admit. */
    public Builder<Req, Res> guard(Guard<? super Req> guard) {
      guards.add(Objects.requireNonNull(guard, "guard"));
      return this;
    }

    /** Whether the capability can run right now; checked after the guards. Default: always. */
    public Builder<Req, Res> availability(BooleanSupplier availability) {
      this.availability = Objects.requireNonNull(availability, "availability");
      return this;
    }

    /** A blocking handler (replaces any handler set before). */
    public Builder<Req, Res> handler(Handler<? super Req, ? extends Res> handler) {
      this.handler = Objects.requireNonNull(handler, "handler");
      this.asyncHandler = null;
      return this;
    }

    /** A non-blocking handler (replaces any handler set before). */
    public Builder<Req, Res> asyncHandler(AsyncHandler<? super Req, ? extends Res> handler) {
      this.asyncHandler = Objects.requireNonNull(handler, "handler");
      this.handler = null;
      return this;
    }

    /**
     * Validates and builds the capability.
     *
     * @throws IllegalArgumentException without a name, an effect or a handler
     */
    public BoundCapability<Req, Res> build() {
      return new BoundCapability<>(this);
    }
  }
}
