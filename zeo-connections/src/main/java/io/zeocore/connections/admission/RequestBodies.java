package io.zeocore.connections.admission;

import io.zeocore.connections.internal.JsonValues;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Strict parsing of a runtime request body: UTF-8 without malformed or overlong sequences, encoded surrogates or a
 * byte-order mark; JSON without {@code NaN}/{@code Infinity}, comments, trailing content or escaped lone surrogates;
 * no key repeated within any object at any depth. Numbers keep their exact value (fractions as
 * {@link BigDecimal}, so {@code 1e400} never becomes infinity).
 */
final class RequestBodies {

  private static final JsonMapper PARSER = JsonMapper.builder(JsonFactory.builder()
          .streamReadConstraints(JsonValues.readConstraints()).build())
      .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  private RequestBodies() {}

  /** Thrown for a repeated key; kept apart from other syntax errors. */
  static final class DuplicateKeyException extends Exception {
    private static final long serialVersionUID = 1L;

    DuplicateKeyException() {
      super(null, null, false, false);
    }
  }

  /** Thrown for anything that is not strict UTF-8 JSON. */
  static final class InvalidJsonException extends Exception {
    private static final long serialVersionUID = 1L;

    InvalidJsonException() {
      super(null, null, false, false);
    }
  }

  static @Nullable Object parse(byte[] body) throws DuplicateKeyException, InvalidJsonException {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body))
          .toString();
    } catch (CharacterCodingException e) {
      throw new InvalidJsonException();
    }
    if (text.startsWith("\uFEFF")) {
      throw new InvalidJsonException();
    }
    try (JsonParser parser = PARSER.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new InvalidJsonException();
      }
      Object value = read(parser, first);
      if (parser.nextToken() != null) {
        throw new InvalidJsonException();
      }
      return value;
    } catch (JacksonException e) {
      throw new InvalidJsonException();
    }
  }

  private static @Nullable Object read(JsonParser parser, JsonToken token) throws DuplicateKeyException, InvalidJsonException {
    switch (token) {
      case START_OBJECT -> {
        Map<String, Object> object = new LinkedHashMap<>();
        for (JsonToken next = parser.nextToken(); next != JsonToken.END_OBJECT; next = parser.nextToken()) {
          String name = checked(parser.currentName());
          Object value = read(parser, parser.nextToken());
          if (object.containsKey(name)) {
            throw new DuplicateKeyException();
          }
          object.put(name, value);
        }
        return Collections.unmodifiableMap(object);
      }
      case START_ARRAY -> {
        List<Object> array = new ArrayList<>();
        for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
          array.add(read(parser, next));
        }
        return Collections.unmodifiableList(array);
      }
      case VALUE_STRING -> {
        return checked(parser.getString());
      }
      case VALUE_NUMBER_INT -> {
        return parser.getNumberValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return parser.getDecimalValue();
      }
      case VALUE_TRUE -> {
        return Boolean.TRUE;
      }
      case VALUE_FALSE -> {
        return Boolean.FALSE;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new InvalidJsonException();
    }
  }

  /** Refuses strings with an unpaired surrogate (only possible through {@code \\uD800}-style escapes). */
  private static String checked(String value) throws InvalidJsonException {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(i + 1))) {
          throw new InvalidJsonException();
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        throw new InvalidJsonException();
      }
    }
    return value;
  }
}
