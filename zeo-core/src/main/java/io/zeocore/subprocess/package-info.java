/**
 * Subprocess targets whose deadline the operating system enforces on the whole process tree:
 * {@link io.zeocore.subprocess.SubprocessTargets#subprocessTarget} runs a {@link io.zeocore.subprocess.SubprocessInvocation}
 * as one attempt. The child starts in its own process group ({@code setsid}); on timeout or cancellation the group is
 * sent {@code SIGTERM}, then {@code SIGKILL} after the termination grace, and every recorded descendant is killed.
 * Linux only (it reads {@code /proc}).
 */
@NullMarked
package io.zeocore.subprocess;

import org.jspecify.annotations.NullMarked;
