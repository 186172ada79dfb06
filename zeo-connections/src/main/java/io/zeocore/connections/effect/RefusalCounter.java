package io.zeocore.connections.effect;

import io.zeocore.connections.contract.AuthorizationRefusalReason;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts refusals that are not stored (unauthenticated input) by reason, and logs them by reason code only: at
 * {@code WARN} when the count reaches a power of two (1, 2, 4, 8, …), so a flood writes a logarithmic number of warning
 * lines, and at {@code DEBUG} otherwise. Thread-safe, lock-free.
 */
final class RefusalCounter {

  private static final Logger LOG = LoggerFactory.getLogger(EffectOrchestrator.class);
  private static final AuthorizationRefusalReason[] REASONS = AuthorizationRefusalReason.values();

  private final AtomicLongArray counts = new AtomicLongArray(REASONS.length);

  void count(AuthorizationRefusalReason reason) {
    long count = counts.incrementAndGet(reason.ordinal());
    if (Long.bitCount(count) == 1) {
      LOG.warn("refused an unauthenticated effect authorization ({}); not stored; {} so far for this reason", reason,
          count);
    } else if (LOG.isDebugEnabled()) {
      LOG.debug("refused an unauthenticated effect authorization ({}); not stored; {} so far", reason, count);
    }
  }

  Map<AuthorizationRefusalReason, Long> snapshot() {
    Map<AuthorizationRefusalReason, Long> snapshot = new EnumMap<>(AuthorizationRefusalReason.class);
    for (AuthorizationRefusalReason reason : REASONS) {
      long count = counts.get(reason.ordinal());
      if (count > 0) {
        snapshot.put(reason, count);
      }
    }
    return java.util.Collections.unmodifiableMap(snapshot);
  }
}
