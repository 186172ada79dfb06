package io.zeocore.autoconfigure.llm;

import io.zeocore.autoconfigure.internal.PropertiesSetUnderCondition;

/** Matches when at least one property is set under an LLM provider's prefix: the provider is "configured". */
abstract class LlmProviderConfiguredCondition extends PropertiesSetUnderCondition {

  LlmProviderConfiguredCondition(String prefix) {
    super(prefix, name -> true);
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
