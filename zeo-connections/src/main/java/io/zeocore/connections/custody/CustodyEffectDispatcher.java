package io.zeocore.connections.custody;

import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.effect.DispatchNotStartedException;
import io.zeocore.connections.effect.EffectDispatchRequest;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectDispatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link EffectDispatcher} that runs a provider call inside the custody window of a {@link SecretStore}.
 *
 * <p>For each {@link #dispatch} it resolves the connection's {@link io.zeocore.connections.contract.SecretRef} for the request's
 * organization into a fresh one-shot {@link SecretLease}, redeems it at once (the material is read from the backend
 * only now), calls the {@link Provider} with the {@link SecretMaterial} and the request, and zeroes the material when
 * the provider returns or throws. The provider makes exactly one provider call and never retries, as
 * {@link EffectDispatcher} requires.
 *
 * <h2>Failures</h2>
 * No failure carries a cause, the handle, the material or provider text.
 * <ul>
 *   <li><b>Before the provider was entered</b> (nothing was sent through custody): a
 *       {@link DispatchNotStartedException} whose {@linkplain DispatchNotStartedException#reasonCode() reason code} is
 *       the {@link CustodyErrorCode} name, so that the {@link io.zeocore.connections.effect.EffectOrchestrator} ends the
 *       effect {@code FAILED_SAFE} instead of {@code AMBIGUOUS}. Its error code is
 *       {@link NormalizedErrorCode#CONNECTION_REPAIR_REQUIRED} when the connection's credential needs repair
 *       ({@code CUSTODY_SCOPE_MISMATCH}, {@code CUSTODY_NOT_FOUND}, {@code CUSTODY_EMPTY_MATERIAL}) and
 *       {@link NormalizedErrorCode#FAILED_SAFE} otherwise ({@code CUSTODY_BACKEND_FAILURE} and the lease codes).
 *   <li><b>After the provider was entered</b> (the outcome is unknown, the orchestrator records {@code AMBIGUOUS}): a
 *       {@link CustodyException} {@code CUSTODY_PROVIDER_FAILED} when the provider threw, or
 *       {@code CUSTODY_INVALID_RESULT} when it returned {@code null} or a result whose digests or error message repeat
 *       the secret material. When the provider threw {@link InterruptedException}, a fresh
 *       {@link InterruptedException} with a fixed message is thrown instead, so that the orchestrator handles the
 *       interrupt as such.
 * </ul>
 *
 * <p>Thread-safe if the provider is.
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

  private final CustodyWindow window;
  private final Provider provider;

  public CustodyEffectDispatcher(SecretStore store, Provider provider) {
    this.window = new CustodyWindow(store);
    if (provider == null) {
      throw new IllegalArgumentException("provider is required");
    }
    this.provider = provider;
  }

  /**
   * Resolves, redeems and dispatches once.
   *
   * @throws DispatchNotStartedException when custody failed before the provider was entered
   * @throws CustodyException when the provider failed or returned an invalid result
   * @throws InterruptedException when the provider was interrupted
   */
  @Override
  public EffectDispatchResult dispatch(EffectDispatchRequest request)
      throws DispatchNotStartedException, InterruptedException {
    if (request == null) {
      throw new IllegalArgumentException("request is required");
    }
    return window.dispatch(request.connection(), request.organizationId(),
        material -> provider.dispatch(material, request), CustodyEffectDispatcher::texts,
        code -> {
          throw notStarted(code);
        });
  }

  /** The orchestrator's "nothing reached the provider" signal for a custody failure before the provider call. */
  static DispatchNotStartedException notStarted(CustodyErrorCode code) {
    NormalizedErrorCode errorCode = switch (code) {
      case CUSTODY_SCOPE_MISMATCH, CUSTODY_NOT_FOUND, CUSTODY_EMPTY_MATERIAL ->
          NormalizedErrorCode.CONNECTION_REPAIR_REQUIRED;
      case CUSTODY_BACKEND_FAILURE, CUSTODY_LEASE_UNKNOWN, CUSTODY_LEASE_BINDING_MISMATCH, CUSTODY_LEASE_EXPIRED ->
          NormalizedErrorCode.FAILED_SAFE;
      case CUSTODY_PROVIDER_FAILED, CUSTODY_INVALID_RESULT ->
          throw new IllegalArgumentException("the provider was called: " + code);
    };
    return new DispatchNotStartedException(errorCode, code.name());
  }

  static List<String> texts(EffectDispatchResult result) {
    List<String> texts = new ArrayList<>(2);
    texts.add(result.confirmationDigest());
    texts.add(CustodyWindow.message(result.normalizedError()));
    return texts;
  }

  @Override
  public String toString() {
    return "CustodyEffectDispatcher[store=" + window + "]";
  }
}
