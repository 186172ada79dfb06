package io.zeocore.connections.internal;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The shortest decimal that reads back as a given {@code double}, as both of ZeoCore's canonical JSON forms need it:
 * RFC 8785's (ECMAScript's number to string) for authorizations and Python's {@code repr(float)} for observation
 * results. Both choose the decimal with the fewest significant digits that parses back to the same {@code double}
 * and, among those, the one nearest to it (the even one on a tie). {@link Double#toString} is not that before Java
 * 19: it sometimes writes one or two digits more than needed ({@code 2.82879384806159E17} as
 * {@code 2.82879384806159008E17}, {@code 5E-324} as {@code 4.9E-324}), so the canonical bytes, and the digests over
 * them, would differ from every other implementation's for such values.
 */
public final class ShortestDecimal {

  private ShortestDecimal() {}

  /**
   * The decimal with the fewest significant digits that reads back as {@code d}, the nearest to {@code d} among
   * those, the even one on a tie; trailing zeros stripped.
   *
   * @param d positive and finite
   * @throws IllegalArgumentException if {@code d} is not positive and finite
   */
  public static BigDecimal of(double d) {
    if (!(d > 0) || Double.isInfinite(d)) {
      throw new IllegalArgumentException("not a positive finite double: " + d);
    }
    BigDecimal exact = new BigDecimal(d);
    // Double.toString always reads back as d, so its length bounds the shortest one; a length reads back when a
    // decimal of that many digits does, and then every longer length does too, so the shortest is found by going
    // down from there (for almost every double, Double.toString is already shortest and one step shows it).
    int precision = new BigDecimal(Double.toString(d)).stripTrailingZeros().precision();
    // one of the two neighbours at Double.toString's precision reads back: a decimal of that length does
    BigDecimal shortest = Objects.requireNonNull(nearestReadingBack(exact, precision, d), "a neighbour reads back");
    for (BigDecimal shorter; precision > 1 && (shorter = nearestReadingBack(exact, precision - 1, d)) != null; ) {
      shortest = shorter;
      precision--;
    }
    return shortest.stripTrailingZeros();
  }

  /**
   * Of the two decimals with {@code precision} significant digits on either side of {@code exact} (the value of
   * {@code d}), the one that reads back as {@code d}, the nearer (then the even) one when both do; {@code null} when
   * neither does.
   */
  private static @Nullable BigDecimal nearestReadingBack(BigDecimal exact, int precision, double d) {
    BigDecimal down = exact.round(new MathContext(precision, RoundingMode.FLOOR));
    BigDecimal up = exact.round(new MathContext(precision, RoundingMode.CEILING));
    boolean downReads = Double.parseDouble(down.toString()) == d;
    boolean upReads = Double.parseDouble(up.toString()) == d;
    if (downReads && upReads && down.compareTo(up) != 0) {
      int closer = exact.subtract(down).compareTo(up.subtract(exact));
      return closer < 0 ? down : closer > 0 ? up : down.unscaledValue().testBit(0) ? up : down;
    }
    return downReads ? down : upReads ? up : null;
  }
}
