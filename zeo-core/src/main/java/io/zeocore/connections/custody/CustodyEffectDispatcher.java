package io.zeocore.connections.custody;

import io.zeocore.connections.EffectDispatchRequest;
import io.zeocore.connections.EffectDispatchResult;
import io.zeocore.connections.EffectDispatcher;
import io.zeocore.connections.NormalizedError;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link EffectDispatcher} that runs a provider call inside the custody window of a {@link SecretStore}.
 *
 * <p>For each {@link #dispatch} it resolves the connection's {@link io.zeocore.connections.SecretRef} for the request's
 * organization into a fresh one-shot {@link SecretLease}, redeems it at once (the material is read from the backend
 * only now), calls the {@link Provider} with the {@link SecretMaterial} and the request, and zeroes the material when
 * the provider returns or throws. The provider makes exactly one provider call and never retries, as
 * {@link EffectDispatcher} requires.
 *
 * <p>Every failure is a {@link CustodyException} with a code and no cause; provider exceptions and their text are
 * discarded. {@link CustodyException#providerCalled()} is {@code false} for failures before the provider was entered
 * (scope, not found, backend, lease, empty material): nothing was sent through custody. It is {@code true} for
 * {@code CUSTODY_PROVIDER_FAILED} (the provider threw) and {@code CUSTODY_INVALID_RESULT} (it returned {@code null},
 * or a result whose digests or error message repeat the secret material), for which the outcome is unknown. Thread-safe
 * if the provider is.
 */
public final class CustodyEffectDispatcher implements EffectDispatcher {

  /** The provider call made inside the custody window. */
  @FunctionalInterface
  public interface Provider {

    /**
     * Performs the effect with the secret. {@code material} is readable only until this method returns.
     *
     * @return {@code CONFIRMED} or {@code FAILED_SAFE}, never {@code null}; throw when the outcome is unknown
     */
    EffectDispatchResult dispatch(SecretMaterial material, EffectDispatchRequest request) throws Exception;
  }

  private final SecretStore store;
  private final Provider provider;

  public CustodyEffectDispatcher(SecretStore store, Provider provider) {
    if (store == null) {
      throw new IllegalArgumentException("store is required");
    }
    if (provider == null) {
      throw new IllegalArgumentException("provider is required");
    }
    this.store = store;
    this.provider = provider;
  }

  /**
   * Resolves, redeems and dispatches once.
   *
   * @throws CustodyException on any failure; see the class description for {@link CustodyException#providerCalled()}
   */
  @Override
  public EffectDispatchResult dispatch(EffectDispatchRequest request) {
    if (request == null) {
      throw new IllegalArgumentException("request is required");
    }
    SecretLease lease = store.resolve(request.connection().secretHandle(), request.organizationId());
    return store.redeem(lease, request.organizationId(), material -> provider.dispatch(material, request),
        CustodyEffectDispatcher::texts);
  }

  static List<String> texts(EffectDispatchResult result) {
    List<String> texts = new ArrayList<>(2);
    texts.add(result.confirmationDigest());
    texts.add(message(result.normalizedError()));
    return texts;
  }

  static String message(NormalizedError error) {
    return error == null ? null : error.message();
  }

  @Override
  public String toString() {
    return "CustodyEffectDispatcher[store=" + store + "]";
  }
}
