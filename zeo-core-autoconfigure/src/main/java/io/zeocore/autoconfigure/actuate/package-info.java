/** The zeocore actuator endpoint, its ring of recent events, and the zeocore health component. */
@NullMarked
package io.zeocore.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
