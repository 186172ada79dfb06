/** Spring AI chat models as targets, policy-backed chat models, and Spring AI's retries made one call. */
@NullMarked
package io.zeocore.autoconfigure.springai;

import org.jspecify.annotations.NullMarked;
