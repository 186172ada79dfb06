/** Fault injection into a running application's registered targets, for staging profiles only. */
@NullMarked
package io.zeocore.autoconfigure.faults;

import org.jspecify.annotations.NullMarked;
