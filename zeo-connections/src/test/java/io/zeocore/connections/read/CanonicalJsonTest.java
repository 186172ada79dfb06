package io.zeocore.connections.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Expected strings are the output of Python's {@code json.dumps(v, sort_keys=True, separators=(",", ":"))}. */
class CanonicalJsonTest {

  @Test
  void matchesPythonsSortedCompactAsciiDump() {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("b", 1);
    value.put("a", Arrays.asList(1.5, 1e-05, 1e16, 100.0, 0.0001, 123456789012345678.0, -2.5e-7,
        "é\u2028\u007f\u0001\"\\", true, null));
    value.put("\uD83D\uDE00", 2);
    value.put("\uffff", 3);
    value.put("z", Map.of("y", List.of()));

    assertThat(new String(CanonicalJson.bytes(value), StandardCharsets.US_ASCII)).isEqualTo(
        "{\"a\":[1.5,1e-05,1e+16,100.0,0.0001,1.2345678901234568e+17,-2.5e-07,\"\\u00e9\\u2028\\u007f\\u0001\\\"\\\\\","
            + "true,null],\"b\":1,\"z\":{\"y\":[]},\"\\uffff\":3,\"\\ud83d\\ude00\":2}");
  }

  @Test
  void theReferenceWorkedExampleHashesItsExactBytes() {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("size", 42);
    value.put("name", "selected.csv");
    byte[] bytes = CanonicalJson.bytes(value);
    assertThat(new String(bytes, StandardCharsets.US_ASCII)).isEqualTo("{\"name\":\"selected.csv\",\"size\":42}");
  }

  @Test
  void fractionsAreWrittenAsPythonFloats() {
    assertThat(CanonicalJson.pythonFloat(0.1)).isEqualTo("0.1");
    assertThat(CanonicalJson.pythonFloat(-0.0)).isEqualTo("-0.0");
    assertThat(CanonicalJson.pythonFloat(1e22)).isEqualTo("1e+22");
    assertThat(CanonicalJson.pythonFloat(1234567890123456.0)).isEqualTo("1234567890123456.0");
    // Python's shortest digits, where Java 17's Double.toString writes more (2.82879384806159008E17, 4.9E-324)
    assertThat(CanonicalJson.pythonFloat(2.82879384806159E17)).isEqualTo("2.82879384806159e+17");
    assertThat(CanonicalJson.pythonFloat(-2.681447534367114e18)).isEqualTo("-2.681447534367114e+18");
    assertThat(CanonicalJson.pythonFloat(Double.MIN_VALUE)).isEqualTo("5e-324");
    assertThat(new String(CanonicalJson.bytes(List.of(new BigDecimal("2.50"), 7L)), StandardCharsets.US_ASCII))
        .isEqualTo("[2.5,7]");
  }
}
