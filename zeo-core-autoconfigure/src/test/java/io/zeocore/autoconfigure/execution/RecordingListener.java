package io.zeocore.autoconfigure.execution;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * A user configuration that keeps, in order, every {@link AttemptRecordedEvent} and {@link ExecutionCompletedEvent}
 * the context publishes; a test may add its own markers to {@link #events} between them.
 */
@Configuration(proxyBeanMethods = false)
class RecordingListener {

  final List<Object> events = new CopyOnWriteArrayList<>();

  @EventListener
  void attempt(AttemptRecordedEvent event) {
    events.add(event);
  }

  @EventListener
  void completed(ExecutionCompletedEvent event) {
    events.add(event);
  }
}
