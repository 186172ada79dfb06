package io.zeocore.autoconfigure;

import io.zeocore.autoconfigure.actuate.RecentEvents;
import io.zeocore.autoconfigure.actuate.ZeoCoreActuatorProperties;
import io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint;
import io.zeocore.autoconfigure.connections.EffectTransitionEvent;
import io.zeocore.autoconfigure.connections.ReceiptRecordedEvent;
import io.zeocore.autoconfigure.connections.RecoverySweptEvent;
import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsProperties;
import io.zeocore.autoconfigure.execution.AttemptRecordedEvent;
import io.zeocore.autoconfigure.execution.ExecutionCompletedEvent;
import io.zeocore.autoconfigure.execution.TargetHealthChangedEvent;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionProperties;
import io.zeocore.autoconfigure.faults.ZeoCoreFaultsProperties;
import io.zeocore.autoconfigure.llm.ZeoCoreLlmProperties;
import io.zeocore.autoconfigure.springai.ZeoCoreSpringAiProperties;
import io.zeocore.autoconfigure.subprocess.ZeoCoreSubprocessProperties;
import io.zeocore.capability.CapabilityResult;
import io.zeocore.connections.contract.AuthorizationVerdict;
import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.ReadArtifact;
import io.zeocore.connections.contract.ReadReceipt;
import io.zeocore.connections.contract.ReadRecord;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.effect.EffectDispatchRequest;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectReconciliationRequest;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.effect.ReconciliationResult;
import io.zeocore.connections.read.ReadDispatchRequest;
import io.zeocore.connections.read.ReadDispatchResult;
import io.zeocore.connections.read.ReadResult;
import io.zeocore.connections.store.EffectClaim;
import io.zeocore.connections.store.ReadClaim;
import io.zeocore.connections.store.RecoveryCandidate;
import io.zeocore.connections.store.SqliteDatabase;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.TargetHealth;
import io.zeocore.execution.TargetHealthStore;
import io.zeocore.internal.MillisecondsJson;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;
import org.springframework.util.ClassUtils;

/**
 * What a native image of an application with ZeoCore must keep, beyond what Spring's AOT processing finds in its bean
 * definitions: the resources ZeoCore reads and the types it reads and writes reflectively. Registered in
 * {@code META-INF/spring/aot.factories}, so every application with the starter gets it.
 *
 * <ul>
 *   <li>The configuration metadata files that the start-up check of {@code zeocore.*} keys reads, and the properties
 *       classes it walks (their JavaBean properties, nested types included).</li>
 *   <li>Jackson binding of every type ZeoCore writes or reads as JSON: the runner's results, attempt records and
 *       policies, the starter's events, the recent events and (with Spring Boot's actuator) the {@code zeocore}
 *       endpoint's descriptors, and their custom (de)serializers ({@link MillisecondsJson}); the enums they hold come
 *       with their wire values.</li>
 *   <li>When {@code zeo-connections} is on the class path: the store's migrations and their index
 *       ({@code db/zeocore/**}, SQLite and PostgreSQL), the contract records the store and the orchestrators bind with
 *       {@code ContractJson} and their (de)serializers, the other records of the connections with a JSON form
 *       (dispatch requests and results, claims), the connections events and, when sqlite-jdbc is present, the native
 *       library of this platform that the embedded store copies and loads itself
 *       ({@link SqliteDatabase#nativeLibraryResource()}).</li>
 * </ul>
 *
 * Exception classes named by a policy's {@code failure-kinds} are the application's own: it registers them.
 */
final class ZeoCoreRuntimeHints implements RuntimeHintsRegistrar {

  /** The class whose presence means the connections are on the class path. */
  static final String CONNECTIONS = "io.zeocore.connections.contract.ContractJson";

  /** The type the endpoint's descriptors implement, present with Spring Boot's actuator. */
  static final String ACTUATOR = "org.springframework.boot.actuate.endpoint.OperationResponseBody";

  /** The class whose presence means sqlite-jdbc is on the class path. */
  static final String SQLITE_JDBC = "org.sqlite.SQLiteJDBCLoader";

  /** The configuration metadata files the key check reads, from every jar that has them. */
  static final List<String> CONFIGURATION_METADATA = List.of("META-INF/spring-configuration-metadata.json",
      "META-INF/additional-spring-configuration-metadata.json");

  @Override
  public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
    BindingReflectionHintsRegistrar binding = new BindingReflectionHintsRegistrar();
    Runner.register(hints, binding, classLoader);
    if (ClassUtils.isPresent(ACTUATOR, classLoader)) {
      Actuator.register(hints, binding);
    }
    if (ClassUtils.isPresent(CONNECTIONS, classLoader)) {
      Connections.register(hints, binding, classLoader);
    }
  }

  /** Everything the runner and the starter need, with or without the connections. */
  private static final class Runner {

    static void register(RuntimeHints hints, BindingReflectionHintsRegistrar binding,
        @Nullable ClassLoader classLoader) {
      CONFIGURATION_METADATA.forEach(hints.resources()::registerPattern);
      BindableRuntimeHintsRegistrar.forTypes(ZeoCoreExecutionProperties.class, ZeoCoreSubprocessProperties.class,
          ZeoCoreLlmProperties.class, ZeoCoreActuatorProperties.class, ZeoCoreSpringAiProperties.class,
          ZeoCoreFaultsProperties.class)
          .registerHints(hints, classLoader);
      binding.registerReflectionHints(hints.reflection(), ResilientExecutionResult.class, AttemptRecord.class,
          ExecutionPolicy.class, CapabilityResult.class, ExecutionCompletedEvent.class, AttemptRecordedEvent.class,
          RecentEvents.Entry.class, TargetHealthChangedEvent.class, TargetHealth.Change.class,
          TargetHealth.TargetState.class, TargetHealthStore.Entry.class);
      // @JsonMilliseconds names them through a meta-annotation, which binding hints do not follow
      hints.reflection().registerType(MillisecondsJson.Writer.class, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)
          .registerType(MillisecondsJson.Reader.class, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
    }
  }

  /** The actuator endpoint's answers; loaded only when Spring Boot's actuator is on the class path. */
  private static final class Actuator {

    static void register(RuntimeHints hints, BindingReflectionHintsRegistrar binding) {
      binding.registerReflectionHints(hints.reflection(), ZeoCoreEndpoint.ZeoCoreDescriptor.class,
          ZeoCoreEndpoint.EventsDescriptor.class, ZeoCoreEndpoint.PolicyView.class,
          ZeoCoreEndpoint.PolicyDescriptor.class, ZeoCoreEndpoint.TargetsDescriptor.class,
          ZeoCoreEndpoint.TargetView.class);
    }
  }

  /** The connections' part; loaded only when they are on the class path. */
  private static final class Connections {

    /** The contract's own (de)serializers: package-private, instantiated by Jackson or by {@code ContractJson}. */
    private static final List<String> CONTRACT_JSON = List.of("InstantJson$Writer", "InstantJson$Reader",
        "EffectKindJson$Writer", "EffectKindJson$Reader", "SecretRefJson$Redacting", "SecretRefJson$Raw",
        "SecretRefJson$RawMixIn");

    static void register(RuntimeHints hints, BindingReflectionHintsRegistrar binding,
        @Nullable ClassLoader classLoader) {
      hints.resources().registerPattern("db/zeocore/**");
      BindableRuntimeHintsRegistrar.forTypes(ZeoCoreConnectionsProperties.class).registerHints(hints, classLoader);
      binding.registerReflectionHints(hints.reflection(), Connection.class, ConnectorRevision.class,
          BusinessOperation.class, EffectAuthorization.class, AuthorizationVerdict.class, EffectRecord.class,
          EffectReceipt.class, ConfirmationEvidence.class, NormalizedError.class, ReadRecord.class, ReadReceipt.class,
          ReadArtifact.class, SecretRef.class, EffectDispatchRequest.class, EffectReconciliationRequest.class,
          ReadDispatchRequest.class, EffectResult.class, EffectDispatchResult.class, ReconciliationResult.class,
          ReadResult.class, ReadDispatchResult.class, EffectClaim.class, ReadClaim.class, RecoveryCandidate.class,
          EffectTransitionEvent.class, ReceiptRecordedEvent.class, RecoverySweptEvent.class);
      String contract = SecretRef.class.getPackageName() + ".";
      for (String serializer : CONTRACT_JSON) {
        hints.reflection().registerType(TypeReference.of(contract + serializer),
            MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
      }
      if (ClassUtils.isPresent(SQLITE_JDBC, classLoader)) {
        SqliteDatabase.nativeLibraryResource().ifPresent(hints.resources()::registerPattern);
      }
    }
  }
}
