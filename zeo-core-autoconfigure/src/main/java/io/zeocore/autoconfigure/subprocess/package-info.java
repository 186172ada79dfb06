/** Subprocess providers from YAML. */
@NullMarked
package io.zeocore.autoconfigure.subprocess;

import org.jspecify.annotations.NullMarked;
