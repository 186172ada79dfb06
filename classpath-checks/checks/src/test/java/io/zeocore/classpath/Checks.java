package io.zeocore.classpath;

/** What the programs assert, with nothing but the JDK: a broken expectation ends the child JVM with a failure. */
final class Checks {

  private Checks() {}

  static void require(boolean holds, String what) {
    if (!holds) {
      throw new IllegalStateException("unexpected: " + what);
    }
  }
}
