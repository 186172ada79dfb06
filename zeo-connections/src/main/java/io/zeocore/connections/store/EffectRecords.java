package io.zeocore.connections.store;

import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.ConfirmationEvidenceRef;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The effect executions and everything appended to them: {@code executions} (the current state, advanced by
 * compare-and-set), its history (every snapshot it had, a JSON array in the row: on SQLite appended by the very
 * statement that changes the state, on PostgreSQL by the schema's trigger), receipts and evidence references (a
 * confirmation in its reference's row). The two writes on the dispatch path are one method each, one transaction
 * each: {@link #claim} (nonce, effect and its snapshot chain) and {@link #commitOutcome} (evidence,
 * the state's compare-and-set and the receipt). On PostgreSQL each is one call of a schema function
 * ({@code zeocore_claim}, {@code zeocore_commit_outcome}, one round trip; from schema version 8 the claim inserts the
 * effect once, at its last snapshot, with the whole chain as its history, which the schema checks step by step);
 * on SQLite, in process, the statements are sent one by one.
 *
 * <p>Every state change is {@code UPDATE … WHERE state = <expected>} with the row count checked: a concurrent writer
 * that advanced the row first leaves this one matching nothing, and it fails with "effect state changed
 * concurrently" having written nothing.
 */
final class EffectRecords {

  /** The columns that identify an execution and never change after it is created (plus {@code execution_id}). */
  static final String IDENTITY_COLUMNS = "organization_id, execution_id, connection_id, connector_revision,"
      + " operation_id, authorization_id, idempotency_key, authorization_digest, request_digest";
  static final String EXECUTION_COLUMNS = IDENTITY_COLUMNS + ", state, created_at, updated_at, completed_at";
  /** The immutable columns a compare-and-set must still match, besides the key. */
  static final String IDENTITY_MATCH = " AND connection_id = ? AND connector_revision = ? AND operation_id = ?"
      + " AND authorization_id = ? AND idempotency_key = ? AND authorization_digest = ? AND request_digest = ?"
      + " AND created_at = ?";
  private static final String RECEIPT_COLUMNS = "organization_id, execution_id, connection_id, final_state,"
      + " error_code, error_message, recorded_at, dispatch_started_at, resolved_at, confirmation_evidence_ref,"
      + " reconciliation_evidence, resolves_ambiguous_recorded_at, reconciliation_attempt_evidence";
  private static final String PRE_DISPATCH_STATES = "('CREATED', 'AUTHORIZATION_VERIFIED', 'PREPARED')";

  /** The SQLSTATE of {@code zeocore_commit_outcome}'s compare-and-set matching no row (nothing was written). */
  static final String OUTCOME_NOT_MOVED = "ZC001";
  /** The SQLSTATE of the effect functions refusing an isolation level other than READ COMMITTED. */
  static final String NOT_READ_COMMITTED = "ZC002";
  /** The SQLSTATE of {@code zeocore_claim} finding the connection changed since it was checked (version 10). */
  static final String CONNECTION_CHANGED = "ZC003";

  private final StoreDatabase database;
  private final NonceRecords nonces;
  private final ConnectionRecords connections;
  private final Supplier<UUID> evidenceIds;
  /** Whether the claim and the outcome are one function call each ({@link SqlDialect#commitsEffectsByFunction}). */
  private final boolean byFunction;
  /**
   * Whether a function call may run alone in auto-commit mode; turned off for good the first time the connections'
   * default isolation level turns out not to be READ COMMITTED (the call then runs in a READ COMMITTED transaction).
   */
  private volatile boolean callsAlone = true;
  private final String callClaim;
  /** {@link #callClaim} holding the connection it was checked against (PostgreSQL, schema version 10). */
  private final String callClaimHolding;
  private final String callCommitOutcome;

  private final String insertEffect;
  /**
   * SQLite from schema version 10: the claim's one insert, at {@code DISPATCH_STARTED} with the claim's whole chain
   * as its history and the dispatch clock by the statement's own clock.
   */
  private final String insertClaimChain;
  private final String advanceEffect;
  /** {@link #advanceEffect} for the step into {@code DISPATCH_STARTED}, which also writes the dispatch clock. */
  private final String advanceToDispatch;
  private final String advanceWithIdentity;
  private final String advanceFromPreDispatch;
  private final String selectEffect;
  private final String selectEffectByIdentity;
  private final String selectHistory;
  private final String insertReceipt;
  private final String selectReceipts;
  private final String insertEvidence;
  private final String selectEvidenceReferences;
  private final String selectConfirmationEvidence;

  EffectRecords(StoreDatabase database, Tables tables, NonceRecords nonces, ConnectionRecords connections,
      Supplier<UUID> evidenceIds) {
    this.database = database;
    this.nonces = nonces;
    this.connections = connections;
    this.evidenceIds = evidenceIds;
    String effects = tables.qualify("executions");
    String receipts = tables.qualify("receipts");
    String evidence = tables.qualify("evidence_references");

    SqlDialect sql = tables.sql();
    // the history's value and append name the snapshot's own parameters by number (state, updated_at, completed_at:
    // ?11, ?13, ?14 of the insert, ?1 to ?3 of an update); the plain ? after them go on counting from there
    insertEffect = "INSERT INTO " + effects + " (" + IDENTITY_COLUMNS + ", holds_identity, state, created_at,"
        + " updated_at, completed_at" + sql.historyInsertColumn() + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
        + sql.historyInsertValue("?11", "?13", "?14") + ")";
    insertClaimChain = "INSERT INTO " + effects + " (" + IDENTITY_COLUMNS + ", holds_identity, state, created_at,"
        + " updated_at, completed_at, history, dispatch_started_db_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
        + " ?, json(?), " + sql.databaseNowMicros() + ")";
    String setSnapshot = " SET state = ?, updated_at = ?, completed_at = ?" + sql.historyAppend("?1", "?2", "?3");
    advanceEffect = "UPDATE " + effects + setSnapshot
        + " WHERE organization_id = ? AND execution_id = ? AND state = ?";
    advanceToDispatch = "UPDATE " + effects + setSnapshot + sql.dispatchClockAssignment()
        + " WHERE organization_id = ? AND execution_id = ? AND state = ?";
    advanceWithIdentity = advanceEffect + IDENTITY_MATCH;
    advanceFromPreDispatch = "UPDATE " + effects + setSnapshot
        + " WHERE organization_id = ? AND execution_id = ? AND state IN " + PRE_DISPATCH_STATES + IDENTITY_MATCH;
    selectEffect = "SELECT " + EXECUTION_COLUMNS + " FROM " + effects
        + " WHERE organization_id = ? AND execution_id = ?";
    selectEffectByIdentity = "SELECT " + EXECUTION_COLUMNS + " FROM " + effects
        + " WHERE organization_id = ? AND connection_id = ? AND connector_revision = ? AND operation_id = ?"
        + " AND idempotency_key = ? AND holds_identity = 1";
    selectHistory = sql.selectHistory(tables, aliased("e", IDENTITY_COLUMNS));
    String receiptSequence = sql.nextSequenceInEffect(receipts);
    insertReceipt = "INSERT INTO " + receipts + " (" + RECEIPT_COLUMNS
        + (receiptSequence == null ? "" : ", sequence") + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
        + (receiptSequence == null ? "" : ", " + receiptSequence) + ")";
    selectReceipts = "SELECT " + RECEIPT_COLUMNS + " FROM " + receipts
        + " WHERE organization_id = ? AND execution_id = ? ORDER BY sequence";
    // an evidence reference and its confirmation are one row (SQLite schema version 8, PostgreSQL version 7): the
    // confirmation's two columns are both set, or both null for a bare reference
    String evidenceSequence = sql.nextSequenceInEffect(evidence);
    insertEvidence = "INSERT INTO " + evidence + " (organization_id, execution_id, evidence_ref, observed_at,"
        + " confirmation_digest" + (evidenceSequence == null ? "" : ", sequence") + ") VALUES (?, ?, ?, ?, ?"
        + (evidenceSequence == null ? "" : ", " + evidenceSequence) + ")";
    selectEvidenceReferences = "SELECT evidence_ref FROM " + evidence
        + " WHERE organization_id = ? AND execution_id = ? ORDER BY sequence";
    selectConfirmationEvidence = "SELECT organization_id, execution_id, evidence_ref, observed_at,"
        + " confirmation_digest FROM " + evidence
        + " WHERE organization_id = ? AND evidence_ref = ? AND confirmation_digest IS NOT NULL";
    byFunction = sql.commitsEffectsByFunction();
    callClaim = "SELECT " + tables.qualify("zeocore_claim") + "(" + parameters(15) + ")";
    callClaimHolding = "SELECT " + tables.qualify("zeocore_claim") + "(" + parameters(16) + ")";
    callCommitOutcome = "SELECT " + tables.qualify("zeocore_commit_outcome") + "(" + parameters(28) + ")";
  }

  private static String parameters(int count) {
    return String.join(", ", Collections.nCopies(count, "?"));
  }

  /** {@code columns} (comma-separated) as {@code alias.column AS column}, for joins that read them by name. */
  static String aliased(String alias, String columns) {
    StringBuilder aliased = new StringBuilder();
    for (String column : columns.split(",")) {
      if (aliased.length() > 0) {
        aliased.append(", ");
      }
      aliased.append(alias).append('.').append(column.strip()).append(" AS ").append(column.strip());
    }
    return aliased.toString();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Effects

  void save(OrganizationId organizationId, EffectRecord effect) {
    OrganizationScope.require(organizationId, effect.organizationId(), "execution");
    database.writeWithoutResult("saving the execution failed", s -> {
      EffectRecord stored = s.first(selectEffect, EffectRecords::readEffect, organizationId.value(),
          effect.effectId().value()).orElse(null);
      if (stored == null) {
        if (effect.state() != EffectState.CREATED) {
          throw new ConnectionStoreException("first persisted state must be CREATED");
        }
        insertEffect(s, effect, true);
        return;
      }
      if (!stored.hasSameIdentityAs(effect)) {
        throw new ConnectionStoreException("execution identity is immutable");
      }
      if (!stored.state().canTransitionTo(effect.state())) {
        throw new ConnectionStoreException("transition is not allowed");
      }
      if (effect.updatedAt().isBefore(stored.updatedAt())) {
        throw new ConnectionStoreException("updated_at must be monotonic");
      }
      advance(s, effect, stored.state());
    });
  }

  Optional<EffectRecord> get(OrganizationId organizationId, EffectId effectId) {
    return database.read("reading the execution failed", s -> s.first(selectEffect,
        EffectRecords::readEffect, organizationId.value(), effectId.value()));
  }

  Optional<EffectRecord> getByIdempotency(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, IdempotencyKey idempotencyKey) {
    return database.read("reading the execution failed", s -> s.first(
        selectEffectByIdentity, EffectRecords::readEffect, organizationId.value(), connectionId.value(),
        connectorRevision.value(), operationId.value(), idempotencyKey.value()));
  }

  List<EffectRecord> history(OrganizationId organizationId, EffectId effectId) {
    return database.read("reading the execution history failed", s -> s.list(selectHistory,
        EffectRecords::readEffect, organizationId.value(), effectId.value()));
  }

  /**
   * One transaction: the nonce and the effect holding the idempotency identity with its snapshot chain from
   * {@code CREATED} — one insert of the whole chain (PostgreSQL from schema version 8, through {@code zeocore_claim};
   * SQLite from version 10 for the orchestrator's chain {@code CREATED} … {@code DISPATCH_STARTED}, other chains as
   * an insert at {@code CREATED} and a compare-and-set per later snapshot). A conflict (nonce or identity taken, also
   * by a concurrent claim that committed first) rolls everything back and returns the stored effect with
   * {@code claimed = false}.
   */
  EffectClaim claim(OrganizationId organizationId, String nonce, List<EffectRecord> snapshots) {
    return claim(organizationId, nonce, snapshots, null);
  }

  /**
   * {@link #claim(OrganizationId, String, List)}, and with {@code checked} not {@code null}: first, in the same
   * transaction, the connection stored under {@code checked}'s id must be {@code checked} (on SQLite read in the
   * writer's transaction; on PostgreSQL compared by {@code zeocore_claim}, whose statement reads the committed row),
   * else nothing is written and {@link ConnectionChangedException} is thrown.
   */
  EffectClaim claim(OrganizationId organizationId, String nonce, List<EffectRecord> snapshots,
      @Nullable Connection checked) {
    if (nonce == null || nonce.isEmpty()) {
      throw new ConnectionStoreException("authorization nonce is required");
    }
    EffectWriteRules.requireSnapshotChain(organizationId, snapshots, "claimed execution must start at CREATED");
    EffectRecord first = snapshots.get(0);
    EffectRecord last = snapshots.get(snapshots.size() - 1);
    if (checked != null) {
      OrganizationScope.require(organizationId, checked.organizationId(), "connection");
      if (!checked.connectionId().equals(first.connectionId())) {
        throw new ConnectionStoreException("the checked connection is not the execution's");
      }
    }
    try {
      if (byFunction && checked != null) {
        String document = connections.documentOf(organizationId, checked);
        writeCall(s -> s.first(callClaimHolding, row -> row.getInt(1),
            claimArguments(s, organizationId, nonce, snapshots, document)));
      } else if (byFunction) {
        writeCall(s -> s.first(callClaim, row -> row.getInt(1),
            claimArguments(s, organizationId, nonce, snapshots, null)));
      } else {
        database.writeWithoutResult(s -> {
          if (checked != null && !connections.isStored(s, organizationId, checked)) {
            throw new ConnectionChangedException();
          }
          nonces.insert(s, organizationId, nonce, first.createdAt());
          if (isClaimChain(snapshots)) {
            insertClaimChain(s, snapshots);
          } else {
            insertEffect(s, first, true);
            advanceChain(s, snapshots);
          }
        });
      }
      return new EffectClaim(last, true);
    } catch (SQLException e) {
      if (CONNECTION_CHANGED.equals(e.getSQLState())) {
        throw new ConnectionChangedException(e);
      }
      if (!database.isConflict(e)) {
        throw database.translate(e, "claiming the execution failed");
      }
      Optional<EffectRecord> existing = getByIdempotency(organizationId, first.connectionId(),
          first.connectorRevision(), first.operationId(), first.idempotencyKey());
      return new EffectClaim(existing.orElseThrow(() -> new ConnectionStoreException(
          "authorization nonce or execution identity was already used", e)), false);
    }
  }

  /**
   * One transaction: the effect (not holding the idempotency identity), its snapshot chain to {@code REFUSED} and
   * the refusal receipt. An effect id already taken records nothing new.
   */
  void recordRefusal(OrganizationId organizationId, List<EffectRecord> snapshots, EffectReceipt receipt) {
    EffectWriteRules.requireSnapshotChain(organizationId, snapshots, "refused execution must start at CREATED");
    EffectRecord last = snapshots.get(snapshots.size() - 1);
    if (last.state() != EffectState.REFUSED) {
      throw new ConnectionStoreException("refused execution must end REFUSED");
    }
    EffectWriteRules.requireReceiptMatches(organizationId, last, receipt);
    try {
      database.writeWithoutResult(s -> {
        insertEffect(s, snapshots.get(0), false);
        advanceChain(s, snapshots);
        insertReceipt(s, receipt);
      });
    } catch (SQLException e) {
      if (!database.isConflict(e)) {
        throw database.translate(e, "recording the refusal failed");
      }
      // the effect id is taken (typically: the same refused authorization sent again): record nothing new
    }
  }

  /** Runs {@link #commitOutcome}'s transaction; a failure reads as {@link #outcomeFailure} says. */
  private void writeOutcome(SqlAction work) {
    try {
      database.writeWithoutResult(work);
    } catch (SQLException e) {
      throw outcomeFailure(e);
    }
  }

  /**
   * Why an outcome's transaction failed (nothing of it was written): any uniqueness clash (a receipt at the same
   * {@code recordedAt}, evidence already recorded, ...) reads, as in the reference, "outcome record conflicts with
   * history"; anything else in the schema's words.
   */
  private ConnectionStoreException outcomeFailure(SQLException e) {
    if (database.isConflict(e)) {
      return new ConnectionStoreException("outcome record conflicts with history", e);
    }
    return database.translate(e, "committing the outcome failed");
  }

  /**
   * One transaction: the confirmation evidence (if any), the compare-and-set of the effect from the state the
   * receipt implies ({@link #expectedPriorState}) with its identity matched, and the receipt. When the
   * compare-and-set matches nothing, the stored row chooses the message and nothing is written.
   */
  void commitOutcome(OrganizationId organizationId, EffectRecord effect, EffectReceipt receipt,
      @Nullable ConfirmationEvidence evidence) {
    OrganizationScope.require(organizationId, effect.organizationId(), "execution");
    EffectWriteRules.requireReceiptMatches(organizationId, effect, receipt);
    if (evidence != null) {
      OrganizationScope.require(organizationId, evidence.organizationId(), "confirmation evidence");
      if (!evidence.effectId().equals(effect.effectId())) {
        throw new ConnectionStoreException("confirmation evidence execution mismatch");
      }
      if (!evidence.evidenceRef().equals(receipt.confirmationEvidenceRef())) {
        throw new ConnectionStoreException("receipt evidence reference mismatch");
      }
    }
    EffectState expected = expectedPriorState(receipt);
    if (byFunction) {
      commitOutcomeByFunction(organizationId, effect, receipt, evidence, expected);
      return;
    }
    writeOutcome(s -> {
      if (evidence != null) {
        insertEvidence(s, evidence);
      }
      List<Object> args = new ArrayList<>(List.of(effect.state().name(), Micros.of(effect.updatedAt())));
      args.add(Micros.ofNullable(effect.completedAt()));
      args.add(organizationId.value());
      args.add(effect.effectId().value());
      String sql = advanceFromPreDispatch;
      if (expected != null) {
        args.add(expected.name());
        sql = advanceWithIdentity;
      }
      Collections.addAll(args, effect.connectionId().value(), effect.connectorRevision().value(),
          effect.operationId().value(), effect.authorizationId().value(), effect.idempotencyKey().value(),
          effect.authorizationDigest(), effect.requestDigest(), Micros.of(effect.createdAt()));
      if (s.update(sql, args.toArray()) != 1) {
        throw notMoved(s.first(selectEffect, EffectRecords::readEffect, organizationId.value(),
            effect.effectId().value()).orElse(null), effect, expected);
      }
      insertReceipt(s, receipt);
    });
  }

  /**
   * {@link #commitOutcome} as one call of {@code zeocore_commit_outcome}: the same writes in the same order in one
   * statement. When its compare-and-set matches no row it writes nothing and the stored row, read afterwards, chooses
   * the message as on the statement path.
   */
  private void commitOutcomeByFunction(OrganizationId organizationId, EffectRecord effect,
      EffectReceipt receipt, @Nullable ConfirmationEvidence evidence, @Nullable EffectState expected) {
    NormalizedError error = receipt.normalizedError();
    Object[] args = {organizationId.value(), effect.effectId().value(),
        evidence == null ? null : evidence.evidenceRef().value(),
        evidence == null ? null : Micros.of(evidence.observedAt()),
        evidence == null ? null : evidence.confirmationDigest(),
        effect.state().name(), Micros.of(effect.updatedAt()), Micros.ofNullable(effect.completedAt()),
        expected == null ? null : expected.name(),
        effect.connectionId().value(), effect.connectorRevision().value(), effect.operationId().value(),
        effect.authorizationId().value(), effect.idempotencyKey().value(), effect.authorizationDigest(),
        effect.requestDigest(), Micros.of(effect.createdAt()),
        receipt.connectionId().value(), receipt.finalState().name(), error == null ? null : error.code().name(),
        error == null ? null : error.message(), Micros.of(receipt.recordedAt()),
        Micros.ofNullable(receipt.dispatchStartedAt()), Micros.ofNullable(receipt.resolvedAt()),
        receipt.confirmationEvidenceRef() == null ? null : receipt.confirmationEvidenceRef().value(),
        receipt.reconciliationEvidence(), Micros.ofNullable(receipt.resolvesAmbiguousRecordedAt()),
        receipt.reconciliationAttemptEvidence()};
    try {
      writeCall(s -> s.first(callCommitOutcome, row -> row.getInt(1), args));
    } catch (SQLException e) {
      if (OUTCOME_NOT_MOVED.equals(e.getSQLState())) {
        throw notMoved(get(organizationId, effect.effectId()).orElse(null), effect, expected);
      }
      throw outcomeFailure(e);
    }
  }

  /** Why the compare-and-set of {@code execution} from {@code expected} moved no row, judged by the stored row. */
  private static ConnectionStoreException notMoved(@Nullable EffectRecord stored, EffectRecord effect,
      @Nullable EffectState expected) {
    if (stored == null) {
      return new ConnectionStoreException("execution does not exist in organization");
    }
    if (!stored.hasSameIdentityAs(effect)) {
      return new ConnectionStoreException("execution identity is immutable");
    }
    return new ConnectionStoreException("execution state changed concurrently: stored state is "
        + stored.state() + ", expected " + (expected == null ? "a pre-dispatch state" : expected));
  }

  /** The arguments of {@code zeocore_claim}: the nonce, the execution's identity and its snapshot chain as arrays. */
  private static Object[] claimArguments(SqlSession s, OrganizationId organizationId, String nonce,
      List<EffectRecord> snapshots, @Nullable String connectionDocument) throws SQLException {
    EffectRecord first = snapshots.get(0);
    String[] states = new String[snapshots.size()];
    Long[] updatedAts = new Long[snapshots.size()];
    Long[] completedAts = new Long[snapshots.size()];
    for (int i = 0; i < snapshots.size(); i++) {
      EffectRecord snapshot = snapshots.get(i);
      states[i] = snapshot.state().name();
      updatedAts[i] = Micros.of(snapshot.updatedAt());
      completedAts[i] = Micros.ofNullable(snapshot.completedAt());
    }
    Object[] arguments = {organizationId.value(), nonce, Micros.of(first.createdAt()),
        first.effectId().value(), first.connectionId().value(), first.connectorRevision().value(),
        first.operationId().value(), first.authorizationId().value(), first.idempotencyKey().value(),
        first.authorizationDigest(), first.requestDigest(), Micros.of(first.createdAt()),
        s.array("text", states), s.array("bigint", updatedAts), s.array("bigint", completedAts),
        connectionDocument};
    return connectionDocument == null ? Arrays.copyOf(arguments, 15) : arguments;
  }

  /**
   * Runs one effect function call as a write: alone in auto-commit mode (one round trip) while the connections'
   * default isolation level is READ COMMITTED, else — from the first refusal on — inside a transaction that sets it.
   * A refused call wrote nothing.
   */
  private <T> T writeCall(SqlWork<T> call) throws SQLException {
    if (callsAlone) {
      try {
        return database.writeStatement(call);
      } catch (SQLException e) {
        if (!NOT_READ_COMMITTED.equals(e.getSQLState())) {
          throw e;
        }
        callsAlone = false;
      }
    }
    return database.write(call);
  }

  /**
   * The state {@link #commitOutcome} compares against: {@code AMBIGUOUS} for a resolving receipt, else
   * {@code DISPATCH_STARTED} when the receipt says dispatch started, else {@code null} for "any pre-dispatch state".
   */
  private static @Nullable EffectState expectedPriorState(EffectReceipt receipt) {
    if (receipt.resolvesAmbiguity()) {
      return EffectState.AMBIGUOUS;
    }
    return receipt.dispatchStartedAt() != null ? EffectState.DISPATCH_STARTED : null;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Receipts and evidence

  void saveReceipt(OrganizationId organizationId, EffectReceipt receipt) {
    OrganizationScope.require(organizationId, receipt.organizationId(), "receipt");
    EffectWriteRules.requireNoProviderDetail(receipt);
    database.writeWithoutResult("saving the receipt failed", s -> {
      insertReceipt(s, receipt);
    });
  }

  List<EffectReceipt> receipts(OrganizationId organizationId, EffectId effectId) {
    return database.read("reading receipts failed", s -> s.list(selectReceipts, EffectRecords::readReceipt,
        organizationId.value(), effectId.value()));
  }

  void saveEvidenceReference(OrganizationId organizationId, EffectId effectId,
      ConfirmationEvidenceRef evidenceRef) {
    database.write("saving the evidence reference failed", s -> s.update(insertEvidence, organizationId.value(),
        effectId.value(), evidenceRef.value(), null, null));
  }

  List<ConfirmationEvidenceRef> evidenceReferences(OrganizationId organizationId, EffectId effectId) {
    return database.read("reading evidence references failed", s -> s.list(selectEvidenceReferences,
        row -> new ConfirmationEvidenceRef(row.getString(1)), organizationId.value(), effectId.value()));
  }

  /** New evidence with a fresh reference from the store's evidence id source; nothing is written. */
  ConfirmationEvidence newConfirmationEvidence(OrganizationId organizationId, EffectId effectId,
      Instant observedAt, String confirmationDigest) {
    return new ConfirmationEvidence(ConfirmationEvidenceRef.of(evidenceIds.get()), organizationId, effectId,
        observedAt, confirmationDigest);
  }

  ConfirmationEvidence saveConfirmationEvidence(OrganizationId organizationId, EffectId effectId,
      Instant observedAt, String confirmationDigest) {
    ConfirmationEvidence evidence = newConfirmationEvidence(organizationId, effectId, observedAt,
        confirmationDigest);
    database.writeWithoutResult("saving confirmation evidence failed", s -> {
      insertEvidence(s, evidence);
    });
    return evidence;
  }

  Optional<ConfirmationEvidence> confirmationEvidence(OrganizationId organizationId,
      ConfirmationEvidenceRef evidenceRef) {
    return database.read("reading confirmation evidence failed", s -> s.first(
        selectConfirmationEvidence,
        row -> new ConfirmationEvidence(new ConfirmationEvidenceRef(row.getString("evidence_ref")),
            new OrganizationId(row.getString("organization_id")), new EffectId(row.getString("execution_id")),
            Micros.read(row, "observed_at"), row.getString("confirmation_digest")),
        organizationId.value(), evidenceRef.value()));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Statements inside a transaction

  private static final List<EffectState> CLAIM_CHAIN = List.of(EffectState.CREATED,
      EffectState.AUTHORIZATION_VERIFIED, EffectState.PREPARED, EffectState.DISPATCH_STARTED);

  /** Whether {@code snapshots} (a valid chain) is the orchestrator's claim: CREATED through DISPATCH_STARTED. */
  private static boolean isClaimChain(List<EffectRecord> snapshots) {
    if (snapshots.size() != CLAIM_CHAIN.size()) {
      return false;
    }
    for (int i = 0; i < snapshots.size(); i++) {
      if (snapshots.get(i).state() != CLAIM_CHAIN.get(i)) {
        return false;
      }
    }
    return true;
  }

  /** The claim's one insert on SQLite ({@link #insertClaimChain}), holding the idempotency identity. */
  private void insertClaimChain(SqlSession s, List<EffectRecord> snapshots) throws SQLException {
    EffectRecord last = snapshots.get(snapshots.size() - 1);
    s.update(insertClaimChain, last.organizationId().value(), last.effectId().value(), last.connectionId().value(),
        last.connectorRevision().value(), last.operationId().value(), last.authorizationId().value(),
        last.idempotencyKey().value(), last.authorizationDigest(), last.requestDigest(), 1, last.state().name(),
        Micros.of(last.createdAt()), Micros.of(last.updatedAt()), Micros.ofNullable(last.completedAt()),
        historyJson(snapshots));
  }

  /** {@code snapshots} as the history column holds them: a JSON array of {@code [state, updated_at, completed_at]}. */
  static String historyJson(List<EffectRecord> snapshots) {
    StringBuilder json = new StringBuilder(40 * snapshots.size()).append('[');
    for (EffectRecord snapshot : snapshots) {
      if (json.length() > 1) {
        json.append(',');
      }
      json.append("[\"").append(snapshot.state().name()).append("\",").append(Micros.of(snapshot.updatedAt()))
          .append(',');
      Long completedAt = Micros.ofNullable(snapshot.completedAt());
      json.append(completedAt == null ? "null" : completedAt.toString()).append(']');
    }
    return json.append(']').toString();
  }

  private void insertEffect(SqlSession s, EffectRecord effect, boolean holdsIdentity) throws SQLException {
    s.update(insertEffect, effect.organizationId().value(), effect.effectId().value(),
        effect.connectionId().value(), effect.connectorRevision().value(), effect.operationId().value(),
        effect.authorizationId().value(), effect.idempotencyKey().value(), effect.authorizationDigest(),
        effect.requestDigest(), holdsIdentity ? 1 : 0, effect.state().name(),
        Micros.of(effect.createdAt()), Micros.of(effect.updatedAt()),
        Micros.ofNullable(effect.completedAt()));
  }

  /**
   * Compare-and-set through {@code snapshots[1..]}, sent as one batch (one round trip on PostgreSQL); each must move
   * exactly one row, or the transaction fails with "effect state changed concurrently". The updates still run one
   * after the other in order, each seeing the one before, so the chain and its history are as if sent singly.
   */
  private void advanceChain(SqlSession s, List<EffectRecord> snapshots) throws SQLException {
    if (snapshots.size() < 2) {
      return;
    }
    // consecutive steps with the same statement go as one batch (on PostgreSQL every step has the same one)
    List<Object[]> steps = new ArrayList<>(snapshots.size() - 1);
    String batchSql = advanceSql(snapshots.get(1).state());
    for (int i = 1; i < snapshots.size(); i++) {
      EffectRecord next = snapshots.get(i);
      String sql = advanceSql(next.state());
      if (!sql.equals(batchSql)) {
        advanceBatch(s, batchSql, steps);
        steps.clear();
        batchSql = sql;
      }
      steps.add(new Object[] {next.state().name(), Micros.of(next.updatedAt()), Micros.ofNullable(next.completedAt()),
          next.organizationId().value(), next.effectId().value(), snapshots.get(i - 1).state().name()});
    }
    advanceBatch(s, batchSql, steps);
  }

  private static void advanceBatch(SqlSession s, String sql, List<Object[]> steps) throws SQLException {
    for (int updated : s.updateBatch(sql, steps)) {
      if (updated != 1) {
        throw new ConnectionStoreException("execution state changed concurrently");
      }
    }
  }

  /** The compare-and-set statement that moves an execution to {@code next}. */
  private String advanceSql(EffectState next) {
    return next == EffectState.DISPATCH_STARTED ? advanceToDispatch : advanceEffect;
  }

  /** Compare-and-set from {@code expected} to {@code next}; "execution state changed concurrently" if no row moved. */
  private void advance(SqlSession s, EffectRecord next, EffectState expected) throws SQLException {
    int updated = s.update(advanceSql(next.state()), next.state().name(), Micros.of(next.updatedAt()),
        Micros.ofNullable(next.completedAt()), next.organizationId().value(), next.effectId().value(),
        expected.name());
    if (updated != 1) {
      throw new ConnectionStoreException("execution state changed concurrently");
    }
  }

  private void insertReceipt(SqlSession s, EffectReceipt receipt) throws SQLException {
    EffectWriteRules.requireNoProviderDetail(receipt);
    NormalizedError error = receipt.normalizedError();
    s.update(insertReceipt, receipt.organizationId().value(), receipt.effectId().value(),
        receipt.connectionId().value(), receipt.finalState().name(), error == null ? null : error.code().name(),
        error == null ? null : error.message(), Micros.of(receipt.recordedAt()),
        Micros.ofNullable(receipt.dispatchStartedAt()), Micros.ofNullable(receipt.resolvedAt()),
        receipt.confirmationEvidenceRef() == null ? null : receipt.confirmationEvidenceRef().value(),
        receipt.reconciliationEvidence(), Micros.ofNullable(receipt.resolvesAmbiguousRecordedAt()),
        receipt.reconciliationAttemptEvidence());
  }

  /** The reference and its confirmation, one row. */
  private void insertEvidence(SqlSession s, ConfirmationEvidence evidence) throws SQLException {
    s.update(insertEvidence, evidence.organizationId().value(), evidence.effectId().value(),
        evidence.evidenceRef().value(), Micros.of(evidence.observedAt()), evidence.confirmationDigest());
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Row readers

  /** An execution from a row with the {@link #EXECUTION_COLUMNS} (by name). */
  static EffectRecord readEffect(ResultSet row) throws SQLException {
    return new EffectRecord(new EffectId(row.getString("execution_id")),
        new OrganizationId(row.getString("organization_id")), new ConnectionId(row.getString("connection_id")),
        new ConnectorRevisionId(row.getString("connector_revision")), new OperationId(row.getString("operation_id")),
        new AuthorizationId(row.getString("authorization_id")),
        new IdempotencyKey(row.getString("idempotency_key")), row.getString("authorization_digest"),
        row.getString("request_digest"), EffectState.valueOf(row.getString("state")),
        Micros.read(row, "created_at"), Micros.read(row, "updated_at"), Micros.readNullable(row, "completed_at"));
  }

  /** The normalized error of columns {@code error_code} and {@code error_message}, or {@code null}. */
  static @Nullable NormalizedError readError(ResultSet row) throws SQLException {
    String code = row.getString("error_code");
    return code == null ? null
        : new NormalizedError(NormalizedErrorCode.valueOf(code), row.getString("error_message"), null);
  }

  private static EffectReceipt readReceipt(ResultSet row) throws SQLException {
    String evidenceRef = row.getString("confirmation_evidence_ref");
    return new EffectReceipt(new EffectId(row.getString("execution_id")),
        new OrganizationId(row.getString("organization_id")), new ConnectionId(row.getString("connection_id")),
        EffectState.valueOf(row.getString("final_state")), readError(row), Micros.read(row, "recorded_at"),
        Micros.readNullable(row, "dispatch_started_at"), Micros.readNullable(row, "resolved_at"),
        evidenceRef == null ? null : new ConfirmationEvidenceRef(evidenceRef),
        row.getString("reconciliation_evidence"), Micros.readNullable(row, "resolves_ambiguous_recorded_at"),
        row.getString("reconciliation_attempt_evidence"));
  }
}
