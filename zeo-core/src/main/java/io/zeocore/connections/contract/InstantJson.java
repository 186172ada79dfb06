package io.zeocore.connections.contract;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;

/**
 * Contract instants on the wire: ISO-8601 in UTC with exactly six fractional digits, e.g.
 * {@code 2026-01-02T03:04:05.000006Z}. Reading accepts any ISO-8601 date-time with an offset ({@code Z} or
 * {@code +hh:mm}) and truncates to microseconds; numbers and offset-less strings are refused.
 */
final class InstantJson {

  static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private InstantJson() {}

  static String format(Instant instant) {
    return FORMAT.format(instant.truncatedTo(ChronoUnit.MICROS));
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

  static final class Reader extends ValueDeserializer<Instant> {
    @Override
    public Instant deserialize(JsonParser p, DeserializationContext ctxt) {
      if (p.currentToken() != JsonToken.VALUE_STRING) {
        return (Instant) ctxt.handleUnexpectedToken(Instant.class, p);
      }
      String text = p.getString();
      try {
        return OffsetDateTime.parse(text).toInstant().truncatedTo(ChronoUnit.MICROS);
      } catch (DateTimeException e) {
        return (Instant) ctxt.handleWeirdStringValue(Instant.class, text,
            "instant must be ISO-8601 with an offset, e.g. 2026-01-02T03:04:05.000006Z");
      }
    }

    @Override
    public Class<?> handledType() {
      return Instant.class;
    }
  }
}
