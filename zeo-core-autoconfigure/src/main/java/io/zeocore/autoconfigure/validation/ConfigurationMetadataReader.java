package io.zeocore.autoconfigure.validation;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads the {@code groups} and {@code properties} entries of a Spring Boot configuration-metadata file (JSON, RFC 8259)
 * without a JSON library: the key check runs on every start-up, and loading and initializing Jackson for these few
 * kilobytes cost more than everything else the check does (about 60 ms of CPU in a fresh JVM, where nothing else on
 * a start-up needs Jackson). Each entry is handed over as its string-valued fields ({@code name}, {@code type},
 * {@code sourceType}, ...); other values (numbers, booleans, nested objects and arrays) are checked and skipped, and
 * every other top-level section ({@code hints}, ...) is skipped the same way.
 *
 * <p>The whole document is checked: anything that is not well-formed JSON (an unterminated string, a bad escape, a
 * missing comma, trailing text, nesting deeper than {@value #MAX_DEPTH}) is an {@link IllegalArgumentException}
 * naming the offset, and entries handed over before it was found stay handed over.
 */
final class ConfigurationMetadataReader {

  /** The deepest nesting accepted; Spring Boot's metadata nests three levels deep. */
  static final int MAX_DEPTH = 64;

  /** Receives one entry of a metadata file. */
  @FunctionalInterface
  interface EntryConsumer {

    /**
     * @param section {@code groups} or {@code properties}
     * @param strings the entry's string-valued fields, in the file's order
     */
    void accept(String section, Map<String, String> strings);
  }

  private final String json;
  private int position;

  private ConfigurationMetadataReader(String json) {
    this.json = json;
  }

  /**
   * Hands every object of the top-level {@code groups} and {@code properties} arrays of {@code json} to
   * {@code entries}, in the file's order.
   *
   * @throws IllegalArgumentException if {@code json} is not one well-formed JSON object
   */
  static void read(String json, EntryConsumer entries) {
    ConfigurationMetadataReader reader = new ConfigurationMetadataReader(json);
    reader.document(entries);
  }

  private void document(EntryConsumer entries) {
    object(section -> {
      if ((section.equals("groups") || section.equals("properties")) && peek() == '[') {
        array(() -> {
          if (peek() == '{') {
            entries.accept(section, stringFields());
          } else {
            skipValue(2);
          }
        });
      } else {
        skipValue(1);
      }
    });
    if (peek() != -1) {
      throw malformed("the end of the document");
    }
  }

  /** The string-valued fields of the object at the position; other fields are skipped. */
  private Map<String, String> stringFields() {
    Map<String, String> fields = new LinkedHashMap<>();
    object(field -> {
      if (peek() == '"') {
        fields.put(field, string());
      } else {
        skipValue(3);
      }
    });
    return fields;
  }

  private void skipValue(int depth) {
    if (depth > MAX_DEPTH) {
      throw malformed("nesting deeper than " + MAX_DEPTH);
    }
    int next = peek();
    if (next == '{') {
      object(field -> skipValue(depth + 1));
    } else if (next == '[') {
      array(() -> skipValue(depth + 1));
    } else if (next == '"') {
      string();
    } else if (!literal("true") && !literal("false") && !literal("null")) {
      number();
    }
  }

  /** Reads the object at the position, handing each member's name to {@code member}, which reads its value. */
  private void object(Consumer<String> member) {
    expect('{');
    if (consume('}')) {
      return;
    }
    do {
      String name = string();
      expect(':');
      member.accept(name);
    } while (consume(','));
    expect('}');
  }

  /** Reads the array at the position, {@code element} reading each element. */
  private void array(Runnable element) {
    expect('[');
    if (consume(']')) {
      return;
    }
    do {
      element.run();
    } while (consume(','));
    expect(']');
  }

  private boolean literal(String word) {
    if (json.startsWith(word, position)) {
      position += word.length();
      return true;
    }
    return false;
  }

  /** {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?} */
  private void number() {
    int start = position;
    if (at('-')) {
      position++;
    }
    if (at('0')) {
      position++;
    } else if (digits() == 0) {
      position = start;
      throw malformed("a value");
    }
    if (at('.')) {
      position++;
      if (digits() == 0) {
        throw malformed("a digit");
      }
    }
    if (at('e') || at('E')) {
      position++;
      if (at('+') || at('-')) {
        position++;
      }
      if (digits() == 0) {
        throw malformed("a digit");
      }
    }
  }

  private int digits() {
    int start = position;
    while (position < json.length() && json.charAt(position) >= '0' && json.charAt(position) <= '9') {
      position++;
    }
    return position - start;
  }

  private boolean at(char c) {
    return position < json.length() && json.charAt(position) == c;
  }

  private String string() {
    expect('"');
    StringBuilder text = null;
    int start = position;
    while (true) {
      if (position >= json.length()) {
        throw malformed("the end of a string");
      }
      char c = json.charAt(position);
      if (c == '"') {
        String value = text == null ? json.substring(start, position)
            : text.append(json, start, position).toString();
        position++;
        return value;
      }
      if (c < 0x20) {
        throw malformed("an escaped control character");
      }
      if (c != '\\') {
        position++;
        continue;
      }
      text = text == null ? new StringBuilder() : text;
      text.append(json, start, position);
      position++;
      text.append(escaped());
      start = position;
    }
  }

  /** The character an escape stands for; the position is after the backslash. */
  private char escaped() {
    if (position >= json.length()) {
      throw malformed("an escape");
    }
    char c = json.charAt(position++);
    switch (c) {
      case '"', '\\', '/':
        return c;
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u':
        if (position + 4 > json.length()) {
          throw malformed("four hexadecimal digits");
        }
        int code = 0;
        for (int i = 0; i < 4; i++) {
          int digit = Character.digit(json.charAt(position++), 16);
          if (digit < 0) {
            throw malformed("four hexadecimal digits");
          }
          code = code * 16 + digit;
        }
        return (char) code;
      default:
        position--;
        throw malformed("an escape");
    }
  }

  /** The next character that is not white space (the position moved to it), or -1 at the end. */
  private int peek() {
    while (position < json.length()) {
      char c = json.charAt(position);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return c;
      }
      position++;
    }
    return -1;
  }

  private boolean consume(char c) {
    if (peek() == c) {
      position++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!consume(c)) {
      throw malformed("'" + c + "'");
    }
  }

  private IllegalArgumentException malformed(String expected) {
    return new IllegalArgumentException("malformed configuration metadata: expected " + expected + " at offset "
        + position);
  }
}
