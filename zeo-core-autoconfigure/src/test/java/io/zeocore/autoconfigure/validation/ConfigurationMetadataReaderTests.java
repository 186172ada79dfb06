package io.zeocore.autoconfigure.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ConfigurationMetadataReaderTests {

  @Test
  void readsEveryMetadataFileOnTheClassPathAsJacksonDoes() throws Exception {
    int files = 0;
    for (String name : List.of("META-INF/spring-configuration-metadata.json",
        "META-INF/additional-spring-configuration-metadata.json")) {
      for (URL url : Collections.list(getClass().getClassLoader().getResources(name))) {
        String json;
        try (InputStream in = url.openStream()) {
          json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(entries(json)).as(url.toString()).isEqualTo(jacksonEntries(json));
        files++;
      }
    }
    assertThat(files).as("metadata files on the test class path (Spring Boot's and ZeoCore's)").isGreaterThan(2);
  }

  @Test
  void handsOverStringFieldsAndSkipsEveryOtherValue() {
    String json = """
        { "hints": [ {"name": "ignored", "values": [ {"value": "x"} ]} ],
          "groups": [ {"name": "zeocore.a", "type": "A", "sourceType": "A"} ],
          "properties": [
            {"name": "zeocore.a.b", "defaultValue": -1.5e+3, "deprecated": true, "deprecation": {"level": "error"},
             "description": "q \\"quoted\\", back\\\\slash \\/ \\u00e9\\u20AC \\t tab, {not: an object}"},
            {"name": "zeocore.a.c", "defaultValue": null, "x": [1, [2, {"y": false}], "s"], "type": "java.lang.Integer"},
            [ "not an entry" ], 7
          ],
          "other": {"properties": [ {"name": "not.listed"} ]}
        }""";
    assertThat(entries(json)).containsExactly(
        "groups name=zeocore.a type=A sourceType=A",
        "properties name=zeocore.a.b description=q \"quoted\", back\\slash / \u00e9\u20ac \t tab, {not: an object}",
        "properties name=zeocore.a.c type=java.lang.Integer");
  }

  @Test
  void anEmptyDocumentHasNoEntries() {
    assertThat(entries(" { } ")).isEmpty();
    assertThat(entries("{\"groups\": [], \"properties\": []}")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "[]", "{", "{\"groups\": [}", "{\"groups\" []}", "{\"a\": 1,}", "{\"a\": 01}",
      "{\"a\": 1.}", "{\"a\": -}", "{\"a\": tru}", "{\"a\": \"unterminated}", "{\"a\": \"bad \\x escape\"}",
      "{\"a\": \"\\u12g4\"}", "{\"a\": \"raw\ttab\"}", "{} trailing", "{\"a\": 1 \"b\": 2}"})
  void rejectsWhatIsNotOneWellFormedObject(String json) {
    assertThatIllegalArgumentException().isThrownBy(() -> entries(json))
        .withMessageStartingWith("malformed configuration metadata: expected ")
        .withMessageContaining(" at offset ");
  }

  @Test
  void rejectsNestingDeeperThanItsLimit() {
    String deep = "[".repeat(ConfigurationMetadataReader.MAX_DEPTH + 1) + "]".repeat(
        ConfigurationMetadataReader.MAX_DEPTH + 1);
    assertThatIllegalArgumentException().isThrownBy(() -> entries("{\"hints\": " + deep + "}"))
        .withMessageContaining("nesting deeper than " + ConfigurationMetadataReader.MAX_DEPTH);
    String allowed = "[".repeat(ConfigurationMetadataReader.MAX_DEPTH) + "]".repeat(
        ConfigurationMetadataReader.MAX_DEPTH);
    assertThat(entries("{\"hints\": " + allowed + "}")).isEmpty();
  }

  @Test
  void entriesBeforeAFaultStayHandedOver() {
    List<String> seen = new ArrayList<>();
    assertThatIllegalArgumentException().isThrownBy(() -> ConfigurationMetadataReader.read(
        "{\"properties\": [{\"name\": \"zeocore.first\"}, {\"name\": ", (section, fields) -> seen.add(
            fields.get("name"))));
    assertThat(seen).containsExactly("zeocore.first");
  }

  /** Each entry as "section field=value ...", in the file's order. */
  private static List<String> entries(String json) {
    List<String> entries = new ArrayList<>();
    ConfigurationMetadataReader.read(json, (section, fields) -> entries.add(describe(section, fields)));
    return entries;
  }

  private static String describe(String section, Map<String, String> fields) {
    StringBuilder line = new StringBuilder(section);
    fields.forEach((name, value) -> line.append(' ').append(name).append('=').append(value));
    return line.toString();
  }

  private static List<String> jacksonEntries(String json) {
    JsonNode document = JsonMapper.builder().build().readTree(json);
    List<String> entries = new ArrayList<>();
    for (Map.Entry<String, JsonNode> section : document.properties()) {
      if (!section.getKey().equals("groups") && !section.getKey().equals("properties")) {
        continue;
      }
      for (JsonNode entry : section.getValue()) {
        if (!entry.isObject()) {
          continue;
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : entry.properties()) {
          if (field.getValue().isString()) {
            fields.put(field.getKey(), field.getValue().asString());
          }
        }
        entries.add(describe(section.getKey(), fields));
      }
    }
    return entries;
  }
}
