package io.zeocore.autoconfigure.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.autoconfigure.llm.ZeoCoreLlmAutoConfiguration;
import io.zeocore.autoconfigure.subprocess.ZeoCoreSubprocessAutoConfiguration;
import io.zeocore.execution.ExecutionPolicies;
import io.zeocore.execution.ZeoCoreExecutions;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

@ExtendWith(OutputCaptureExtension.class)
class ZeoCoreConfigurationKeysAutoConfigurationTests {

  private static final String POLICY = "zeocore.execution.policies.summarize.";

  @TempDir
  Path temp;

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreConfigurationKeysAutoConfiguration.class,
          ZeoCoreExecutionAutoConfiguration.class, ZeoCoreConnectionsAutoConfiguration.class,
          ZeoCoreLlmAutoConfiguration.class, ZeoCoreSubprocessAutoConfiguration.class));

  @Test
  void aMisspelledPolicyKeyStopsStartUpWithTheKeyItsOriginAndTheKeyMeant() {
    contextRunner.withPropertyValues(POLICY + "total-timeout=10s", POLICY + "atempt-timeout=5s",
        POLICY + "attempt-targets=a").run(context -> {
          UnknownConfigurationKeysException failure = unknownKeys(context);
          assertThat(failure.keys()).singleElement().satisfies(key -> {
            assertThat(key.key()).isEqualTo(POLICY + "atempt-timeout");
            assertThat(key.suggestion()).isEqualTo(POLICY + "attempt-timeout");
          });
          FailureAnalysis analysis = new UnknownConfigurationKeysFailureAnalyzer().analyze(failure);
          assertThat(analysis.getDescription()).contains("Property: " + POLICY + "atempt-timeout",
              "did you mean " + POLICY + "attempt-timeout?");
        });
  }

  @Test
  void aMisspelledConfigKeyIsRefusedLikeAPolicyKey() {
    contextRunner.withPropertyValues("zeocore.execution.configs.default.backof=200ms")
        .run(context -> assertThat(unknownKeys(context).keys()).singleElement()
            .satisfies(key -> assertThat(key.suggestion()).isEqualTo("zeocore.execution.configs.default.backoff")));
  }

  @Test
  void aMisspelledSectionIsRefusedNamingTheSectionMeant() {
    contextRunner.withPropertyValues("zeocore.executon.policies.summarize.total-timeout=10s")
        .run(context -> assertThat(unknownKeys(context).keys()).singleElement().satisfies(key -> {
          assertThat(key.key()).isEqualTo("zeocore.executon");
          assertThat(key.suggestion()).isEqualTo("zeocore.execution");
        }));
  }

  @Test
  void misspelledKeysInProvidersAndConnectionsAreRefusedBeforeAnyFileIsCreated() {
    Path store = temp.resolve("store/zeocore.db");
    contextRunner.withPropertyValues("zeocore.subprocess.providers.local.argv=/bin/true",
        "zeocore.subprocess.providers.local.termination-grase=1s", "zeocore.connections.store.path=" + store,
        "zeocore.connections.recovery.intervall=5s", "zeocore.llm.ollama.modle=qwen3")
        .run(context -> {
          assertThat(unknownKeys(context).keys()).extracting(UnknownConfigurationKeysException.UnknownKey::key)
              .containsExactlyInAnyOrder("zeocore.subprocess.providers.local.termination-grase",
                  "zeocore.connections.recovery.intervall", "zeocore.llm.ollama.modle");
          assertThat(unknownKeys(context).keys()).extracting(UnknownConfigurationKeysException.UnknownKey::suggestion)
              .containsExactlyInAnyOrder("zeocore.subprocess.providers.local.termination-grace",
                  "zeocore.connections.recovery.interval", "zeocore.llm.ollama.model");
          assertThat(store.getParent()).doesNotExist();
        });
  }

  @Test
  void everyKnownKindOfKeyIsAccepted() {
    contextRunner.withPropertyValues("zeocore.execution.enabled=true",
        "zeocore.execution.configs.default.total-timeout=10s", "zeocore.execution.configs.default.attempt-timeout=5s",
        POLICY + "targets=call-time", POLICY + "attempt-targets[0]=local", POLICY + "attempt-targets[1]=remote", POLICY + "backoff=100ms", POLICY + "retryable-failures=transient",
        "zeocore.subprocess.providers.local.argv=/bin/true", "zeocore.subprocess.providers.local.exit-codes.75=transient",
        "zeocore.llm.ollama.model=qwen3", "zeocore.llm.ollama.maxresponsesize=1MB", "zeocore.metrics.enabled=true", "zeocore.validation.unknown-keys=true")
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void anUnknownFailureKindForAnExitCodeIsReportedInTheWordsOfTheYaml() {
    contextRunner.withPropertyValues("zeocore.subprocess.providers.local.argv=/bin/true",
        "zeocore.subprocess.providers.local.exit-codes.75=transiant").run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = new InvalidZeoCoreValueFailureAnalyzer().analyze(context.getStartupFailure());
          assertThat(analysis).isNotNull();
          assertThat(analysis.getDescription()).contains(
              "Property: zeocore.subprocess.providers.local.exit-codes.75", "Value: \"transiant\"",
              "Rule: expected one of timeout, transient, rate-limit, malformed-response").doesNotContain("TRANSIENT");
        });
  }

  @Test
  void aZeoCoreSystemPropertyOfTheBuildDoesNotStopStartUpAndIsNamedInOneInfoLine(CapturedOutput output) {
    contextRunner.withSystemProperties("zeocore.version=0.1.0-SNAPSHOT", "zeocore.executon.x=1")
        .withPropertyValues("zeocore.metrics.enabled=true").run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(output).containsOnlyOnce("Ignoring JVM system properties that are not ZeoCore configuration "
              + "keys: zeocore.executon, zeocore.version");
        });
  }

  @Test
  void aKnownKeySetAsASystemPropertyStillApplies() {
    contextRunner.withSystemProperties("zeocore.execution.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ZeoCoreExecutions.class));
  }

  @Test
  void aTypoInTheApplicationsPropertiesStillStopsStartUpBesideASystemProperty() {
    contextRunner.withSystemProperties("zeocore.version=0.1.0-SNAPSHOT")
        .withPropertyValues(POLICY + "total-timeout=10s", POLICY + "atempt-timeout=5s")
        .run(context -> assertThat(unknownKeys(context).keys()).extracting(UnknownConfigurationKeysException.UnknownKey::key)
            .containsExactly(POLICY + "atempt-timeout"));
  }

  @Test
  void aSpringApplicationStartsWithTheSystemPropertyAndStopsOnATypoInItsConfigFile() {
    String previous = System.setProperty("zeocore.version", "0.1.0-SNAPSHOT");
    try {
      try (ConfigurableApplicationContext context = application()
          .run("--spring.config.location=classpath:/configuration-keys/valid.properties")) {
        assertThat(context.getBean(ExecutionPolicies.class).get("summarize").attemptTimeout())
            .hasSeconds(5);
      }
      assertThatThrownBy(() -> application()
          .run("--spring.config.location=classpath:/configuration-keys/typo.properties"))
          .isInstanceOfSatisfying(UnknownConfigurationKeysException.class, failure -> {
            assertThat(failure.keys()).singleElement().satisfies(key -> {
              assertThat(key.key()).isEqualTo(POLICY + "atempt-timeout");
              assertThat(key.origin()).contains("typo.properties");
            });
          });
    } finally {
      if (previous == null) {
        System.clearProperty("zeocore.version");
      } else {
        System.setProperty("zeocore.version", previous);
      }
    }
  }

  @Test
  void aTypoOnTheCommandLineStillStopsStartUp() {
    assertThatThrownBy(() -> application().run("--" + POLICY + "atempt-timeout=5s"))
        .isInstanceOfSatisfying(UnknownConfigurationKeysException.class, failure -> assertThat(failure.keys())
            .extracting(UnknownConfigurationKeysException.UnknownKey::key).containsExactly(POLICY + "atempt-timeout"));
  }

  private static SpringApplication application() {
    SpringApplication application = new SpringApplication(KeysApplication.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    application.setDefaultProperties(Map.of("spring.main.banner-mode", "off",
        POLICY + "attempt-targets", "a", POLICY + "targets", "call-time"));
    return application;
  }

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({ZeoCoreConfigurationKeysAutoConfiguration.class, ZeoCoreExecutionAutoConfiguration.class})
  static class KeysApplication {}

  @Test
  void theCheckCanBeSwitchedOff() {
    contextRunner.withPropertyValues("zeocore.validation.unknown-keys=false", "zeocore.executon.x=1")
        .run(context -> assertThat(context).hasNotFailed());
  }

  private static UnknownConfigurationKeysException unknownKeys(AssertableApplicationContext context) {
    assertThat(context).hasFailed();
    Throwable failure = context.getStartupFailure();
    while (failure != null && !(failure instanceof UnknownConfigurationKeysException)) {
      failure = failure.getCause();
    }
    assertThat(failure).as("the start-up failure").isInstanceOf(UnknownConfigurationKeysException.class);
    return (UnknownConfigurationKeysException) failure;
  }
}
