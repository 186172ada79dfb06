package io.zeocore.connections.read;

import io.zeocore.connections.internal.JsonValues;
import io.zeocore.connections.internal.ShortestDecimal;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The canonical JSON bytes of an inline read result, byte-compatible with the reference's Python
 * {@code json.dumps(value, sort_keys=True, separators=(",", ":"))}: object keys sorted by code point, no whitespace,
 * every non-ASCII character escaped as {@code \}{@code uXXXX} (UTF-16 units, lowercase hex), integers in decimal,
 * floats as Python's {@code repr} (shortest round-trip digits; exponent form below {@code 1e-4} and from
 * {@code 1e16}, e.g. {@code 1e-05}, {@code 1e+16}; integral floats keep {@code .0}).
 *
 * <p>Accepts the shapes {@link JsonValues} admits. Fractions ({@link BigDecimal}, {@link Double}, {@link Float}) are
 * written as the double Python would have parsed, with Python's digits on every Java version ({@link ShortestDecimal};
 * Java 17's {@link Double#toString} is not always the shortest representation).
 */
final class CanonicalJson {

  private CanonicalJson() {}

  static byte[] bytes(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static void write(@Nullable Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String text) {
      string(text, out);
    } else if (value instanceof Boolean bool) {
      out.append(bool ? "true" : "false");
    } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
        || value instanceof BigInteger) {
      out.append(value);
    } else if (value instanceof Number number) {
      out.append(pythonFloat(number.doubleValue()));
    } else if (value instanceof Map<?, ?> map) {
      List<String> keys = new ArrayList<>();
      for (Object key : map.keySet()) {
        keys.add((String) key);
      }
      keys.sort(CanonicalJson::compareCodePoints);
      out.append('{');
      boolean first = true;
      for (String key : keys) {
        if (!first) {
          out.append(',');
        }
        first = false;
        string(key, out);
        out.append(':');
        write(map.get(key), out);
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(list.get(i), out);
      }
      out.append(']');
    } else {
      throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
    }
  }

  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  private static void string(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * Python's {@code repr(float)} of {@code d}: its shortest digits (not those of {@link Double#toString}, see
   * {@link ShortestDecimal}), positional from {@code 1e-4} up to below {@code 1e16}, else in exponent form.
   */
  static String pythonFloat(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalArgumentException("NaN and Infinity are not JSON");
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0.0" : "0.0";
    }
    BigDecimal shortest = ShortestDecimal.of(Math.abs(d));
    String digits = shortest.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - shortest.scale(); // decimal exponent of the first digit
    String sign = d < 0 ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
      String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
    }
    if (exponent < 0) {
      return sign + "0." + "0".repeat(-exponent - 1) + digits;
    }
    if (digits.length() <= exponent + 1) {
      return sign + digits + "0".repeat(exponent + 1 - digits.length()) + ".0";
    }
    return sign + digits.substring(0, exponent + 1) + "." + digits.substring(exponent + 1);
  }
}
