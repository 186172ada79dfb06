package io.zeocore.subprocess;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Checks that a file will be executed by the kernel itself and never handed to {@code /bin/sh}.
 *
 * <p>When {@code execve} fails with {@code ENOEXEC} (a file without a recognised header), both the JDK and glibc's
 * {@code execvp} (used by {@code setsid}) silently run the file through {@code /bin/sh}. A subprocess target must not
 * use a shell, so the executable must be an ELF binary (a Mach-O binary on macOS) or a script whose {@code #!} line
 * names an absolute interpreter that passes the same check (up to the kernel's four levels of nesting). The header is
 * read from the first 256 bytes, the kernel's {@code BINPRM_BUF_SIZE}. Windows has no shell fallback; there only the
 * file's existence is checked.
 */
final class ExecutableFormat {

  private static final int HEADER_BYTES = 256;
  private static final int MAX_INTERPRETER_DEPTH = 4;
  private static final String OS = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);

  private ExecutableFormat() {}

  /** A description of why {@code executable} may not be run, or empty when it may. */
  static Optional<String> problem(Path executable) {
    return problem(executable, 0);
  }

  private static Optional<String> problem(Path executable, int depth) {
    if (!Files.isRegularFile(executable)) {
      return Optional.of("executable does not exist or is not a regular file: " + executable);
    }
    if (!Files.isExecutable(executable)) {
      return Optional.of("executable is not executable by this process: " + executable);
    }
    if (OS.startsWith("windows")) {
      return Optional.empty();
    }
    byte[] header;
    try (InputStream in = Files.newInputStream(executable)) {
      header = in.readNBytes(HEADER_BYTES);
    } catch (IOException | RuntimeException unreadable) {
      return Optional.of("executable cannot be read to verify its format: " + executable);
    }
    if (isElf(header) || (OS.startsWith("mac") && isMachO(header))) {
      return Optional.empty();
    }
    if (header.length >= 2 && header[0] == '#' && header[1] == '!') {
      return interpreterProblem(executable, header, depth);
    }
    return Optional.of("executable is neither a native binary nor a script starting with #! "
        + "(it would be run through /bin/sh): " + executable);
  }

  private static Optional<String> interpreterProblem(Path script, byte[] header, int depth) {
    int start = 2;
    while (start < header.length && (header[start] == ' ' || header[start] == '\t')) {
      start++;
    }
    int end = start;
    while (end < header.length && !isLineSpace(header[end])) {
      end++;
    }
    if (end == header.length && header.length == HEADER_BYTES) {
      return Optional.of("#! line is longer than " + HEADER_BYTES + " bytes: " + script);
    }
    String interpreter = new String(header, start, end - start, StandardCharsets.UTF_8);
    if (interpreter.isEmpty() || interpreter.charAt(0) != '/') {
      return Optional.of("#! line must name an absolute interpreter: " + script);
    }
    if (depth + 1 >= MAX_INTERPRETER_DEPTH) {
      return Optional.of("#! interpreters are nested too deeply: " + script);
    }
    return problem(Path.of(interpreter), depth + 1)
        .map(cause -> "#! interpreter of " + script + " is unusable: " + cause);
  }

  private static boolean isLineSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == 0;
  }

  private static boolean isElf(byte[] header) {
    return header.length >= 4 && header[0] == 0x7f && header[1] == 'E' && header[2] == 'L' && header[3] == 'F';
  }

  private static boolean isMachO(byte[] header) {
    if (header.length < 4) {
      return false;
    }
    int magic = ((header[0] & 0xff) << 24) | ((header[1] & 0xff) << 16) | ((header[2] & 0xff) << 8)
        | (header[3] & 0xff);
    return magic == 0xfeedface || magic == 0xfeedfacf || magic == 0xcefaedfe || magic == 0xcffaedfe
        || magic == 0xcafebabe;
  }
}
