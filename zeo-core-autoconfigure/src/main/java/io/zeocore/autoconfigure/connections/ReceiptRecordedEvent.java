package io.zeocore.autoconfigure.connections;

import io.zeocore.connections.contract.EffectReceipt;
import java.util.Objects;

/**
 * Published after an effect receipt has been durably committed, in commit order, on the thread that recorded it.
 * Carries the stored receipt (state, normalized error code and ZeoCore's message, instants, evidence references and
 * digests): never a request body, secret or provider text.
 *
 * @param receipt the receipt as stored
 */
public record ReceiptRecordedEvent(EffectReceipt receipt) {

  public ReceiptRecordedEvent {
    Objects.requireNonNull(receipt, "receipt");
  }
}
