/** Auto-configuration of the one-attempt LLM clients. */
@NullMarked
package io.zeocore.autoconfigure.llm;

import org.jspecify.annotations.NullMarked;
