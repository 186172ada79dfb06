package io.zeocore.subprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class ProcStatTest {

  @Test
  void parsesFieldsAfterACommandNameContainingSpacesAndParentheses() {
    assertThat(ProcStat.parse("4242 (my (odd) name) Z 1 4200 4200 0 -1 4194560 0 0"))
        .contains(new ProcStat(4242, 'Z', 4200, 4200));
    assertThat(ProcStat.parse("4242 (x) S 1 4242 4100 0")).hasValueSatisfying(stat -> {
      assertThat(stat.running()).isTrue();
      assertThat(stat.processGroup()).isEqualTo(4242);
      assertThat(stat.session()).isEqualTo(4100);
      assertThat(stat.leadsSession()).isFalse();
    });
    assertThat(ProcStat.parse("4242 (x) S 1 4242 4242 0")).hasValueSatisfying(stat ->
        assertThat(stat.leadsSession()).isTrue());
  }

  @Test
  void rejectsTruncatedOrGarbledLines() {
    assertThat(ProcStat.parse("")).isEmpty();
    assertThat(ProcStat.parse("4242 (x)")).isEmpty();
    assertThat(ProcStat.parse("4242 (x) S 1")).isEmpty();
    assertThat(ProcStat.parse("4242 (x) S 1 4242")).isEmpty();
    assertThat(ProcStat.parse("abc (x) S 1 2 3")).isEmpty();
  }

  @Test
  void readsTheJvmsOwnEntry() {
    assumeTrue(ProcStat.self().isPresent(), "/proc is mounted");

    ProcStat self = ProcStat.read(ProcessHandle.current().pid()).orElseThrow();

    assertThat(self.pid()).isEqualTo(ProcessHandle.current().pid());
    assertThat(self.running()).isTrue();
    assertThat(self.processGroup()).isEqualTo(ChildProcesses.jvmProcessGroup());
    assertThat(ProcStat.runningIn(Set.of(self.session()))).extracting(ProcStat::pid)
        .contains(self.pid());
    assertThat(ProcStat.anyRunningIn(Set.of(self.session()))).isTrue();
    assertThat(ProcStat.anyRunningIn(Set.of())).isFalse();
    assertThat(ProcStat.read(Integer.MAX_VALUE)).isEmpty();
  }
}
