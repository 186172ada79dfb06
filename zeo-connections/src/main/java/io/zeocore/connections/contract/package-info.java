/**
 * The contract of durable effects and reads: what an authority, a connector and the store agree on.
 *
 * <ul>
 *   <li>identifiers ({@link io.zeocore.connections.contract.OrganizationId},
 *       {@link io.zeocore.connections.contract.EffectId}, {@link io.zeocore.connections.contract.IdempotencyKey}, ...)
 *       and {@link io.zeocore.connections.contract.SecretRef};
 *   <li>what a connector is and how an organization uses it: {@link io.zeocore.connections.contract.ConnectorRevision},
 *       {@link io.zeocore.connections.contract.BusinessOperation}, {@link io.zeocore.EffectKind},
 *       {@link io.zeocore.connections.contract.Connection};
 *   <li>the authority's permission, {@link io.zeocore.connections.contract.EffectAuthorization}, its canonical signing
 *       form ({@link io.zeocore.connections.contract.AuthorizationCanonicalForm}, RFC 8785) and digests
 *       ({@link io.zeocore.connections.contract.Digests});
 *   <li>the durable records: {@link io.zeocore.connections.contract.EffectRecord} moving through
 *       {@link io.zeocore.connections.contract.EffectState}, its append-only
 *       {@link io.zeocore.connections.contract.EffectReceipt}s (built with their named factories) and
 *       {@link io.zeocore.connections.contract.ConfirmationEvidence};
 *       {@link io.zeocore.connections.contract.ReadRecord} and
 *       {@link io.zeocore.connections.contract.ReadReceipt};
 *       {@link io.zeocore.connections.contract.NormalizedError};
 *   <li>{@link io.zeocore.connections.contract.ContractJson}, the one JSON mapping of all of the above.
 * </ul>
 *
 * <p>Every contract is an immutable record validated in its constructor: an {@link io.zeocore.InvalidFieldException}
 * (or {@link java.lang.IllegalArgumentException}) names the field by its wire name and never echoes the rejected
 * value. Every contract refuses JSON fields it does not declare, whatever mapper reads it. Instants are held at
 * microsecond precision. This package depends on no other part of the connections packages.
 */
@NullMarked
package io.zeocore.connections.contract;

import io.zeocore.EffectKind;
import org.jspecify.annotations.NullMarked;
