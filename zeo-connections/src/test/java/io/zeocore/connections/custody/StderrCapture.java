package io.zeocore.connections.custody;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Captures {@link System#err}, where slf4j-simple writes log lines in tests. */
final class StderrCapture implements AutoCloseable {

  private final PrintStream original = System.err;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

  StderrCapture() {
    System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
  }

  String text() {
    System.err.flush();
    return buffer.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
