/** Durable payments through the effect orchestrator: the demo authority, ledger, connector and API. */
@NullMarked
package io.zeocore.sample.payments;

import org.jspecify.annotations.NullMarked;
