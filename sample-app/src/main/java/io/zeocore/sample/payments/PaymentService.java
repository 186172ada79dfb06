package io.zeocore.sample.payments;

import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.store.EffectStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Service;
import tools.jackson.databind.json.JsonMapper;

/**
 * Posts payments through the {@link EffectOrchestrator}: every payment gets an exact, signed authorization; the
 * orchestrator verifies it, commits {@code DISPATCH_STARTED} before the ledger is entered, dispatches once and keeps
 * append-only receipts.
 */
@Service
public class PaymentService {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final EffectOrchestrator orchestrator;
  private final EffectStore store;
  private final DemoAuthority authority;
  private final DemoLedger ledger;
  /** What each payment was authorized with, kept in memory so the demo can replay it. */
  private final Map<EffectId, Submitted> submitted = new ConcurrentHashMap<>();

  public PaymentService(EffectOrchestrator orchestrator, EffectStore store, DemoAuthority authority,
      DemoLedger ledger) {
    this.orchestrator = orchestrator;
    this.store = store;
    this.authority = authority;
    this.ledger = ledger;
  }

  /** A payment request as the API receives it. */
  public record PaymentRequest(long amountCents, String reference, String simulate) {}

  private record Submitted(EffectAuthorization authorization, byte[] body) {}

  /** Authorizes and executes one payment. */
  public EffectResult pay(PaymentRequest request) {
    Map<String, Object> fields = new java.util.LinkedHashMap<>();
    fields.put("amountCents", request.amountCents());
    fields.put("reference", request.reference());
    if (request.simulate() != null) {
      fields.put("simulate", request.simulate());
    }
    byte[] body = JSON.writeValueAsBytes(fields);
    EffectAuthorization authorization = authority.authorize(body, new IdempotencyKey("pay-" + UUID.randomUUID()));
    EffectId effectId = new EffectId("exec-" + UUID.randomUUID());
    EffectResult result = execute(authorization, effectId, body);
    if (result.effectId() != null) {
      submitted.put(result.effectId(), new Submitted(authorization, body));
    }
    return result;
  }

  /**
   * Sends the exact authorization and body of an earlier payment again. Its nonce is spent, so the orchestrator takes
   * the idempotent-replay path: it answers with the existing execution and never dispatches a second time.
   */
  public Optional<EffectResult> replay(EffectId effectId) {
    Submitted earlier = submitted.get(effectId);
    if (earlier == null) {
      return Optional.empty();
    }
    return Optional.of(execute(earlier.authorization(), new EffectId("exec-" + UUID.randomUUID()),
        earlier.body()));
  }

  private EffectResult execute(EffectAuthorization authorization, EffectId effectId, byte[] body) {
    return orchestrator.execute(DemoLedgerConnector.ORGANIZATION, DemoLedgerConnector.CONNECTION,
        DemoLedgerConnector.REVISION, DemoLedgerConnector.POST_PAYMENT, authorization, effectId, body, ledger,
        ledger);
  }

  public Optional<EffectRecord> effect(EffectId effectId) {
    return store.getEffect(DemoLedgerConnector.ORGANIZATION, effectId);
  }

  public List<EffectRecord> history(EffectId effectId) {
    return store.getEffectHistory(DemoLedgerConnector.ORGANIZATION, effectId);
  }

  public List<EffectReceipt> receipts(EffectId effectId) {
    return store.getReceiptsForEffect(DemoLedgerConnector.ORGANIZATION, effectId);
  }
}
