package io.zeocore.connections.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TimestampsTest {

  static final Instant T = Instant.parse("2026-03-01T10:00:00.123456789Z");

  @Test
  void aFixedClockYieldsOneMicrosecondSteps() {
    Timestamps timestamps = new Timestamps(InstantSource.fixed(T));
    Instant first = timestamps.next();
    assertThat(first).isEqualTo(T.truncatedTo(ChronoUnit.MICROS));
    assertThat(timestamps.next()).isEqualTo(first.plus(1, ChronoUnit.MICROS));
    assertThat(timestamps.next()).isEqualTo(first.plus(2, ChronoUnit.MICROS));
  }

  @Test
  void aClockGoingBackwardsNeverMovesTimeBackwards() {
    AtomicReference<Instant> now = new AtomicReference<>(T);
    Timestamps timestamps = new Timestamps(now::get);
    Instant first = timestamps.next();
    now.set(T.minusSeconds(30));
    assertThat(timestamps.next()).isEqualTo(first.plus(1, ChronoUnit.MICROS));
    now.set(T.plusSeconds(1));
    assertThat(timestamps.next()).isEqualTo(T.plusSeconds(1).truncatedTo(ChronoUnit.MICROS));
  }

  @Test
  void anInstantIsStrictlyAfterThePreviousOneGivenEvenFromAnotherInstance() {
    Timestamps timestamps = new Timestamps(InstantSource.fixed(T));
    Instant stored = T.plusSeconds(60).truncatedTo(ChronoUnit.MICROS);
    assertThat(timestamps.next(stored)).isEqualTo(stored.plus(1, ChronoUnit.MICROS));
    assertThat(timestamps.next()).isEqualTo(stored.plus(2, ChronoUnit.MICROS));
  }
}
