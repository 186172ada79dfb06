/** Auto-configuration of connections: the store, orchestrators, recovery, custody and their events. */
@NullMarked
package io.zeocore.autoconfigure.connections;

import org.jspecify.annotations.NullMarked;
