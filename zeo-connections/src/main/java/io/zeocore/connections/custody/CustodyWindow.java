package io.zeocore.connections.custody;

import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.OrganizationId;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The custody window shared by {@link CustodyEffectDispatcher} and {@link CustodyEffectReconciler}: each
 * {@link #run} resolves the connection's {@link io.zeocore.connections.contract.SecretRef} for the organization into a fresh
 * one-shot {@link SecretLease}, redeems it at once (the material is read from the backend only now), runs the call
 * with the {@link SecretMaterial} and zeroes the material when the call returns or throws. Failures are the
 * {@link CustodyException}s of {@link SecretStore#resolve} and of the store's redemption, unchanged.
 *
 * <p>Thread-safe if the store is.
 */
final class CustodyWindow {

  private final SecretStore store;

  /** @throws IllegalArgumentException when {@code store} is {@code null} */
  CustodyWindow(SecretStore store) {
    if (store == null) {
      throw new IllegalArgumentException("store is required");
    }
    this.store = store;
  }

  /**
   * Runs {@code call} inside a fresh custody window for {@code connection}'s secret. The call's result must be
   * non-null and none of {@code resultTexts(result)} may repeat the material.
   */
  <R> R run(Connection connection, OrganizationId organization, SecretStore.CustodyCall<R> call,
      Function<R, List<String>> resultTexts) {
    SecretLease lease = store.resolve(connection.secretHandle(), organization);
    return store.redeem(lease, organization, call, resultTexts);
  }

  /** What a dispatcher answers when custody failed before its provider was entered. */
  @FunctionalInterface
  interface BeforeProvider<R, X extends Exception> {
    R answer(CustodyErrorCode code) throws X;
  }

  /**
   * Runs a dispatcher's provider call inside a fresh custody window: {@link #run}, with the two outcomes every
   * dispatcher treats alike. A custody failure before the provider was entered becomes {@code beforeProvider}'s
   * answer; a provider call that was interrupted ends with {@link InterruptedException} (the interrupt flag cleared,
   * as the exception reports it); every other failure is the {@link CustodyException}, unchanged.
   */
  <R, X extends Exception> R dispatch(Connection connection, OrganizationId organization,
      SecretStore.CustodyCall<R> call, Function<R, List<String>> resultTexts, BeforeProvider<R, X> beforeProvider)
      throws X, InterruptedException {
    AtomicBoolean interrupted = new AtomicBoolean();
    try {
      return run(connection, organization, material -> {
        try {
          return call.call(material);
        } catch (InterruptedException e) {
          interrupted.set(true);
          throw e;
        }
      }, resultTexts);
    } catch (CustodyException failure) {
      if (!failure.providerCalled()) {
        return beforeProvider.answer(failure.code());
      }
      if (interrupted.get()) {
        Thread.interrupted();
        throw new InterruptedException("provider call interrupted inside custody");
      }
      throw failure;
    }
  }

  /** A normalized error's message, scanned for the material like every other result text; {@code null} for none. */
  static @Nullable String message(@Nullable NormalizedError error) {
    return error == null ? null : error.message();
  }

  @Override
  public String toString() {
    return store.toString();
  }
}
