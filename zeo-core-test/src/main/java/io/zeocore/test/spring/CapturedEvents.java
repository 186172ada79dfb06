package io.zeocore.test.spring;

import io.zeocore.autoconfigure.execution.AttemptRecordedEvent;
import io.zeocore.autoconfigure.execution.ExecutionCompletedEvent;
import io.zeocore.autoconfigure.execution.TargetHealthChangedEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.PayloadApplicationEvent;

/**
 * Every ZeoCore event a {@link ZeoCoreTest}'s application published since the test began, in order: attempts, runs,
 * target health changes, effect transitions, recovery sweeps (any event whose class is ZeoCore's).
 */
public final class CapturedEvents implements ApplicationListener<ApplicationEvent> {

  private final List<Object> events = new CopyOnWriteArrayList<>();

  CapturedEvents() {}

  @Override
  public void onApplicationEvent(ApplicationEvent event) {
    Object payload = event instanceof PayloadApplicationEvent<?> carried ? carried.getPayload() : event;
    if (payload.getClass().getName().startsWith("io.zeocore.")) {
      events.add(payload);
    }
  }

  /** Every captured event, in publication order. */
  public List<Object> all() {
    return List.copyOf(events);
  }

  /** The captured events of {@code type}, in publication order. */
  public <E> List<E> ofType(Class<E> type) {
    return events.stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** Each attempt's record as it ended. */
  public List<AttemptRecordedEvent> attempts() {
    return ofType(AttemptRecordedEvent.class);
  }

  /** Each finished run. */
  public List<ExecutionCompletedEvent> runs() {
    return ofType(ExecutionCompletedEvent.class);
  }

  /** Each target health change. */
  public List<TargetHealthChangedEvent> targetHealthChanges() {
    return ofType(TargetHealthChangedEvent.class);
  }

  /** Forgets everything captured so far. */
  public void clear() {
    events.clear();
  }
}
