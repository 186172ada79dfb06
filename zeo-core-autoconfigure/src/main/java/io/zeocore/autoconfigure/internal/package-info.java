/**
 * Helpers ZeoCore's auto-configurations share. Not API: they may change in any release.
 */
@NullMarked
package io.zeocore.autoconfigure.internal;

import org.jspecify.annotations.NullMarked;
