package io.zeocore.autoconfigure.subprocess;

import io.zeocore.execution.FailureKind;
import io.zeocore.subprocess.SubprocessInvocation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of ZeoCore's subprocess providers: child processes that the operating system stops, with
 * their whole process tree, at each attempt's deadline. Each entry of {@code zeocore.subprocess.providers} becomes a
 * provider of {@link SubprocessProviders}, under its key as target id.
 */
@ConfigurationProperties("zeocore.subprocess")
public class ZeoCoreSubprocessProperties {

  /** Whether to enable ZeoCore's subprocess providers. */
  private boolean enabled = true;

  /** Subprocess providers by id; the id is the target id that policies plan. */
  private final Map<String, Provider> providers = new LinkedHashMap<>();

  public boolean isEnabled() {
    return this.enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Map<String, Provider> getProviders() {
    return this.providers;
  }

  /** One provider: what to execute and how it is stopped. The request of each call goes to stdin. */
  public static class Provider {

    /**
     * The executable (an absolute path to an ELF binary or a script with an absolute #! line) and its arguments,
     * passed as-is without a shell. Arguments are visible in the process list: requests go to stdin.
     */
    private List<String> argv = new ArrayList<>();

    /** Working directory of the child; the application's when unset. */
    private @Nullable Path workingDirectory;

    /**
     * The child's complete environment; it inherits nothing else (not even PATH). Environments are readable by the
     * same user: put no secrets here.
     */
    private final Map<String, String> environment = new LinkedHashMap<>();

    /** Time between SIGTERM and SIGKILL when an attempt is stopped; zero kills at once. */
    private Duration terminationGrace = SubprocessInvocation.DEFAULT_TERMINATION_GRACE;

    /** How often the attempt's cancellation token is checked while the child runs. */
    private Duration cancellationPoll = SubprocessInvocation.DEFAULT_CANCELLATION_POLL;

    /** Most stdout kept; more stops the child and fails the attempt as a malformed response. */
    private DataSize maxOutput = DataSize.ofBytes(SubprocessInvocation.DEFAULT_MAX_OUTPUT_BYTES);

    /**
     * Failure kind of each listed non-zero exit code, e.g. 75: transient; other non-zero codes are permanent.
     */
    private final Map<Integer, FailureKind> exitCodes = new LinkedHashMap<>();

    public List<String> getArgv() {
      return this.argv;
    }

    public void setArgv(List<String> argv) {
      this.argv = argv;
    }

    public @Nullable Path getWorkingDirectory() {
      return this.workingDirectory;
    }

    public void setWorkingDirectory(@Nullable Path workingDirectory) {
      this.workingDirectory = workingDirectory;
    }

    public Map<String, String> getEnvironment() {
      return this.environment;
    }

    public Duration getTerminationGrace() {
      return this.terminationGrace;
    }

    public void setTerminationGrace(Duration terminationGrace) {
      this.terminationGrace = terminationGrace;
    }

    public Duration getCancellationPoll() {
      return this.cancellationPoll;
    }

    public void setCancellationPoll(Duration cancellationPoll) {
      this.cancellationPoll = cancellationPoll;
    }

    public DataSize getMaxOutput() {
      return this.maxOutput;
    }

    public void setMaxOutput(DataSize maxOutput) {
      this.maxOutput = maxOutput;
    }

    public Map<Integer, FailureKind> getExitCodes() {
      return this.exitCodes;
    }
  }
}
