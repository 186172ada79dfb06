package io.zeocore.connections.contract;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;

/**
 * Contract instants on the wire: ISO-8601 in UTC with exactly six fractional digits, e.g.
 * {@code 2026-01-02T03:04:05.000006Z}. Reading accepts any ISO-8601 date-time with an offset ({@code Z} or
 * {@code +hh:mm}) and truncates to microseconds; numbers and offset-less strings are refused.
 */
final class InstantJson {

  static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private static final long SECONDS_PER_DAY = 86_400L;

  /** First second of year 0000 and of year 10000: {@link #FORMAT} writes exactly four unsigned year digits between. */
  private static final long FOUR_DIGIT_YEARS_FROM = LocalDate.of(0, 1, 1).toEpochDay() * SECONDS_PER_DAY;

  private static final long FOUR_DIGIT_YEARS_UNTIL = LocalDate.of(10_000, 1, 1).toEpochDay() * SECONDS_PER_DAY;

  /** {@code PLACE_VALUES[i]} is 10<sup>i</sup>, the value of a number's digit {@code i} places left of its last. */
  private static final int[] PLACE_VALUES = {1, 10, 100, 1_000, 10_000, 100_000};

  private InstantJson() {}

  static String format(Instant instant) {
    return FORMAT.format(instant.truncatedTo(ChronoUnit.MICROS));
  }

  /**
   * Appends exactly the characters of {@link #format(Instant)}, without a formatter for the years 0000 to 9999 (the
   * digits are written from the epoch second and nanosecond); other years, which {@link #FORMAT} writes with a sign,
   * go through {@link #format(Instant)}.
   *
   * @throws java.time.DateTimeException as {@link #format(Instant)} does, for an instant beyond the formatter's range
   */
  static void appendTo(Instant instant, StringBuilder out) {
    long seconds = instant.getEpochSecond();
    if (seconds < FOUR_DIGIT_YEARS_FROM || seconds >= FOUR_DIGIT_YEARS_UNTIL) {
      out.append(format(instant));
      return;
    }
    LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, SECONDS_PER_DAY));
    int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
    digits(date.getYear(), 4, out);
    out.append('-');
    digits(date.getMonthValue(), 2, out);
    out.append('-');
    digits(date.getDayOfMonth(), 2, out);
    out.append('T');
    digits(secondOfDay / 3600, 2, out);
    out.append(':');
    digits(secondOfDay / 60 % 60, 2, out);
    out.append(':');
    digits(secondOfDay % 60, 2, out);
    out.append('.');
    digits(instant.getNano() / 1000, 6, out); // truncated to microseconds, as format does
    out.append('Z');
  }

  /** {@code value} (not negative, below 10<sup>{@code width}</sup>) in decimal, zero-padded to {@code width} digits. */
  private static void digits(int value, int width, StringBuilder out) {
    for (int unit = PLACE_VALUES[width - 1]; unit > 0; unit /= 10) {
      out.append((char) ('0' + value / unit % 10));
    }
  }

  static final class Writer extends ValueSerializer<Instant> {
    @Override
    public void serialize(Instant value, JsonGenerator gen, SerializationContext ctxt) {
      gen.writeString(format(value));
    }

    @Override
    public Class<?> handledType() {
      return Instant.class;
    }
  }

  static final class Reader extends JsonStringReader<Instant> {

    Reader() {
      super(Instant.class, "instant must be ISO-8601 with an offset, e.g. 2026-01-02T03:04:05.000006Z");
    }

    @Override
    @Nullable Instant parse(String text) {
      try {
        return OffsetDateTime.parse(text).toInstant().truncatedTo(ChronoUnit.MICROS);
      } catch (DateTimeException e) {
        return null;
      }
    }
  }
}
