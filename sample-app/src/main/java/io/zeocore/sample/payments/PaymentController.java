package io.zeocore.sample.payments;

import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.effect.EffectPreflightException;
import io.zeocore.connections.effect.EffectResult;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/payments}: submit a payment (a durable effect), read an execution's history and receipts, and replay
 * an earlier authorization to see that it never dispatches twice.
 */
@RestController
@RequestMapping("/api/payments")
public class PaymentController {

  private final PaymentService payments;

  public PaymentController(PaymentService payments) {
    this.payments = payments;
  }

  @PostMapping
  public ResponseEntity<PaymentOutcome> pay(@RequestBody PaymentService.PaymentRequest request) {
    if (request.amountCents() <= 0 || request.reference() == null || request.reference().isBlank()) {
      return ResponseEntity.badRequest().build();
    }
    return ResponseEntity.status(HttpStatus.CREATED).body(PaymentOutcome.of(payments.pay(request)));
  }

  @PostMapping("/{effectId}/replay")
  public ResponseEntity<PaymentOutcome> replay(@PathVariable String effectId) {
    return payments.replay(new EffectId(effectId)).map(PaymentOutcome::of).map(ResponseEntity::ok)
        .orElse(ResponseEntity.notFound().build());
  }

  @GetMapping("/{effectId}")
  public ResponseEntity<PaymentRecord> read(@PathVariable String effectId) {
    EffectId id = new EffectId(effectId);
    return payments.effect(id)
        .map(effect -> new PaymentRecord(effect.effectId().value(), effect.state().name(),
            payments.history(id).stream().map(Transition::of).toList(),
            payments.receipts(id).stream().map(Receipt::of).toList()))
        .map(ResponseEntity::ok)
        .orElse(ResponseEntity.notFound().build());
  }

  /** An authorized request that failed a preflight check: nothing was persisted or dispatched. */
  @ExceptionHandler(EffectPreflightException.class)
  ResponseEntity<Map<String, String>> preflightFailed(EffectPreflightException failure) {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("preflight", failure.code().name());
    if (failure.admissionCode() != null) {
      body.put("admission", failure.admissionCode().name());
    }
    return ResponseEntity.unprocessableContent().body(body);
  }

  /** What the orchestrator returned. */
  public record PaymentOutcome(String effectId, String state, String refusalReason) {
    static PaymentOutcome of(EffectResult result) {
      return new PaymentOutcome(result.effectId() == null ? null : result.effectId().value(),
          result.state().name(), result.refusalReason() == null ? null : result.refusalReason().name());
    }
  }

  /** An execution with its whole history and every receipt. */
  public record PaymentRecord(String effectId, String state, List<Transition> history, List<Receipt> receipts) {}

  /** One persisted state. */
  public record Transition(String state, Instant at) {
    static Transition of(EffectRecord snapshot) {
      return new Transition(snapshot.state().name(), snapshot.updatedAt());
    }
  }

  /** One append-only receipt: codes, instants and evidence references only. */
  public record Receipt(String finalState, String errorCode, Instant recordedAt, Instant dispatchStartedAt,
      Instant resolvedAt, String confirmationEvidenceRef, Instant resolvesAmbiguousRecordedAt) {
    static Receipt of(EffectReceipt receipt) {
      return new Receipt(receipt.finalState().name(),
          receipt.normalizedError() == null ? null : receipt.normalizedError().code().name(),
          receipt.recordedAt(), receipt.dispatchStartedAt(), receipt.resolvedAt(),
          receipt.confirmationEvidenceRef() == null ? null : receipt.confirmationEvidenceRef().value(),
          receipt.resolvesAmbiguousRecordedAt());
    }
  }
}
