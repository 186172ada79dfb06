/** Auto-configuration of the runner: policies from YAML, the runner, ZeoCoreExecutions and their events. */
@NullMarked
package io.zeocore.autoconfigure.execution;

import org.jspecify.annotations.NullMarked;
