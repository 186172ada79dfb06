package io.zeocore.connections.store;

import org.jspecify.annotations.Nullable;

/**
 * The statements that write and read evidence references and confirmation evidence, which the dialects keep
 * differently: PostgreSQL in two tables ({@code evidence_references}, {@code confirmation_evidence}); SQLite, from
 * schema version 8, in one row of {@code evidence_references} that carries the confirmation's two columns, so that
 * recording confirmation evidence writes two b-trees instead of four.
 *
 * @param insertReference records a reference: parameters organization, execution, reference, and — when
 *     {@link #insertConfirmation} is {@code null} — also {@code observed_at} and {@code confirmation_digest}
 *     ({@code null} for a bare reference)
 * @param insertConfirmation records the confirmation of a reference inserted just before it in the same transaction
 *     (parameters organization, execution, reference, {@code observed_at}, {@code confirmation_digest}), or
 *     {@code null} when {@link #insertReference} carries it
 * @param selectReferences an execution's references (parameters organization, execution), in the order recorded
 * @param selectConfirmation one confirmation by its reference (parameters organization, reference), with the columns
 *     {@code organization_id, execution_id, evidence_ref, observed_at, confirmation_digest}; no row for a bare
 *     reference
 */
record EvidenceStatements(String insertReference, @Nullable String insertConfirmation, String selectReferences,
    String selectConfirmation) {

  /** Whether {@link #insertReference} writes the confirmation's columns too (one statement per evidence). */
  boolean referenceCarriesConfirmation() {
    return insertConfirmation == null;
  }
}
