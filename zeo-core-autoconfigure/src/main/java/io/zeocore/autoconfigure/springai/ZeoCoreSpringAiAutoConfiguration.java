package io.zeocore.autoconfigure.springai;

import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.execution.ExceptionClassifier;
import io.zeocore.springai.OneCallOpenAiHttpClientCustomizer;
import io.zeocore.springai.SpringAiFailures;
import io.zeocore.springai.SpringAiTargets;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of ZeoCore's Spring AI
 * integration, active when Spring AI's {@code ChatModel} is on the class path; switched off by
 * {@code zeocore.spring-ai.enabled=false}.
 *
 * <ul>
 *   <li>Every {@code ChatModel} bean (or each one named under {@code zeocore.spring-ai.chat-targets}) becomes a
 *       {@code NamedTarget<Prompt, ChatResponse>} bean, so policies plan Spring AI models by id:
 *       {@code executions.run("summarize", prompt, ChatResponse.class)}.</li>
 *   <li>ZeoCore owns every retry: inside a ZeoCore attempt, Spring AI's {@code RetryTemplate} beans
 *       ({@code spring.ai.retry.*}) and shared default templates make one call, and the OpenAI SDK's own retries
 *       ({@code spring.ai.openai.max-retries}) are switched off by a {@link OneCallOpenAiHttpClientCustomizer} bean that
 *       Spring AI's OpenAI auto-configuration applies. Calls the application makes outside ZeoCore keep Spring AI's
 *       configured retries.</li>
 *   <li>Unless the application declares its own {@link ExceptionClassifier}, the runner's classifier learns Spring AI's
 *       exceptions ({@link SpringAiFailures#classifier()}, then ZeoCore's defaults), for targets the application writes
 *       itself around Spring AI calls. ZeoCore's own Spring AI targets classify before throwing and need no
 *       classifier.</li>
 * </ul>
 */
@AutoConfiguration(before = ZeoCoreExecutionAutoConfiguration.class)
@ConditionalOnClass({ChatModel.class, SpringAiTargets.class})
@ConditionalOnBooleanProperty(name = "zeocore.spring-ai.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ZeoCoreSpringAiProperties.class)
@Import({ZeoCoreSpringAiAutoConfiguration.RetryConfiguration.class,
    ZeoCoreSpringAiAutoConfiguration.OpenAiConfiguration.class})
public final class ZeoCoreSpringAiAutoConfiguration {

  @Bean
  static SpringAiChatTargetRegistrar zeoCoreSpringAiChatTargetRegistrar() {
    return new SpringAiChatTargetRegistrar();
  }

  @Bean
  @ConditionalOnMissingBean
  ExceptionClassifier zeoCoreSpringAiExceptionClassifier() {
    return SpringAiFailures.classifier().orElse(ExceptionClassifier.defaults());
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.ai.retry.RetryUtils")
  static class RetryConfiguration {

    @Bean
    static SpringAiRetryOwnership zeoCoreSpringAiRetryOwnership() {
      return new SpringAiRetryOwnership();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.ai.openai.http.okhttp.OpenAiHttpClientBuilderCustomizer")
  static class OpenAiConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OneCallOpenAiHttpClientCustomizer zeoCoreOneCallOpenAiHttpClientCustomizer() {
      return new OneCallOpenAiHttpClientCustomizer();
    }
  }
}
