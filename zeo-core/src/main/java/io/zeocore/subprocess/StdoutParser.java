package io.zeocore.subprocess;

/**
 * Turns a child's complete stdout into the attempt's typed value, e.g. {@code bytes -> mapper.readValue(bytes,
 * Reply.class)}. Called once per attempt, only after the child exited with code 0 and only with at most
 * {@link SubprocessInvocation#maxOutputBytes()} bytes.
 *
 * <p>Any exception it throws makes the attempt {@link io.zeocore.execution.FailureKind#MALFORMED_RESPONSE}, as does a
 * {@code null} value or one that is not an instance of the target's response type. The exception is dropped, not
 * chained: parser messages routinely quote the input (Jackson does), and stdout must not reach exceptions or logs.
 *
 * @param <T> the parsed type
 */
@FunctionalInterface
public interface StdoutParser<T> {

  /**
   * Parses stdout.
   *
   * @param stdout the bytes the child wrote, exactly; the array belongs to the parser
   */
  T parse(byte[] stdout) throws Exception;
}
