/**
 * ZeoCore for Java: bounded execution ({@code execution}), subprocess targets ({@code subprocess}), one-attempt LLM
 * clients ({@code llm}), bound capabilities ({@code capability}) and durable effect orchestration
 * ({@code connections.*}). This package holds what all of them share as API:
 * {@link io.zeocore.InvalidFieldException}, the typed validation error of every builder and record.
 */
@NullMarked
package io.zeocore;

import org.jspecify.annotations.NullMarked;
