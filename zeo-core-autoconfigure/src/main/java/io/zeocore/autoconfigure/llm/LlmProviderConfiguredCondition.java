package io.zeocore.autoconfigure.llm;

import io.zeocore.autoconfigure.internal.ConfiguredProperties;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when at least one property is set under an LLM provider's prefix: the provider is "configured". */
abstract class LlmProviderConfiguredCondition extends SpringBootCondition {

  private final String prefix;

  LlmProviderConfiguredCondition(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    boolean configured = ConfiguredProperties.anySetUnder(context.getEnvironment(), prefix, name -> true);
    return configured
        ? ConditionOutcome.match("properties are set under " + prefix)
        : ConditionOutcome.noMatch("no property is set under " + prefix);
  }

  static final class Ollama extends LlmProviderConfiguredCondition {
    Ollama() {
      super("zeocore.llm.ollama");
    }
  }

  static final class OpenAi extends LlmProviderConfiguredCondition {
    OpenAi() {
      super("zeocore.llm.openai");
    }
  }
}
