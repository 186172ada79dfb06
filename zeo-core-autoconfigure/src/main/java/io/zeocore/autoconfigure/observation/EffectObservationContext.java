package io.zeocore.autoconfigure.observation;

import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.OperationId;

/** The context of one {@code EffectOrchestrator.execute} call; {@link #getCallId()} is the effect's execution id. */
public final class EffectObservationContext extends ConnectionCallContext {

  EffectObservationContext(OperationId operationId, EffectId effectId) {
    super(operationId, effectId.value());
  }
}
