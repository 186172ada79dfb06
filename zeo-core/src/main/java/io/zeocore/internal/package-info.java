/**
 * Helpers that more than one ZeoCore package needs and that are not API: they may change in any release. They
 * depend on no other ZeoCore package.
 */
@NullMarked
package io.zeocore.internal;

import org.jspecify.annotations.NullMarked;
