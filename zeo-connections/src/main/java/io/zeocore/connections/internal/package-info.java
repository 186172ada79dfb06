/**
 * Helpers that more than one package of ZeoCore's connections need and that are not API: they may change in any
 * release. They depend on no other connections package.
 */
@NullMarked
package io.zeocore.connections.internal;

import org.jspecify.annotations.NullMarked;
