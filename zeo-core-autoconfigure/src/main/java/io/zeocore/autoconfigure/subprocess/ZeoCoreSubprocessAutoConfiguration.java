package io.zeocore.autoconfigure.subprocess;

import io.zeocore.InvalidFieldException;
import io.zeocore.autoconfigure.internal.InvalidFields;
import io.zeocore.subprocess.SubprocessInvocation;
import io.zeocore.subprocess.SubprocessTargets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of ZeoCore's subprocess
 * providers from {@code zeocore.subprocess.providers.<id>.*}. Switched off by {@code zeocore.subprocess.enabled=false};
 * backs off when the application defines its own {@link SubprocessProviders}.
 *
 * <p>Every provider is checked at start-up (also under lazy initialization): its id must be a valid target id, its
 * settings valid, and its executable runnable without a shell. A failed check stops start-up naming the property.
 */
@AutoConfiguration
@ConditionalOnClass(SubprocessTargets.class)
@ConditionalOnBooleanProperty(name = "zeocore.subprocess.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ZeoCoreSubprocessProperties.class)
public final class ZeoCoreSubprocessAutoConfiguration {

  private static final String PREFIX = "zeocore.subprocess.providers.";

  @Bean
  @Lazy(false)
  @ConditionalOnMissingBean
  SubprocessProviders zeoCoreSubprocessProviders(ZeoCoreSubprocessProperties properties) {
    Map<String, SubprocessInvocation> providers = new LinkedHashMap<>();
    properties.getProviders().forEach((id, provider) -> providers.put(id, invocation(id, provider)));
    return SubprocessProviders.of(providers);
  }

  private static SubprocessInvocation invocation(String id, ZeoCoreSubprocessProperties.Provider provider) {
    String prefix = PREFIX + id;
    long maxOutput = provider.getMaxOutput() != null ? provider.getMaxOutput().toBytes() : -1;
    if (maxOutput < 1 || maxOutput > SubprocessInvocation.MAX_OUTPUT_BYTES_LIMIT) {
      throw new InvalidConfigurationPropertyValueException(prefix + ".max-output", provider.getMaxOutput(),
          "max-output must be between 1B and " + SubprocessInvocation.MAX_OUTPUT_BYTES_LIMIT + "B");
    }
    SubprocessInvocation invocation;
    try {
      invocation = new SubprocessInvocation(provider.getArgv(), new byte[0], provider.getWorkingDirectory(),
          provider.getEnvironment(), provider.getTerminationGrace(), provider.getCancellationPoll(), (int) maxOutput,
          provider.getExitCodes());
    } catch (InvalidFieldException invalid) {
      Object value = switch (invalid.field()) {
        case "argv[0]" -> provider.getArgv().get(0);
        case "argv" -> provider.getArgv();
        case "terminationGrace" -> provider.getTerminationGrace();
        case "cancellationPoll" -> provider.getCancellationPoll();
        case "exitCodeFailureKinds" -> provider.getExitCodes();
        default -> null; // the environment's values are never echoed: they may be sensitive
      };
      throw InvalidFields.toProperty(prefix, invalid, Map.of("exitCodeFailureKinds", "exit-codes",
          "maxOutputBytes", "max-output"), value);
    }
    try {
      // validates the id as a target id and the executable (ELF or an absolute #! interpreter) without spawning
      SubprocessTargets.subprocessTarget(id, invocation, Object.class, stdout -> stdout);
    } catch (IllegalArgumentException invalid) {
      boolean idProblem = String.valueOf(invalid.getMessage()).startsWith("target id");
      throw new InvalidConfigurationPropertyValueException(idProblem ? prefix : prefix + ".argv[0]",
          idProblem ? id : invocation.argv().get(0),
          idProblem ? "the provider id is its target id: " + invalid.getMessage() : invalid.getMessage());
    }
    return invocation;
  }
}
