/**
 * Start-up checks of ZeoCore's configuration as a whole: unknown {@code zeocore.*} keys stop start-up with "did you
 * mean".
 */
@NullMarked
package io.zeocore.autoconfigure.validation;

import org.jspecify.annotations.NullMarked;
