package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.zeocore.connections.internal.ContractRules;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The durable state of an effect {@link EffectRecord}, with the reference's transition table. The constant names are the
 * wire values. There is deliberately no {@code FAILED} and no {@code RECONCILED}.
 *
 * <pre>
 * CREATED                -&gt; AUTHORIZATION_VERIFIED | FAILED_SAFE | REFUSED
 * AUTHORIZATION_VERIFIED -&gt; PREPARED               | FAILED_SAFE | REFUSED
 * PREPARED               -&gt; DISPATCH_STARTED       | FAILED_SAFE | REFUSED
 * DISPATCH_STARTED       -&gt; SUCCEEDED | FAILED_SAFE | AMBIGUOUS
 * AMBIGUOUS              -&gt; SUCCEEDED | FAILED_SAFE
 * SUCCEEDED, FAILED_SAFE, REFUSED: terminal, no outbound edge
 * </pre>
 *
 * <p>No self-transitions (not even {@code AMBIGUOUS -> AMBIGUOUS}), no skipping, no backward edges. {@code REFUSED} is
 * reachable only from the three pre-dispatch states, so a refused effect never reached a provider. {@code
 * AMBIGUOUS} is not terminal: reconciliation may still resolve it. The first persisted state of every effect is
 * {@link #CREATED}.
 */
public enum EffectState {
  CREATED,
  AUTHORIZATION_VERIFIED,
  PREPARED,
  DISPATCH_STARTED,
  SUCCEEDED,
  FAILED_SAFE,
  REFUSED,
  AMBIGUOUS;

  /** The states without outbound edges: {@code SUCCEEDED}, {@code FAILED_SAFE}, {@code REFUSED}. */
  public static final Set<EffectState> TERMINAL =
      Collections.unmodifiableSet(EnumSet.of(SUCCEEDED, FAILED_SAFE, REFUSED));

  private static final Map<EffectState, Set<EffectState>> EDGES = edges();

  private static Map<EffectState, Set<EffectState>> edges() {
    Map<EffectState, Set<EffectState>> edges = new EnumMap<>(EffectState.class);
    edges.put(CREATED, EnumSet.of(AUTHORIZATION_VERIFIED, FAILED_SAFE, REFUSED));
    edges.put(AUTHORIZATION_VERIFIED, EnumSet.of(PREPARED, FAILED_SAFE, REFUSED));
    edges.put(PREPARED, EnumSet.of(DISPATCH_STARTED, FAILED_SAFE, REFUSED));
    edges.put(DISPATCH_STARTED, EnumSet.of(SUCCEEDED, FAILED_SAFE, AMBIGUOUS));
    edges.put(AMBIGUOUS, EnumSet.of(SUCCEEDED, FAILED_SAFE));
    edges.put(SUCCEEDED, EnumSet.noneOf(EffectState.class));
    edges.put(FAILED_SAFE, EnumSet.noneOf(EffectState.class));
    edges.put(REFUSED, EnumSet.noneOf(EffectState.class));
    edges.replaceAll((state, targets) -> Collections.unmodifiableSet(targets));
    return Collections.unmodifiableMap(edges);
  }

  /** The states this one may move to; empty for a terminal state. */
  public Set<EffectState> allowedNext() {
    return EDGES.getOrDefault(this, Set.of()); // every state has its entry
  }

  /** Whether {@code this -> next} is an edge of the table. */
  public boolean canTransitionTo(@Nullable EffectState next) {
    return next != null && allowedNext().contains(next);
  }

  /** Whether this state has no outbound edge ({@code SUCCEEDED}, {@code FAILED_SAFE}, {@code REFUSED}). */
  public boolean isTerminal() {
    return TERMINAL.contains(this);
  }

  /** Whether no provider can have been entered yet: {@code CREATED}, {@code AUTHORIZATION_VERIFIED}, {@code PREPARED}. */
  public boolean isPreDispatch() {
    return this == CREATED || this == AUTHORIZATION_VERIFIED || this == PREPARED;
  }

  /**
   * The wire value: exactly the constant's name (e.g. {@code CREATED}).
   * Annotated so that every JSON mapper, not only {@link ContractJson}, writes it whatever its enum features
   * (lowercase, {@code toString}, index).
   */
  @JsonValue
  public String wireValue() {
    return name();
  }

  /**
   * The constant whose wire value is exactly {@code value} (case-sensitive, no trimming); what every JSON mapper reads.
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static EffectState fromWireValue(String value) {
    return ContractRules.wireConstant(EffectState.class, value);
  }
}
