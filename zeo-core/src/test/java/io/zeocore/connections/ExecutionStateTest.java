package io.zeocore.connections;

import static io.zeocore.connections.ExecutionState.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExecutionStateTest {

  private static final Map<ExecutionState, Set<ExecutionState>> EXPECTED = Map.of(
      CREATED, EnumSet.of(AUTHORIZATION_VERIFIED, FAILED_SAFE, REFUSED),
      AUTHORIZATION_VERIFIED, EnumSet.of(PREPARED, FAILED_SAFE, REFUSED),
      PREPARED, EnumSet.of(DISPATCH_STARTED, FAILED_SAFE, REFUSED),
      DISPATCH_STARTED, EnumSet.of(SUCCEEDED, FAILED_SAFE, AMBIGUOUS),
      AMBIGUOUS, EnumSet.of(SUCCEEDED, FAILED_SAFE),
      SUCCEEDED, EnumSet.noneOf(ExecutionState.class),
      FAILED_SAFE, EnumSet.noneOf(ExecutionState.class),
      REFUSED, EnumSet.noneOf(ExecutionState.class));

  @Test
  void hasExactlyTheReferenceStates() {
    assertThat(Arrays.stream(values()).map(Enum::name)).containsExactly("CREATED", "AUTHORIZATION_VERIFIED",
        "PREPARED", "DISPATCH_STARTED", "SUCCEEDED", "FAILED_SAFE", "REFUSED", "AMBIGUOUS");
  }

  @Test
  void allowsExactlyTheEdgesOfTheTableAndNoOther() {
    for (ExecutionState from : values()) {
      assertThat(from.allowedNext()).as("edges from %s", from).isEqualTo(EXPECTED.get(from));
      for (ExecutionState to : values()) {
        assertThat(from.canTransitionTo(to)).as("%s -> %s", from, to).isEqualTo(EXPECTED.get(from).contains(to));
      }
    }
    assertThat(CREATED.canTransitionTo(null)).isFalse();
  }

  @Test
  void terminalSetIsTheStatesWithoutOutboundEdgesAndExcludesAmbiguous() {
    assertThat(TERMINAL).containsExactlyInAnyOrder(SUCCEEDED, FAILED_SAFE, REFUSED);
    for (ExecutionState state : values()) {
      assertThat(state.isTerminal()).as("%s", state).isEqualTo(state.allowedNext().isEmpty());
    }
    assertThat(AMBIGUOUS.isTerminal()).isFalse();
  }

  @Test
  void refusedIsReachableOnlyBeforeDispatchAndNoStateLoopsToItself() {
    for (ExecutionState state : values()) {
      assertThat(state.canTransitionTo(REFUSED)).isEqualTo(state.isPreDispatch());
      assertThat(state.canTransitionTo(state)).isFalse();
    }
  }
}
