package io.zeocore.connections.contract;

import static io.zeocore.connections.contract.EffectState.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EffectStateTest {

  private static final Map<EffectState, Set<EffectState>> EXPECTED = Map.of(
      CREATED, EnumSet.of(AUTHORIZATION_VERIFIED, FAILED_SAFE, REFUSED),
      AUTHORIZATION_VERIFIED, EnumSet.of(PREPARED, FAILED_SAFE, REFUSED),
      PREPARED, EnumSet.of(DISPATCH_STARTED, FAILED_SAFE, REFUSED),
      DISPATCH_STARTED, EnumSet.of(SUCCEEDED, FAILED_SAFE, AMBIGUOUS),
      AMBIGUOUS, EnumSet.of(SUCCEEDED, FAILED_SAFE),
      SUCCEEDED, EnumSet.noneOf(EffectState.class),
      FAILED_SAFE, EnumSet.noneOf(EffectState.class),
      REFUSED, EnumSet.noneOf(EffectState.class));

  @Test
  void hasExactlyTheReferenceStates() {
    assertThat(Arrays.stream(values()).map(Enum::name)).containsExactly("CREATED", "AUTHORIZATION_VERIFIED",
        "PREPARED", "DISPATCH_STARTED", "SUCCEEDED", "FAILED_SAFE", "REFUSED", "AMBIGUOUS");
  }

  @Test
  void allowsExactlyTheEdgesOfTheTableAndNoOther() {
    for (EffectState from : values()) {
      assertThat(from.allowedNext()).as("edges from %s", from).isEqualTo(EXPECTED.get(from));
      for (EffectState to : values()) {
        assertThat(from.canTransitionTo(to)).as("%s -> %s", from, to).isEqualTo(EXPECTED.get(from).contains(to));
      }
    }
    assertThat(CREATED.canTransitionTo(null)).isFalse();
  }

  @Test
  void terminalSetIsTheStatesWithoutOutboundEdgesAndExcludesAmbiguous() {
    assertThat(TERMINAL).containsExactlyInAnyOrder(SUCCEEDED, FAILED_SAFE, REFUSED);
    for (EffectState state : values()) {
      assertThat(state.isTerminal()).as("%s", state).isEqualTo(state.allowedNext().isEmpty());
    }
    assertThat(AMBIGUOUS.isTerminal()).isFalse();
  }

  @Test
  void refusedIsReachableOnlyBeforeDispatchAndNoStateLoopsToItself() {
    for (EffectState state : values()) {
      assertThat(state.canTransitionTo(REFUSED)).isEqualTo(state.isPreDispatch());
      assertThat(state.canTransitionTo(state)).isFalse();
    }
  }
}
