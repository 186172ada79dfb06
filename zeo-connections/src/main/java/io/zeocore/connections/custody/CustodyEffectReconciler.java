package io.zeocore.connections.custody;

import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectReconciliationRequest;
import io.zeocore.connections.effect.ReconciliationResult;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link EffectReconciler} that inspects the provider inside the custody window of a {@link SecretStore}.
 *
 * <p>Each {@link #reconcile} resolves the connection's {@link io.zeocore.connections.contract.SecretRef} into a fresh one-shot
 * {@link SecretLease} (never the dispatcher's), redeems it at once, calls the {@link Provider} with the
 * {@link SecretMaterial} and the request, and zeroes the material when the provider returns or throws. The provider
 * must inspect, never re-issue the effect.
 *
 * <p>Every failure is a {@link CustodyException} with a code and no cause, exactly as for
 * {@link CustodyEffectDispatcher}; the orchestrator treats it as "no result" (the effect stays {@code AMBIGUOUS}).
 * Thread-safe if the provider is.
 */
public final class CustodyEffectReconciler implements EffectReconciler {

  /** The provider inspection made inside the custody window. */
  @FunctionalInterface
  public interface Provider {

    /**
     * Establishes what happened at the provider. {@code material} is readable only until this method returns.
     *
     * @return the reconciliation result, never {@code null}
     */
    ReconciliationResult reconcile(SecretMaterial material, EffectReconciliationRequest request) throws Exception;
  }

  private final CustodyWindow window;
  private final Provider provider;

  public CustodyEffectReconciler(SecretStore store, Provider provider) {
    this.window = new CustodyWindow(store);
    if (provider == null) {
      throw new IllegalArgumentException("provider is required");
    }
    this.provider = provider;
  }

  /**
   * Resolves, redeems and reconciles once.
   *
   * @throws CustodyException on any failure
   */
  @Override
  public ReconciliationResult reconcile(EffectReconciliationRequest request) {
    if (request == null) {
      throw new IllegalArgumentException("request is required");
    }
    return window.run(request.connection(), request.organizationId(),
        material -> provider.reconcile(material, request), CustodyEffectReconciler::texts);
  }

  private static List<String> texts(ReconciliationResult result) {
    List<String> texts = new ArrayList<>(3);
    texts.add(result.evidenceDigest());
    texts.add(result.confirmationDigest());
    texts.add(CustodyWindow.message(result.normalizedError()));
    return texts;
  }

  @Override
  public String toString() {
    return "CustodyEffectReconciler[store=" + window + "]";
  }
}
