package io.zeocore.autoconfigure.internal;

import java.util.Objects;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The base of ZeoCore's listeners that republish what the core reports (effect transitions, receipts and sweeps;
 * attempts and runs) as Spring application events, on the thread that reports it.
 */
public abstract class EventRepublisher {

  private final ApplicationEventPublisher events;

  protected EventRepublisher(ApplicationEventPublisher events) {
    this.events = Objects.requireNonNull(events, "events");
  }

  /** The application's publisher the events go to. */
  protected final ApplicationEventPublisher events() {
    return events;
  }

  /** Publishes {@code event} to the application's publisher, on the calling thread. */
  protected final void publish(Object event) {
    events.publishEvent(event);
  }
}
