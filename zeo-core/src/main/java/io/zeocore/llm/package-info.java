/**
 * One-attempt LLM clients: {@link io.zeocore.llm.OllamaClient} and {@link io.zeocore.llm.OpenAiClient} make exactly one
 * provider call per {@link io.zeocore.llm.LlmClient#chatOnce} and classify failures by HTTP status only, so that the
 * runner is the only retry owner; {@link io.zeocore.llm.LlmTargets#chatTarget} turns a client into an execution target.
 * Provider text never reaches records, exceptions or logs.
 */
@NullMarked
package io.zeocore.llm;

import org.jspecify.annotations.NullMarked;
