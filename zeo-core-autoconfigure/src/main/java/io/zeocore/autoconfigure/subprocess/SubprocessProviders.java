package io.zeocore.autoconfigure.subprocess;

import io.zeocore.autoconfigure.internal.ConfiguredNames;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.subprocess.StdoutParser;
import io.zeocore.subprocess.SubprocessInvocation;
import io.zeocore.subprocess.SubprocessTargets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The application's configured subprocess providers, by id, and the targets they make for each call. Immutable and
 * thread-safe.
 *
 * <p>A provider is a configured {@link SubprocessInvocation} without a request; {@link #target} adds the call's
 * request (written to the child's stdin) and returns a {@link SubprocessTargets subprocess target} under the
 * provider's id, which the policy plans. The target's timing, tree-kill and evidence rules are those of
 * {@link SubprocessTargets}: the executable is checked again before every spawn, and a check that fails then is a
 * {@code PERMANENT} attempt with nothing spawned.
 */
public final class SubprocessProviders {

  private final Map<String, SubprocessInvocation> providers;

  private SubprocessProviders(Map<String, SubprocessInvocation> providers) {
    this.providers = providers;
  }

  /** Providers from a map of id to invocation (its input bytes are replaced by each call's request). */
  public static SubprocessProviders of(Map<String, SubprocessInvocation> providers) {
    Map<String, SubprocessInvocation> copy = new LinkedHashMap<>();
    providers.forEach((id, invocation) -> copy.put(Objects.requireNonNull(id, "provider id"),
        Objects.requireNonNull(invocation, () -> "provider '" + id + "'")));
    return new SubprocessProviders(Collections.unmodifiableMap(copy));
  }

  /** The provider ids in configuration order. */
  public Set<String> ids() {
    return providers.keySet();
  }

  /**
   * The configured invocation of provider {@code id}, without a request.
   *
   * @throws IllegalArgumentException naming the configured providers when there is none called {@code id}
   */
  public SubprocessInvocation invocation(String id) {
    SubprocessInvocation invocation = providers.get(id);
    if (invocation == null) {
      throw ConfiguredNames.notConfigured("subprocess provider", id, providers.keySet(),
          "zeocore.subprocess.providers");
    }
    return invocation;
  }

  /**
   * A target for one call of provider {@code id}: every attempt runs the provider's child with {@code request} on
   * stdin and parses its stdout.
   *
   * @param request the bytes written to stdin (copied); never recorded
   * @param responseType every parsed value must be an instance of it
   * @param parseStdout parses the complete stdout of a child that exited with 0
   * @throws IllegalArgumentException when there is no provider {@code id}
   */
  public <T> SyncExecutionTarget<T> target(String id, byte[] request, Class<T> responseType,
      StdoutParser<T> parseStdout) {
    SubprocessInvocation invocation = invocation(id).withInputBytes(Objects.requireNonNull(request, "request"));
    return SubprocessTargets.subprocessTarget(id, context -> invocation, responseType, parseStdout);
  }

  @Override
  public String toString() {
    return "SubprocessProviders" + providers.keySet();
  }
}
