package io.zeocore.connections.store;

/**
 * A sanitized persistence failure of a {@link ConnectionStore}: the message names the rule or the conflict (for
 * example {@code transition is not allowed}), never a document, body or secret, and the cause (if any) is never
 * surfaced by ZeoCore in records, receipts or events.
 */
public class ConnectionStoreException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ConnectionStoreException(String message) {
    super(message);
  }

  public ConnectionStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
