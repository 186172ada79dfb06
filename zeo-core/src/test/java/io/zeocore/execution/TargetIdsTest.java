package io.zeocore.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetIdsTest {

  @Test
  void loopAgreesWithTheDocumentedPatternOnEdgeCases() {
    List<String> ids = new ArrayList<>(List.of("", "a", "A", "0", "_a", ".a", "a_", "a.b:c/d-e", "a b", "a\n", "é",
        "a٣", "aé", "-", "x".repeat(127), "x".repeat(128), "x".repeat(129), "a\u0000", "Z9"));
    for (char c = 0; c < 128; c++) {
      ids.add("a" + c);
      ids.add(String.valueOf(c));
    }
    for (String id : ids) {
      assertThat(TargetIds.isValid(id)).as("id %s", id).isEqualTo(TargetIds.PATTERN.matcher(id).matches());
    }
    assertThat(TargetIds.isValid(null)).isFalse();
  }
}
