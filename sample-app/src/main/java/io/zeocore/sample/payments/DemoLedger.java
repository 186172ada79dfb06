package io.zeocore.sample.payments;

import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.effect.EffectDispatchRequest;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectDispatcher;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectReconciliationRequest;
import io.zeocore.connections.effect.ReconciliationResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample's provider: an in-memory ledger standing in for a payment API. It is both the {@link EffectDispatcher}
 * (posts a payment, exactly once per execution) and the {@link EffectReconciler} (looks a posting up, never posts).
 *
 * <p>The request's {@code simulate} field drives the demo's provider behaviour:
 * <ul>
 *   <li>absent: the posting is confirmed;</li>
 *   <li>{@code decline}: the provider refuses and proves nothing happened ({@code FAILED_SAFE});</li>
 *   <li>{@code lost-response}: the posting happens but the answer is lost (the dispatcher throws), so the orchestrator
 *       records {@code AMBIGUOUS} and asks the reconciler, which finds the posting ({@code SUCCEEDED}).</li>
 * </ul>
 */
@Component
public class DemoLedger implements EffectDispatcher, EffectReconciler {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Map<EffectId, Long> postings = new ConcurrentHashMap<>();
  private final AtomicInteger dispatches = new AtomicInteger();

  @Override
  public EffectDispatchResult dispatch(EffectDispatchRequest request) throws IOException {
    dispatches.incrementAndGet();
    JsonNode body = JSON.readTree(request.requestBody());
    String simulate = body.path("simulate").asString("");
    if (simulate.equals("decline")) {
      return EffectDispatchResult.failedSafe(
          new NormalizedError(NormalizedErrorCode.REQUEST_REFUSED, "the demo ledger declined the payment"));
    }
    long amount = body.path("amountCents").asLong();
    postings.put(request.effectId(), amount);
    if (simulate.equals("lost-response")) {
      throw new IOException("connection reset after the posting was written");
    }
    return EffectDispatchResult.confirmed(digest(request.effectId(), amount));
  }

  @Override
  public ReconciliationResult reconcile(EffectReconciliationRequest request) {
    Long amount = postings.get(request.effectId());
    String evidence = digest(request.effectId(), amount == null ? -1 : amount);
    if (amount == null) {
      return ReconciliationResult.failedSafe(evidence,
          new NormalizedError(NormalizedErrorCode.FAILED_SAFE, "the demo ledger has no posting for the execution"));
    }
    return ReconciliationResult.confirmed(evidence, digest(request.effectId(), amount));
  }

  /** How many times a payment was dispatched since start (the orchestrator guarantees one per execution). */
  public int dispatchCount() {
    return dispatches.get();
  }

  private static String digest(EffectId effectId, long amount) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256")
          .digest(("demo-ledger:" + effectId.value() + ":" + amount).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash);
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException(impossible);
    }
  }
}
