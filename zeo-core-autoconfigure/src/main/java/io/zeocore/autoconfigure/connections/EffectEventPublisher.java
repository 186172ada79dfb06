package io.zeocore.autoconfigure.connections;

import io.zeocore.autoconfigure.internal.EventRepublisher;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.effect.EffectListener;
import io.zeocore.connections.effect.EffectRecovery;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The {@link EffectListener} that republishes every committed transition and receipt as an
 * {@link EffectTransitionEvent} / {@link ReceiptRecordedEvent}, and every recovery sweep as a
 * {@link RecoverySweptEvent}. The auto-configured orchestrator and recovery are
 * built with every {@link EffectListener} bean, this one included.
 */
public final class EffectEventPublisher extends EventRepublisher implements EffectListener {

  public EffectEventPublisher(ApplicationEventPublisher events) {
    super(events);
  }

  @Override
  public void transitionRecorded(EffectRecord effect, @Nullable EffectState previousState) {
    publish(new EffectTransitionEvent(effect, previousState));
  }

  @Override
  public void receiptRecorded(EffectReceipt receipt) {
    publish(new ReceiptRecordedEvent(receipt));
  }

  @Override
  public void sweepFinished(EffectRecovery.Sweep sweep) {
    publish(new RecoverySweptEvent(sweep));
  }
}
