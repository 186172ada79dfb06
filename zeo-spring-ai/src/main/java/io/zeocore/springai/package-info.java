/**
 * Spring AI chat models as one-attempt targets: {@link io.zeocore.springai.SpringAiTargets} turns a
 * {@code ChatModel} into a {@link io.zeocore.execution.SyncExecutionTarget} that makes one model call per attempt,
 * applies the attempt's timeout and throws {@link io.zeocore.execution.AttemptError} with a normalized kind.
 * {@link io.zeocore.springai.SpringAiRetries}, {@link io.zeocore.springai.AttemptRecordingResponseErrorHandler} and
 * {@link io.zeocore.springai.OneCallOpenAiHttpClientCustomizer} make Spring AI's own retry layers call the provider
 * once inside a ZeoCore attempt, so that the policy is the only retry owner. Provider text never reaches records,
 * exceptions or logs.
 *
 * <p>Everything here is optional: it needs {@code spring-ai-model} on the class path, {@code spring-ai-retry} for the
 * {@code RetryTemplate}-based models (Ollama and others) and {@code spring-ai-openai} for OpenAI.
 */
@NullMarked
package io.zeocore.springai;

import org.jspecify.annotations.NullMarked;
