package io.zeocore.connections.custody;

import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.ReadArtifact;
import io.zeocore.connections.read.ReadDispatchRequest;
import io.zeocore.connections.read.ReadDispatchResult;
import io.zeocore.connections.read.ReadDispatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An {@link ReadDispatcher} that runs a read-only provider call inside the custody window of a
 * {@link SecretStore}: a read needs its token too.
 *
 * <p>For each {@link #read} it resolves the connection's {@link io.zeocore.connections.contract.SecretRef} for the request's
 * organization into a fresh one-shot {@link SecretLease}, redeems it at once through the store's custody window (the
 * material is read from the backend only now), calls the {@link Provider} with the {@link SecretMaterial} and the
 * request, and zeroes the material when the provider returns or throws. The provider makes exactly one provider call.
 *
 * <h2>Failures</h2>
 * Reads have no ambiguity: the {@link io.zeocore.connections.read.ReadOrchestrator} ends every failed read
 * {@code FAILED_SAFE}. No failure carries a cause, the handle, the material or provider text.
 * <ul>
 *   <li><b>Before the provider was entered</b>: a {@code FAILED_SAFE} result whose error names the custody code, e.g.
 *       {@code secret custody failed before the provider call: CUSTODY_NOT_FOUND}, with code
 *       {@link NormalizedErrorCode#CONNECTION_REPAIR_REQUIRED} when the connection's credential needs repair
 *       ({@code CUSTODY_SCOPE_MISMATCH}, {@code CUSTODY_NOT_FOUND}, {@code CUSTODY_EMPTY_MATERIAL}) and
 *       {@link NormalizedErrorCode#FAILED_SAFE} otherwise ({@code CUSTODY_BACKEND_FAILURE} and the lease codes): the
 *       receipt then says why, instead of the orchestrator's generic {@code PROVIDER_UNAVAILABLE}.
 *   <li><b>After the provider was entered</b>: a {@link CustodyException} {@code CUSTODY_PROVIDER_FAILED} when the
 *       provider threw, or {@code CUSTODY_INVALID_RESULT} when it returned {@code null} or a result that repeats the
 *       secret material (in any string of the inline result, keys included, the artifact's media type or the error
 *       message); the orchestrator records {@code FAILED_SAFE} with {@code PROVIDER_UNAVAILABLE}. When the provider
 *       threw {@link InterruptedException}, a fresh {@link InterruptedException} with a fixed message is thrown.
 * </ul>
 *
 * <p>Thread-safe if the provider is.
 */
public final class CustodyReadDispatcher implements ReadDispatcher {

  /** The message prefix of a read that custody stopped before the provider call. */
  static final String NOT_STARTED_MESSAGE = "secret custody failed before the provider call: ";

  /** The read-only provider call made inside the custody window. */
  @FunctionalInterface
  public interface Provider {

    /**
     * Reads at the provider with the secret. {@code material} is readable only until this method returns.
     *
     * @return {@code CONFIRMED} (inline or artifact) or {@code FAILED_SAFE}, never {@code null}
     */
    ReadDispatchResult read(SecretMaterial material, ReadDispatchRequest request) throws Exception;
  }

  private final CustodyWindow window;
  private final Provider provider;

  /** @throws IllegalArgumentException when {@code store} or {@code provider} is {@code null} */
  public CustodyReadDispatcher(SecretStore store, Provider provider) {
    this.window = new CustodyWindow(store);
    if (provider == null) {
      throw new IllegalArgumentException("provider is required");
    }
    this.provider = provider;
  }

  /**
   * Resolves, redeems and reads once.
   *
   * @return the provider's result, or a {@code FAILED_SAFE} result when custody failed before the provider call
   * @throws CustodyException when the provider failed or returned an invalid result
   * @throws InterruptedException when the provider was interrupted
   */
  @Override
  public ReadDispatchResult read(ReadDispatchRequest request) throws InterruptedException {
    if (request == null) {
      throw new IllegalArgumentException("request is required");
    }
    return window.dispatch(request.connection(), request.organizationId(),
        material -> provider.read(material, request), CustodyReadDispatcher::texts,
        CustodyReadDispatcher::notStarted);
  }

  /** The {@code FAILED_SAFE} result of a read that custody stopped before the provider was entered. */
  static ReadDispatchResult notStarted(CustodyErrorCode code) {
    NormalizedErrorCode errorCode = CustodyEffectDispatcher.notStarted(code).errorCode();
    return ReadDispatchResult.failedSafe(new NormalizedError(errorCode, NOT_STARTED_MESSAGE + code.name()));
  }

  /** Every text of a result that could carry the material. */
  static List<String> texts(ReadDispatchResult result) {
    List<String> texts = new ArrayList<>();
    strings(result.inlineResult(), texts);
    ReadArtifact artifact = result.artifact();
    if (artifact != null) {
      texts.add(artifact.mediaType());
      texts.add(artifact.contentSha256());
      texts.add(artifact.artifactRef().value());
    }
    texts.add(CustodyWindow.message(result.normalizedError()));
    return texts;
  }

  private static void strings(@Nullable Object value, List<String> texts) {
    if (value instanceof String text) {
      texts.add(text);
    } else if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        texts.add(String.valueOf(entry.getKey()));
        strings(entry.getValue(), texts);
      }
    } else if (value instanceof List<?> list) {
      for (Object element : list) {
        strings(element, texts);
      }
    }
  }

  @Override
  public String toString() {
    return "CustodyReadDispatcher[store=" + window + "]";
  }
}
