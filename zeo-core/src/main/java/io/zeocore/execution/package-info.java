/**
 * The bounded runner: {@link io.zeocore.execution.ResilientRunner} runs one {@link io.zeocore.execution.ExecutionPolicy}
 * (an explicit plan of attempt targets, one total deadline, per-attempt timeouts taken from what is left, backoff)
 * over {@link io.zeocore.execution.SyncExecutionTarget}s or {@link io.zeocore.execution.AsyncExecutionTarget}s and returns
 * a {@link io.zeocore.execution.ResilientExecutionResult}: one of five {@link io.zeocore.execution.ExecutionOutcome}s with
 * one immutable {@link io.zeocore.execution.AttemptRecord} per started attempt.
 *
 * <p>Read-only and advisory work only: effectful policies are refused before any call. Synchronous timeouts are
 * cooperative (targets read {@link io.zeocore.execution.AttemptContext#timeout()}); asynchronous timeouts are enforced.
 * This package knows nothing of its targets' kinds (subprocess, LLM, capability) nor of effects.
 */
@NullMarked
package io.zeocore.execution;

import org.jspecify.annotations.NullMarked;
