package io.zeocore.execution;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Execution ids: {@code exec-} followed by a random (version 4) UUID in its canonical lowercase form, for example
 * {@code exec-3f1c9a0e-7b2d-4c55-9e1a-0d4b8c2f6a17} — the form the effects' ids take in the sample and the README, so
 * that one kind of id runs through logs, events, observations and results. Drawn from {@link ThreadLocalRandom}: ids
 * correlate one run's evidence and are not secrets, so the cost of {@link java.util.UUID#randomUUID()}'s secure random
 * (a shared, synchronized source) is not paid on every run.
 */
final class ExecutionIds {

  /** What every execution id starts with. */
  static final String PREFIX = "exec-";

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private ExecutionIds() {}

  static String next() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
    long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
    byte[] id = new byte[41];
    id[0] = 'e';
    id[1] = 'x';
    id[2] = 'e';
    id[3] = 'c';
    id[4] = '-';
    hex(high >>> 32, 8, id, 5);
    id[13] = '-';
    hex(high >>> 16, 4, id, 14);
    id[18] = '-';
    hex(high, 4, id, 19);
    id[23] = '-';
    hex(low >>> 48, 4, id, 24);
    id[28] = '-';
    hex(low, 12, id, 29);
    return new String(id, StandardCharsets.ISO_8859_1);
  }

  /** Writes the low {@code digits} hex digits of {@code value} at {@code offset}, most significant first. */
  private static void hex(long value, int digits, byte[] into, int offset) {
    for (int i = digits - 1; i >= 0; i--) {
      into[offset + i] = HEX[(int) (value & 0xF)];
      value >>>= 4;
    }
  }
}
