package io.zeocore.test.effects;

import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.ReconciliationResult;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reconcilers for effect tests: one that finds the effect happened, one that finds it did not, one that cannot tell,
 * and one that cannot tell the first few times and then resolves (an ambiguity that recovery settles later).
 */
public final class ScriptedReconcilers {

  private ScriptedReconcilers() {}

  /** Finds at the provider that the effect happened. */
  public static EffectReconciler confirming() {
    return request -> ReconciliationResult.confirmed(evidence(request.effectId().value()),
        Digests.sha256Hex(("confirmed:" + request.effectId().value()).getBytes(StandardCharsets.UTF_8)));
  }

  /** Finds at the provider that the effect did not happen. */
  public static EffectReconciler failingSafely() {
    return request -> ReconciliationResult.failedSafe(evidence(request.effectId().value()),
        new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "not found at the scripted provider"));
  }

  /** Cannot tell: the effect stays ambiguous. */
  public static EffectReconciler unresolved() {
    return request -> ReconciliationResult.unresolved(evidence(request.effectId().value()));
  }

  /** Cannot tell the first {@code unresolvedTimes} times it is asked, then answers as {@code then} does. */
  public static EffectReconciler resolvingAfter(int unresolvedTimes, EffectReconciler then) {
    if (unresolvedTimes < 0) {
      throw new IllegalArgumentException("unresolvedTimes must be 0 or more");
    }
    AtomicInteger asked = new AtomicInteger();
    EffectReconciler unresolved = unresolved();
    return request -> asked.incrementAndGet() <= unresolvedTimes ? unresolved.reconcile(request)
        : then.reconcile(request);
  }

  private static String evidence(String effectId) {
    return Digests.sha256Hex(("evidence:" + effectId).getBytes(StandardCharsets.UTF_8));
  }
}
