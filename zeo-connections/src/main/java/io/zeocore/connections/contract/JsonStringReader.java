package io.zeocore.connections.contract;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

/**
 * Reads a contract value that is written as one JSON string. Any other token is refused through
 * {@link DeserializationContext#handleUnexpectedToken}; a string the value does not accept is refused through
 * {@link DeserializationContext#handleWeirdStringValue} with this reader's fixed rule, so that the mapper's message
 * says what the value must be.
 *
 * @param <T> the value read
 */
abstract class JsonStringReader<T> extends ValueDeserializer<T> {

  private final Class<T> type;
  private final String rule;

  JsonStringReader(Class<T> type, String rule) {
    this.type = type;
    this.rule = rule;
  }

  /** The value {@code text} stands for, or {@code null} when it stands for none. */
  abstract @Nullable T parse(String text);

  @Override
  public final T deserialize(JsonParser p, DeserializationContext ctxt) {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      return type.cast(ctxt.handleUnexpectedToken(type, p));
    }
    String text = p.getString();
    T value = parse(text);
    return value != null ? value : type.cast(ctxt.handleWeirdStringValue(type, text, rule));
  }

  @Override
  public final Class<?> handledType() {
    return type;
  }
}
