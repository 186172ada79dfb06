package io.zeocore.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;

/**
 * ZeoCore's one JSON form of a {@link Duration}: a number of milliseconds, a whole number when the duration is whole
 * milliseconds ({@code 200}) and a plain decimal with up to six fraction digits otherwise ({@code 0.032919} for
 * 32 919 ns), never an exponent; read back exactly, to the nanosecond. The same number means the same duration in
 * {@code application.yml}, where a bare number is milliseconds too.
 */
public final class MillisecondsJson {

  private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

  private MillisecondsJson() {}

  /** {@code duration} in milliseconds, exact. */
  public static BigDecimal toMillis(Duration duration) {
    BigInteger nanos = BigInteger.valueOf(duration.getSeconds()).multiply(NANOS_PER_SECOND)
        .add(BigInteger.valueOf(duration.getNano()));
    BigDecimal millis = new BigDecimal(nanos).movePointLeft(6).stripTrailingZeros();
    return millis.scale() < 0 ? millis.setScale(0) : millis;
  }

  /** The duration of {@code millis} milliseconds, rounded down to the nanosecond. */
  public static Duration fromMillis(BigDecimal millis) {
    BigInteger nanos = millis.movePointRight(6).toBigInteger();
    BigInteger[] secondsAndNanos = nanos.divideAndRemainder(NANOS_PER_SECOND);
    return Duration.ofSeconds(secondsAndNanos[0].longValueExact(), secondsAndNanos[1].longValue());
  }

  /** Writes a duration as its milliseconds. */
  public static final class Writer extends ValueSerializer<Duration> {
    @Override
    public void serialize(Duration value, JsonGenerator gen, SerializationContext ctxt) {
      gen.writeNumber(toMillis(value).toPlainString());
    }
  }

  /** Reads a number of milliseconds (integer or decimal). */
  public static final class Reader extends ValueDeserializer<Duration> {
    @Override
    public Duration deserialize(JsonParser p, DeserializationContext ctxt) {
      if (p.currentToken() != JsonToken.VALUE_NUMBER_INT && p.currentToken() != JsonToken.VALUE_NUMBER_FLOAT) {
        return (Duration) ctxt.handleUnexpectedToken(Duration.class, p);
      }
      try {
        return fromMillis(p.getDecimalValue());
      } catch (ArithmeticException outOfRange) {
        return (Duration) ctxt.handleWeirdNumberValue(Duration.class, p.getNumberValue(),
            "milliseconds out of a duration's range");
      }
    }
  }
}
