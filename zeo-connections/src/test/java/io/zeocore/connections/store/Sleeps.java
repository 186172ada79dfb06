package io.zeocore.connections.store;

/** The store and recovery tests' waits for the database's clock to move on (leases, staleness). */
public final class Sleeps {

  private Sleeps() {}

  /** Sleeps {@code millis}; an interrupt is kept on the thread and fails the test. */
  public static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
