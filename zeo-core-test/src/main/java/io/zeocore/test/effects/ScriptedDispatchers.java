package io.zeocore.test.effects;

import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.effect.EffectDispatchRequest;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectDispatcher;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Dispatchers for effect tests, each keeping the requests it was called with ({@link Recording#requests()}), so a
 * test can check that a provider was called exactly once: one that confirms, one that fails safely (the provider
 * proved nothing happened) and one that loses the answer (the call was made and its outcome is unknown: the effect
 * becomes {@code AMBIGUOUS} and goes to reconciliation).
 */
public final class ScriptedDispatchers {

  private ScriptedDispatchers() {}

  /** A dispatcher that remembers its requests. */
  public interface Recording extends EffectDispatcher {

    /** Every request it was called with, in order. */
    List<EffectDispatchRequest> requests();
  }

  /** Confirms every effect (a confirmation digest of the effect id). */
  public static Recording confirming() {
    return recording(request -> EffectDispatchResult.confirmed(
        Digests.sha256Hex(("confirmed:" + request.effectId().value()).getBytes(StandardCharsets.UTF_8))));
  }

  /** Fails every effect safely: the provider refused it and nothing happened. */
  public static Recording failingSafely() {
    return recording(request -> EffectDispatchResult.failedSafe(
        new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "refused by the scripted provider")));
  }

  /** Loses every answer: the call was made, then the connection dropped (the effect becomes ambiguous). */
  public static Recording losingTheAnswer() {
    return recording(request -> {
      throw new java.io.IOException("connection reset after the request was sent");
    });
  }

  private static Recording recording(EffectDispatcher dispatcher) {
    List<EffectDispatchRequest> requests = new CopyOnWriteArrayList<>();
    return new Recording() {
      @Override
      public EffectDispatchResult dispatch(EffectDispatchRequest request) throws Exception {
        requests.add(request);
        return dispatcher.dispatch(request);
      }

      @Override
      public List<EffectDispatchRequest> requests() {
        return List.copyOf(requests);
      }
    };
  }
}
