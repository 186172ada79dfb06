package io.zeocore.autoconfigure.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ZeoCoreExecutions;
import io.zeocore.llm.ChatMessage;
import io.zeocore.llm.LlmClient;
import io.zeocore.llm.LlmOptions;
import io.zeocore.llm.LlmTargets;
import io.zeocore.llm.LoopbackServer;
import io.zeocore.llm.OllamaClient;
import io.zeocore.llm.OpenAiClient;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.Ordered;

class ZeoCoreLlmAutoConfigurationTests {

  private static final String KEY = "sk-canary-5d1e0b";

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ZeoCoreLlmAutoConfiguration.class));

  @Test
  void createsNoClientUntilAProviderIsConfigured() {
    contextRunner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LlmClient.class));
  }

  @Test
  void createsOnlyTheConfiguredProvidersClientsWithTheirSettings() {
    contextRunner.withPropertyValues("zeocore.llm.ollama.model=qwen3:latest", "zeocore.llm.ollama.timeout=90s")
        .run(context -> {
          assertThat(context).hasSingleBean(OllamaClient.class).doesNotHaveBean(OpenAiClient.class);
          OllamaClient ollama = context.getBean(OllamaClient.class);
          assertThat(ollama.model()).isEqualTo("qwen3:latest");
          assertThat(ollama.timeout()).isEqualTo(Duration.ofSeconds(90));
          assertThat(ollama.baseUrl()).isEqualTo(URI.create("http://localhost:11434"));
        });
    contextRunner.withPropertyValues("zeocore.llm.openai.api-key=" + KEY,
        "zeocore.llm.openai.base-url=http://127.0.0.1:8000/v1", "zeocore.llm.openai.organization=org-1")
        .run(context -> {
          assertThat(context).hasSingleBean(OpenAiClient.class).doesNotHaveBean(OllamaClient.class);
          OpenAiClient openai = context.getBean(OpenAiClient.class);
          assertThat(openai.hasApiKey()).isTrue();
          assertThat(openai.organization()).isEqualTo("org-1");
          assertThat(openai.baseUrl()).isEqualTo(URI.create("http://127.0.0.1:8000/v1"));
          assertThat(openai.toString()).doesNotContain(KEY);
        });
  }

  @Test
  void backsOffWhenDisabledWithoutTheLibraryOrForAUserClient() {
    contextRunner.withPropertyValues("zeocore.llm.enabled=false", "zeocore.llm.ollama.model=m")
        .run(context -> assertThat(context).doesNotHaveBean(LlmClient.class));
    contextRunner.withPropertyValues("zeocore.llm.ollama.model=m")
        .withClassLoader(new FilteredClassLoader(LlmClient.class))
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(OllamaClient.class));
    OllamaClient mine = OllamaClient.builder().model("mine").build();
    contextRunner.withPropertyValues("zeocore.llm.ollama.model=m").withBean(OllamaClient.class, () -> mine)
        .run(context -> assertThat(context.getBean(OllamaClient.class)).isSameAs(mine));
  }

  @Test
  void invalidSettingStopsStartUpNamingThePropertyButNeverTheKey() {
    contextRunner.withPropertyValues("zeocore.llm.openai.api-key=" + KEY,
        "zeocore.llm.openai.base-url=ftp://models.example")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).rootCause()
              .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, invalid -> {
                assertThat(invalid.getName()).isEqualTo("zeocore.llm.openai.base-url");
                assertThat(invalid.getReason()).isEqualTo("base-url must be an absolute http or https URL");
              });
          assertThat(context.getStartupFailure()).rootCause().message().doesNotContain(KEY);
        });
    contextRunner.withPropertyValues("zeocore.llm.ollama.timeout=0s")
        .run(context -> assertThat(context.getStartupFailure()).rootCause()
            .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class,
                invalid -> assertThat(invalid.getName()).isEqualTo("zeocore.llm.ollama.timeout")));
  }

  @Test
  void anUnresolvedApiKeyPlaceholderStopsStartUpInsteadOfBeingSentAsTheKey() {
    contextRunner.withPropertyValues("zeocore.llm.openai.api-key=${OPENAI_API_KEY_THAT_IS_NOT_SET}")
        .run(context -> assertThat(context.getStartupFailure()).rootCause()
            .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, invalid -> {
              assertThat(invalid.getName()).isEqualTo("zeocore.llm.openai.api-key");
              assertThat(invalid.getReason()).contains("unresolved ${...} placeholder");
              assertThat(invalid.getValue()).isNull();
            }));
  }

  @Test
  void configuredOllamaClientServesAPolicyThroughAChatTarget() throws Exception {
    try (LoopbackServer server = LoopbackServer.start()) {
      server.replies(LoopbackServer.ollamaReply("a short summary"));
      contextRunner.withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class))
          .withPropertyValues("zeocore.llm.ollama.base-url=" + server.baseUrl(),
              "zeocore.llm.ollama.model=qwen3:latest",
              "zeocore.execution.policies.summarize.total-timeout=10s",
              "zeocore.execution.policies.summarize.attempt-timeout=5s",
              "zeocore.execution.policies.summarize.attempt-targets=ollama-local",
              "zeocore.execution.policies.summarize.targets=call-time")
          .run(context -> {
            OllamaClient ollama = context.getBean(OllamaClient.class);
            ResilientExecutionResult<String> result = context.getBean(ZeoCoreExecutions.class).run("summarize",
                List.of(LlmTargets.chatTarget("ollama-local", ollama, List.of(ChatMessage.user("summarize this")))));
            assertThat(result.value()).isEqualTo("a short summary");
            LoopbackServer.Request request = server.onlyRequest();
            assertThat(request.path()).isEqualTo("/api/chat");
            assertThat(new String(request.body(), StandardCharsets.UTF_8))
                .contains("\"model\":\"qwen3:latest\"", "summarize this");
          });
    }
  }

  @Test
  void httpClientCustomizersShapeEachClientsHttpClientInOrder() throws Exception {
    List<String> calls = new CopyOnWriteArrayList<>();
    try (LoopbackServer proxy = LoopbackServer.start()) {
      proxy.replies(LoopbackServer.ollamaReply("via the proxy"));
      URI proxyUrl = proxy.baseUrl();
      contextRunner
          .withPropertyValues("zeocore.llm.ollama.base-url=http://models.example.invalid:11434",
              "zeocore.llm.ollama.model=m", "zeocore.llm.openai.api-key=" + KEY)
          .withBean("second", LlmHttpClientCustomizer.class, () -> new OrderedCustomizer(2,
              (provider, builder) -> calls.add("second:" + provider)))
          .withBean("first", LlmHttpClientCustomizer.class, () -> new OrderedCustomizer(1, (provider, builder) -> {
            calls.add("first:" + provider);
            builder.proxy(ProxySelector.of(new InetSocketAddress(proxyUrl.getHost(), proxyUrl.getPort())));
          }))
          .run(context -> {
            assertThat(calls).containsExactlyInAnyOrder("first:ollama", "second:ollama", "first:openai",
                "second:openai");
            assertThat(calls.indexOf("first:ollama")).isLessThan(calls.indexOf("second:ollama"));
            String answer = context.getBean(OllamaClient.class)
                .chatOnce(List.of(ChatMessage.user("hi")), LlmOptions.defaults(), Duration.ofSeconds(5));
            assertThat(answer).isEqualTo("via the proxy");
            assertThat(proxy.onlyRequest().path()).isEqualTo("/api/chat");
          });
    }
  }

  private record OrderedCustomizer(int order, LlmHttpClientCustomizer delegate)
      implements LlmHttpClientCustomizer, Ordered {

    @Override
    public void customize(String provider, HttpClient.Builder builder) {
      delegate.customize(provider, builder);
    }

    @Override
    public int getOrder() {
      return order;
    }
  }
}
