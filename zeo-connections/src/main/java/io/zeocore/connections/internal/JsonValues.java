package io.zeocore.connections.internal;

import io.zeocore.InvalidFieldException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.StreamReadConstraints;

/**
 * Deep, immutable copies of JSON values held by contracts (schemas, inline observation results). Accepted shapes are
 * those a JSON parser produces: {@code null}, {@link String}, {@link Boolean}, finite {@link Number}s, {@link List}s
 * and {@link Map}s with {@link String} keys, nested at most {@link #MAX_DEPTH} levels deep.
 *
 * <p>The same bound applies to every JSON ZeoCore parses (contract JSON, request bodies): a value nested deeper is
 * refused with an ordinary error before any recursion could exhaust the stack.
 */
public final class JsonValues {

  /** How deep JSON values may nest: objects and arrays within each other, 100 levels. */
  public static final int MAX_DEPTH = 100;

  private JsonValues() {}

  public static Map<String, Object> object(Map<String, ?> value, String field) {
    ContractRules.required(value, field);
    return copyObject(value, field, 1);
  }

  public static @Nullable Object value(@Nullable Object value, String field) {
    return value(value, field, 0);
  }

  private static @Nullable Object value(@Nullable Object value, String field, int depth) {
    if (value == null) {
      return null;
    }
    if (value instanceof String || value instanceof Boolean) {
      return value;
    }
    if (value instanceof Number number) {
      return number(number, field);
    }
    if (value instanceof Map<?, ?> map) {
      return copyObject(map, field, depth + 1);
    }
    if (value instanceof List<?> list) {
      requireDepth(depth + 1, field);
      List<Object> copy = new ArrayList<>(list.size());
      for (Object element : list) {
        copy.add(value(element, field, depth + 1));
      }
      return Collections.unmodifiableList(copy);
    }
    throw new InvalidFieldException(field, "must hold only JSON values, not " + value.getClass().getName());
  }

  private static Map<String, Object> copyObject(Map<?, ?> map, String field, int depth) {
    requireDepth(depth, field);
    Map<String, Object> copy = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (!(entry.getKey() instanceof String key)) {
        throw new InvalidFieldException(field, "must use string keys");
      }
      copy.put(key, value(entry.getValue(), field, depth));
    }
    return Collections.unmodifiableMap(copy);
  }

  private static void requireDepth(int depth, String field) {
    if (depth > MAX_DEPTH) {
      throw new InvalidFieldException(field, "nests deeper than " + MAX_DEPTH + " levels");
    }
  }

  /**
   * How deeply {@code value} nests: 0 for a scalar or {@code null}, 1 for a list or map of scalars, and so on. Meant
   * for values already copied by {@link #value}, so at most {@link #MAX_DEPTH}.
   */
  public static int depth(@Nullable Object value) {
    int deepest = 0;
    if (value instanceof Map<?, ?> map) {
      for (Object element : map.values()) {
        deepest = Math.max(deepest, depth(element));
      }
      return deepest + 1;
    }
    if (value instanceof List<?> list) {
      for (Object element : list) {
        deepest = Math.max(deepest, depth(element));
      }
      return deepest + 1;
    }
    return 0;
  }

  /** The parser limits every ZeoCore JSON reader applies: nesting at most {@link #MAX_DEPTH} levels. */
  public static StreamReadConstraints readConstraints() {
    return StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build();
  }

  private static Number number(Number number, String field) {
    if (number instanceof Double d && !Double.isFinite(d) || number instanceof Float f && !Float.isFinite(f)) {
      throw new InvalidFieldException(field, "must not contain NaN or Infinity");
    }
    if (number instanceof Integer || number instanceof Long || number instanceof Double || number instanceof Float
        || number instanceof Short || number instanceof Byte || number instanceof BigInteger
        || number instanceof BigDecimal) {
      return number;
    }
    throw new InvalidFieldException(field, "must hold only JSON numbers, not " + number.getClass().getName());
  }
}
