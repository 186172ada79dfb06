package io.zeocore.autoconfigure.llm;

import io.zeocore.InvalidFieldException;
import io.zeocore.autoconfigure.internal.InvalidFields;
import io.zeocore.autoconfigure.internal.SecretValues;
import io.zeocore.llm.LlmClient;
import io.zeocore.llm.LlmClientBuilder;
import io.zeocore.llm.OllamaClient;
import io.zeocore.llm.OpenAiClient;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.util.unit.DataSize;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of ZeoCore's one-attempt
 * LLM clients: an {@link OllamaClient} when a {@code zeocore.llm.ollama.*} property is set, an {@link OpenAiClient}
 * when a {@code zeocore.llm.openai.*} property is set. Switched off by {@code zeocore.llm.enabled=false}; each bean
 * backs off when the application defines its own. An invalid setting stops start-up naming the property.
 *
 * <p>The JDK {@link HttpClient} of each client starts from {@link LlmClientBuilder#defaultHttpClientBuilder} and is
 * then passed through every {@link LlmHttpClientCustomizer} bean, in order (proxy, TLS, executor).
 *
 * <p>Use a client through {@link io.zeocore.llm.LlmTargets#chatTarget}, so that the policy owns every retry.
 */
@AutoConfiguration
@ConditionalOnClass(LlmClient.class)
@ConditionalOnBooleanProperty(name = "zeocore.llm.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ZeoCoreLlmProperties.class)
@Import({ZeoCoreLlmAutoConfiguration.OllamaConfiguration.class, ZeoCoreLlmAutoConfiguration.OpenAiConfiguration.class})
public final class ZeoCoreLlmAutoConfiguration {

  @Configuration(proxyBeanMethods = false)
  @Conditional(LlmProviderConfiguredCondition.Ollama.class)
  static class OllamaConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OllamaClient zeoCoreOllamaClient(ZeoCoreLlmProperties properties,
        ObjectProvider<LlmHttpClientCustomizer> customizers) {
      ZeoCoreLlmProperties.Ollama ollama = properties.getOllama();
      return build("zeocore.llm.ollama", ollama,
          () -> withClientSettings(OllamaClient.builder(), "ollama", ollama, customizers)
              .baseUrl(ollama.getBaseUrl())
              .model(ollama.getModel())
              .build());
    }
  }

  @Configuration(proxyBeanMethods = false)
  @Conditional(LlmProviderConfiguredCondition.OpenAi.class)
  static class OpenAiConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OpenAiClient zeoCoreOpenAiClient(ZeoCoreLlmProperties properties,
        ObjectProvider<LlmHttpClientCustomizer> customizers) {
      ZeoCoreLlmProperties.OpenAi openai = properties.getOpenai();
      SecretValues.requireResolved("zeocore.llm.openai.api-key", openai.getApiKey());
      return build("zeocore.llm.openai", openai,
          () -> withClientSettings(OpenAiClient.builder(), "openai", openai, customizers)
              .baseUrl(openai.getBaseUrl())
              .apiKey(openai.getApiKey())
              .model(openai.getModel())
              .organization(openai.getOrganization())
              .build());
    }
  }

  /**
   * {@code builder} with the settings every provider takes the same way: the timeout, the response cap and the HTTP
   * client built for that timeout.
   *
   * @param provider {@code ollama} or {@code openai}, as passed to the customizers
   */
  private static <B extends LlmClientBuilder<B, ?>> B withClientSettings(B builder, String provider,
      ZeoCoreLlmProperties.ClientSettings settings, ObjectProvider<LlmHttpClientCustomizer> customizers) {
    return builder
        .httpClient(httpClient(provider, settings.getTimeout(), customizers))
        .timeout(settings.getTimeout())
        .maxResponseBytes(bytes(settings.getMaxResponseSize()));
  }

  /**
   * ZeoCore's default HTTP client for one provider, after the application's customizers; {@code null} when the
   * timeout is missing (the client's builder then rejects it, naming the property).
   */
  private static @Nullable HttpClient httpClient(String provider, @Nullable Duration timeout,
      ObjectProvider<LlmHttpClientCustomizer> customizers) {
    if (timeout == null) {
      return null;
    }
    HttpClient.Builder builder = LlmClientBuilder.defaultHttpClientBuilder(timeout);
    customizers.orderedStream().forEach(customizer -> customizer.customize(provider, builder));
    return builder.build();
  }

  private static long bytes(DataSize size) {
    return size != null ? size.toBytes() : -1;
  }

  /**
   * Builds a client, turning the builder's {@link InvalidFieldException} into a failure naming the property
   * ({@code baseUrl → zeocore.llm.ollama.base-url}). The API key's value is never reported.
   */
  private static <C> C build(String prefix, ZeoCoreLlmProperties.ClientSettings settings, Supplier<C> builder) {
    try {
      return builder.get();
    } catch (InvalidFieldException invalid) {
      BeanWrapper bean = new BeanWrapperImpl(settings);
      String setting = invalid.field().equals("maxResponseBytes") ? "maxResponseSize" : invalid.field();
      Object value = !setting.equals("apiKey") && bean.isReadableProperty(setting) ? bean.getPropertyValue(setting)
          : null;
      throw InvalidFields.toProperty(prefix, invalid, Map.of("maxResponseBytes", "max-response-size"), value);
    }
  }
}
