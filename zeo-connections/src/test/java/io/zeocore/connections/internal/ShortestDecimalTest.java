package io.zeocore.connections.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShortestDecimalTest {

  /** Expected digits from Python's {@code repr}, which writes the shortest round-tripping decimal. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      // Double.toString on Java 17 writes one or two digits more for these
      "0x1.f67ea69ed3795p+57, 2.82879384806159e+17",
      "0x1.65a57fb032bacp+54, 2.516713363031211e+16",
      "0x1.a4700eca011c9p+57, 2.366853980787981e+17",
      "0x1.d2514fff72e89p+57, 2.625134863543053e+17",
      "0x1.25c6cc47e8f0ep+58, 3.307629954331944e+17",
      "0x1.8595f99feac77p+59, 8.772693224224347e+17",
      "0x1.a32c3e2907838p+59, 9.43893285837741e+17",
      "0x1.502d9bc739d27p+60, 1.514011828166666e+18",
      "0x1.f9f4778404bc3p+60, 2.278618518273115e+18",
      "0x1.a18e5b5fdffd0p+62, 7.522021656961696e+18",
      "0x0.0000000000001p-1022, 5e-324",
      // Double.toString is already shortest for these
      "0x1.1c37937e08000p+53, 1e+16",
      "0x1.1c37937e07fffp+53, 9999999999999998",
      "0x1.a36e2eb1c432dp-14, 0.0001",
      "0x1.9e0fcaf9380fcp-17, 1.234e-05",
      "0x1.fffffffffffffp+1023, 1.7976931348623157e+308",
      "0x1.3333333333334p-2, 0.30000000000000004",
  })
  void writesTheDigitsPythonsReprWrites(String hex, String python) {
    assertThat(ShortestDecimal.of(Double.parseDouble(hex))).isEqualByComparingTo(new BigDecimal(python));
    assertThat(ShortestDecimal.of(Double.parseDouble(hex)).precision())
        .isEqualTo(new BigDecimal(python).stripTrailingZeros().precision());
  }

  @Test
  void isTheShortestAndThenTheNearestDecimalForRandomDoubles() {
    SplittableRandom random = new SplittableRandom(20261204);
    for (int i = 0; i < 20_000; i++) {
      double d = Math.abs(Double.longBitsToDouble(random.nextLong()));
      if (Double.isNaN(d) || Double.isInfinite(d) || d == 0) {
        continue;
      }
      BigDecimal shortest = ShortestDecimal.of(d);
      BigDecimal exact = new BigDecimal(d);
      assertThat(readsBack(shortest, d)).as("reads back: %s", d).isTrue();
      int digits = shortest.precision();
      if (digits > 1) { // no decimal one digit shorter reads back: neither neighbour of d at that length does
        assertThat(readsBack(exact.round(new MathContext(digits - 1, RoundingMode.FLOOR)), d)).as("%s", d).isFalse();
        assertThat(readsBack(exact.round(new MathContext(digits - 1, RoundingMode.CEILING)), d)).as("%s", d)
            .isFalse();
      }
      BigDecimal step = BigDecimal.ONE.movePointLeft(shortest.scale()); // one unit in its last place
      for (BigDecimal other : new BigDecimal[] {shortest.subtract(step), shortest.add(step)}) {
        if (readsBack(other, d)) { // a rival of the same length: it is not nearer to d
          assertThat(exact.subtract(other).abs()).as("%s", d)
              .isGreaterThanOrEqualTo(exact.subtract(shortest).abs());
        }
      }
    }
  }

  @Test
  void refusesWhatHasNoPositiveFiniteValue() {
    for (double d : new double[] {0, -0.0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> ShortestDecimal.of(d)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not a positive finite double");
    }
  }

  private static boolean readsBack(BigDecimal decimal, double d) {
    return Double.parseDouble(decimal.toString()) == d;
  }
}
