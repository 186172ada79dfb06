package io.zeocore.connections.store;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A bounded, least-recently-used cache of parsed JSON documents, keyed by the record's key and the exact stored text:
 * a hit needs the same key and a byte-identical document, so a changed document is parsed again and a stale parse is
 * never returned. The values must be immutable (records of the contract). Thread-safe; parsing happens outside the
 * lock, so two threads may parse the same document once each.
 *
 * <p>Used for connections (mutable rows: the row is still read on every use, only the parse is saved) and connector
 * revisions (immutable rows: {@link #cached} answers without reading).
 */
final class ParsedDocuments<T> {

  private record Entry<T>(String document, T value) {}

  private final int capacity;
  private final Map<String, Entry<T>> entries;

  ParsedDocuments(int capacity) {
    this.capacity = capacity;
    this.entries = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Entry<T>> eldest) {
        return size() > ParsedDocuments.this.capacity;
      }
    };
  }

  /** The parsed value last stored under {@code key}, whatever its document, or {@code null}. */
  synchronized @Nullable T cached(String key) {
    Entry<T> entry = entries.get(key);
    return entry == null ? null : entry.value();
  }

  /** The parse of {@code document} stored under {@code key}: the cached one when the text is identical. */
  T parse(String key, String document, Function<String, T> parser) {
    synchronized (this) {
      Entry<T> entry = entries.get(key);
      if (entry != null && entry.document().equals(document)) {
        return entry.value();
      }
    }
    T value = parser.apply(document);
    synchronized (this) {
      entries.put(key, new Entry<>(document, value));
    }
    return value;
  }

  /**
   * The document {@code value} was parsed from, when it is (by identity) the parse cached under {@code key}, else
   * {@code null}.
   */
  synchronized @Nullable String documentOf(String key, T value) {
    Entry<T> entry = entries.get(key);
    return entry != null && entry.value() == value ? entry.document() : null;
  }

  synchronized int size() {
    return entries.size();
  }
}
