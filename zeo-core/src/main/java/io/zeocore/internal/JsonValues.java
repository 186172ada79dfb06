package io.zeocore.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deep, immutable copies of JSON values held by contracts (schemas, inline observation results). Accepted shapes are
 * those a JSON parser produces: {@code null}, {@link String}, {@link Boolean}, finite {@link Number}s, {@link List}s
 * and {@link Map}s with {@link String} keys, nested to any depth.
 */
public final class JsonValues {

  private JsonValues() {}

  public static Map<String, Object> object(Map<String, ?> value, String field) {
    ContractRules.required(value, field);
    return copyObject(value, field);
  }

  public static Object value(Object value, String field) {
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
      return copyObject(map, field);
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      for (Object element : list) {
        copy.add(value(element, field));
      }
      return Collections.unmodifiableList(copy);
    }
    throw new IllegalArgumentException(field + " must hold only JSON values, not " + value.getClass().getName());
  }

  private static Map<String, Object> copyObject(Map<?, ?> map, String field) {
    Map<String, Object> copy = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (!(entry.getKey() instanceof String key)) {
        throw new IllegalArgumentException(field + " must use string keys");
      }
      copy.put(key, value(entry.getValue(), field));
    }
    return Collections.unmodifiableMap(copy);
  }

  private static Number number(Number number, String field) {
    if (number instanceof Double d && !Double.isFinite(d) || number instanceof Float f && !Float.isFinite(f)) {
      throw new IllegalArgumentException(field + " must not contain NaN or Infinity");
    }
    if (number instanceof Integer || number instanceof Long || number instanceof Double || number instanceof Float
        || number instanceof Short || number instanceof Byte || number instanceof BigInteger
        || number instanceof BigDecimal) {
      return number;
    }
    throw new IllegalArgumentException(field + " must hold only JSON numbers, not " + number.getClass().getName());
  }
}
