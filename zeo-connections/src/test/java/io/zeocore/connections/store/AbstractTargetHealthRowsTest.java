package io.zeocore.connections.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.execution.FailureKind;
import io.zeocore.execution.TargetHealthStore;
import io.zeocore.execution.TargetHealthStore.CoolingReason;
import io.zeocore.execution.TargetHealthStore.Entry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store's side of target health on a real database: cooldowns by the database's clock, a later end kept, the probe
 * lease handed to one holder at a time and taken over once expired, and two store instances (two application
 * instances) seeing one another's rows.
 */
abstract class AbstractTargetHealthRowsTest {

  private JdbcConnectionStore store;
  private JdbcConnectionStore other;

  /** A new store instance on the test's database: two calls stand for two application instances. */
  abstract JdbcConnectionStore openStore();

  @BeforeEach
  void open() {
    store = openStore();
    other = openStore();
  }

  @AfterEach
  void close() {
    store.close();
    other.close();
  }

  private static Entry only(TargetHealthStore health) {
    List<Entry> entries = health.read();
    assertThat(entries).hasSize(1);
    return entries.get(0);
  }

  /** Waits (up to 20 s) until the database's clock has passed {@code targetId}'s cooldown. */
  private static void awaitCooled(TargetHealthStore health, String targetId) throws InterruptedException {
    long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (health.read().stream().anyMatch(e -> e.targetId().equals(targetId) && !e.coolingLeft().isZero())) {
      assertThat(System.nanoTime()).as("the cooldown ended").isLessThan(until);
      Thread.sleep(20);
    }
  }

  @Test
  void aCooldownIsReadBackByEveryInstanceWithWhatIsLeftByTheDatabasesClock() {
    store.targetHealth().coolDown("openai-api", Duration.ofSeconds(30), FailureKind.RATE_LIMIT,
        CoolingReason.RETRY_AFTER);
    Entry entry = only(other.targetHealth());
    assertThat(entry.targetId()).isEqualTo("openai-api");
    assertThat(entry.cause()).isEqualTo(FailureKind.RATE_LIMIT);
    assertThat(entry.reason()).isEqualTo(CoolingReason.RETRY_AFTER);
    assertThat(entry.coolingLeft()).isBetween(Duration.ofSeconds(20), Duration.ofSeconds(30));
    assertThat(entry.probeHolder()).isNull();
    assertThat(entry.probeLeaseLeft()).isZero();
  }

  @Test
  void aShorterCooldownNeverCutsALongerOneShort() {
    store.targetHealth().coolDown("t", Duration.ofMinutes(5), FailureKind.RATE_LIMIT, CoolingReason.RETRY_AFTER);
    other.targetHealth().coolDown("t", Duration.ofSeconds(1), FailureKind.TIMEOUT, CoolingReason.REPEATED_FAILURES);
    Entry entry = only(store.targetHealth());
    assertThat(entry.coolingLeft()).isGreaterThan(Duration.ofMinutes(4));
    assertThat(entry.cause()).isEqualTo(FailureKind.RATE_LIMIT);
    other.targetHealth().coolDown("t", Duration.ofMinutes(10), FailureKind.TIMEOUT, CoolingReason.PROBE_FAILED);
    entry = only(store.targetHealth());
    assertThat(entry.coolingLeft()).isGreaterThan(Duration.ofMinutes(9));
    assertThat(entry.reason()).isEqualTo(CoolingReason.PROBE_FAILED);
  }

  @Test
  void theProbeLeaseGoesToOneHolderOnlyOnceTheCooldownIsOver() throws Exception {
    TargetHealthStore a = store.targetHealth();
    TargetHealthStore b = other.targetHealth();
    a.coolDown("t", Duration.ofMillis(300), FailureKind.RATE_LIMIT, CoolingReason.RETRY_AFTER);
    assertThat(a.tryProbe("t", "a", Duration.ofMinutes(1))).as("still cooling").isFalse();
    awaitCooled(a, "t");
    assertThat(a.tryProbe("t", "a", Duration.ofMinutes(1))).isTrue();
    assertThat(b.tryProbe("t", "b", Duration.ofMinutes(1))).isFalse();
    Entry entry = only(b);
    assertThat(entry.probeHolder()).isEqualTo("a");
    assertThat(entry.probeLeaseLeft()).isGreaterThan(Duration.ofSeconds(30));

    b.reopen("t", "b"); // not b's lease: nothing happens
    assertThat(b.read()).hasSize(1);
    a.releaseProbe("t", "a");
    assertThat(b.tryProbe("t", "b", Duration.ofMinutes(1))).isTrue();
    b.reopen("t", "b");
    assertThat(a.read()).isEmpty();
    assertThat(a.tryProbe("t", "a", Duration.ofMinutes(1))).as("nothing to probe: the target may be called").isTrue();
  }

  @Test
  void aLeaseWhoseHolderDiedIsTakenOverOnceItExpires() throws Exception {
    TargetHealthStore a = store.targetHealth();
    TargetHealthStore b = other.targetHealth();
    a.coolDown("t", Duration.ofMillis(1), FailureKind.TIMEOUT, CoolingReason.REPEATED_FAILURES);
    awaitCooled(a, "t");
    assertThat(a.tryProbe("t", "a", Duration.ofMillis(200))).isTrue();
    long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!b.tryProbe("t", "b", Duration.ofMinutes(1))) {
      assertThat(System.nanoTime()).as("the dead holder's lease expired").isLessThan(until);
      Thread.sleep(20);
    }
    assertThat(only(a).probeHolder()).isEqualTo("b");
  }

  @Test
  void aFailedProbeCoolsAgainAndDropsItsLease() throws Exception {
    TargetHealthStore a = store.targetHealth();
    a.coolDown("t", Duration.ofMillis(1), FailureKind.RATE_LIMIT, CoolingReason.RETRY_AFTER);
    awaitCooled(a, "t");
    assertThat(a.tryProbe("t", "a", Duration.ofMinutes(1))).isTrue();
    a.coolDown("t", Duration.ofSeconds(30), FailureKind.RATE_LIMIT, CoolingReason.PROBE_FAILED);
    Entry entry = only(other.targetHealth());
    assertThat(entry.probeHolder()).isNull();
    assertThat(entry.reason()).isEqualTo(CoolingReason.PROBE_FAILED);
    assertThat(entry.coolingLeft()).isGreaterThan(Duration.ofSeconds(20));
  }

  @Test
  void anAnswerFromAPolicyThatIgnoresCooldownsReopensWhateverTheLease() {
    store.targetHealth().coolDown("t", Duration.ofMinutes(1), FailureKind.RATE_LIMIT, CoolingReason.RETRY_AFTER);
    other.targetHealth().reopen("t", null);
    assertThat(store.targetHealth().read()).isEmpty();
  }
}
