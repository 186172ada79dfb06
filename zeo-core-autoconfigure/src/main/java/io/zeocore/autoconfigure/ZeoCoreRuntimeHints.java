package io.zeocore.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.util.ClassUtils;

/**
 * What ZeoCore loads as resources or binds reflectively, for Spring AOT and native images (registered in
 * {@code META-INF/spring/aot.factories}, so every application with the starter has it):
 * <ul>
 *   <li>the configuration metadata the start-up check of {@code zeocore.*} keys reads;</li>
 *   <li>with ZeoCore's connections: the store's migrations and their index ({@code db/zeocore/**}), read by the store
 *       and by its private Flyway; sqlite-jdbc's native libraries ({@code org/sqlite/native/**}), which the store
 *       loads itself; and Jackson binding for the connection contracts (records bound by {@code ContractJson});</li>
 *   <li>Jackson binding for the runner's evidence written as JSON (results, attempt records, usage, events) and the
 *       actuator endpoint's descriptors.</li>
 * </ul>
 * What the application's own code binds (controllers' bodies, its own records) Spring's AOT processing registers itself.
 */
public final class ZeoCoreRuntimeHints implements RuntimeHintsRegistrar {

  private static final String CONNECTIONS = "io.zeocore.connections.contract.ContractJson";

  /** The runner's evidence and events, written as JSON by applications, events and the actuator. */
  private static final String[] EXECUTION_TYPES = {
      "io.zeocore.execution.ResilientExecutionResult", "io.zeocore.execution.AttemptRecord",
      "io.zeocore.execution.ModelUsage", "io.zeocore.execution.ExecutionPolicy",
      "io.zeocore.autoconfigure.execution.AttemptRecordedEvent",
      "io.zeocore.autoconfigure.execution.ExecutionCompletedEvent",
      "io.zeocore.autoconfigure.actuate.RecentEvents$Entry",
      "io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint$ZeoCoreDescriptor",
      "io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint$PolicyView",
      "io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint$EventsDescriptor"};

  /** The connection contracts the store and applications bind. */
  private static final String[] CONTRACT_TYPES = {
      "io.zeocore.connections.contract.EffectAuthorization", "io.zeocore.connections.contract.EffectRecord",
      "io.zeocore.connections.contract.EffectReceipt", "io.zeocore.connections.contract.ConfirmationEvidence",
      "io.zeocore.connections.contract.ConfirmationEvidenceRef", "io.zeocore.connections.contract.ReadRecord",
      "io.zeocore.connections.contract.ReadReceipt", "io.zeocore.connections.contract.ReadArtifact",
      "io.zeocore.connections.contract.Connection", "io.zeocore.connections.contract.ConnectorRevision",
      "io.zeocore.connections.contract.BusinessOperation", "io.zeocore.connections.contract.NormalizedError",
      "io.zeocore.autoconfigure.connections.EffectTransitionEvent",
      "io.zeocore.autoconfigure.connections.ReceiptRecordedEvent"};

  @Override
  public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
    hints.resources().registerPattern("META-INF/spring-configuration-metadata.json");
    hints.resources().registerPattern("META-INF/additional-spring-configuration-metadata.json");
    BindingReflectionHintsRegistrar binding = new BindingReflectionHintsRegistrar();
    register(binding, hints, classLoader, EXECUTION_TYPES);
    if (ClassUtils.isPresent(CONNECTIONS, classLoader)) {
      hints.resources().registerPattern("db/zeocore/*/*");
      hints.resources().registerPattern("org/sqlite/native/**");
      register(binding, hints, classLoader, CONTRACT_TYPES);
    }
  }

  private static void register(BindingReflectionHintsRegistrar binding, RuntimeHints hints,
      @Nullable ClassLoader classLoader, String[] typeNames) {
    for (String typeName : typeNames) {
      if (ClassUtils.isPresent(typeName, classLoader)) {
        binding.registerReflectionHints(hints.reflection(), ClassUtils.resolveClassName(typeName, classLoader));
      }
    }
  }
}
