package io.zeocore.autoconfigure.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Records every observation a registry starts, in start order (TestObservationRegistry keeps its own list private). */
final class StartedObservations {

  private StartedObservations() {}

  /** The contexts of the observations {@code registry} starts from now on. */
  static Queue<Observation.Context> recordedBy(ObservationRegistry registry) {
    Queue<Observation.Context> started = new ConcurrentLinkedQueue<>();
    registry.observationConfig().observationHandler(new ObservationHandler<>() {
      @Override
      public void onStart(Observation.Context context) {
        started.add(context);
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }
    });
    return started;
  }
}
