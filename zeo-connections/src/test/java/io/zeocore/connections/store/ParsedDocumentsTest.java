package io.zeocore.connections.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ParsedDocumentsTest {

  private final AtomicInteger parses = new AtomicInteger();
  private final Function<String, String> parser = text -> {
    parses.incrementAndGet();
    return "parsed " + text;
  };

  @Test
  void parsesAnIdenticalDocumentOnlyOnce() {
    ParsedDocuments<String> cache = new ParsedDocuments<>(4);

    assertThat(cache.parse("org\0conn", "{\"a\":1}", parser)).isEqualTo("parsed {\"a\":1}");
    assertThat(cache.parse("org\0conn", new String("{\"a\":1}"), parser)).isEqualTo("parsed {\"a\":1}");
    assertThat(parses).hasValue(1);
  }

  @Test
  void parsesAgainWhenTheStoredTextChanged() {
    ParsedDocuments<String> cache = new ParsedDocuments<>(4);
    cache.parse("org\0conn", "{\"status\":\"active\"}", parser);

    assertThat(cache.parse("org\0conn", "{\"status\":\"disabled\"}", parser))
        .isEqualTo("parsed {\"status\":\"disabled\"}");
    assertThat(cache.cached("org\0conn")).isEqualTo("parsed {\"status\":\"disabled\"}");
    assertThat(parses).hasValue(2);
  }

  @Test
  void keepsAtMostItsCapacityEvictingTheLeastRecentlyUsed() {
    ParsedDocuments<String> cache = new ParsedDocuments<>(2);
    cache.parse("a", "1", parser);
    cache.parse("b", "2", parser);
    cache.cached("a");
    cache.parse("c", "3", parser);

    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.cached("a")).isEqualTo("parsed 1");
    assertThat(cache.cached("b")).isNull();
  }
}
