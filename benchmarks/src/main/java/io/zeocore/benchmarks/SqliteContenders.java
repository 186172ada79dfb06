package io.zeocore.benchmarks;

import io.zeocore.connections.authorization.Ed25519SignatureVerifier;
import io.zeocore.connections.contract.ConfirmationEvidenceRef;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.sqlite.SQLiteConfig;
import static io.zeocore.benchmarks.DurableEffects.*;
import static io.zeocore.benchmarks.EffectContenders.*;

/** The SQLite contenders of {@link DurableEffects} that are not ZeoCore: raw JDBC with the store's settings, the floors of ZeoCore's data model and an ideal group commit. */
final class SqliteContenders {

  private SqliteContenders() {}

  /** The settings of the store's SQLite writer connection, for the raw contenders. */
  static SQLiteConfig storeSettings() {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setBusyTimeout(5000);
    config.enforceForeignKeys(true);
    config.enableRecursiveTriggers(true);
    config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    config.setGetGeneratedKeys(false); // as the store: no last_insert_rowid() query after each insert
    return config;
  }

  /** The floor on SQLite: one connection with the store's settings, two durable commits per effect. */
  static final class SqliteRaw extends Contender {

    private final java.sql.Connection connection;
    private final RawStatements statements;
    private final Ed25519SignatureVerifier verifier;
    private final EffectAuthorization signed;

    SqliteRaw(String name, Path file, Ed25519SignatureVerifier verifier, EffectAuthorization signed)
        throws SQLException {
      super(name, 1);
      connection = storeSettings().createConnection("jdbc:sqlite:" + file);
      RawStatements.createTables(connection, "");
      connection.setAutoCommit(false);
      statements = new RawStatements(connection, "", name);
      this.verifier = verifier;
      this.signed = signed;
    }

    @Override
    void effect(int caller, int index) throws SQLException {
      if (verifier != null && !verifier.verifySignature(signed)) {
        throw new IllegalStateException("the signature did not verify");
      }
      statements.effect();
    }

    @Override
    void close() throws SQLException {
      connection.close();
    }
  }

  /**
   * The floor of ZeoCore's data model on SQLite: ZeoCore's schema (migrated by the store, then every trigger dropped)
   * and per effect the rows ZeoCore writes, by plain prepared statements in two durable commits, plus one BouncyCastle
   * Ed25519 check. The claim: the authorization's nonce and the execution inserted at once at
   * {@code DISPATCH_STARTED} with its four-snapshot history and dispatch clock; the outcome: the execution moved to
   * {@code SUCCEEDED} (history appended), the confirmed evidence reference and the receipt. No guard, no read, no Java
   * beyond the statements: what no implementation of this data model can beat on this disk.
   *
   * <p>{@code lean}: the leanest model that still keeps every guarantee apart, one b-tree entry each — the nonce (one
   * use of an authorization), the execution (its identity index: one execution per idempotency key; its in-flight
   * index: what recovery scans) and the evidence reference's uniqueness in a table of its own; the receipt and the
   * confirmation appended to the execution's own row instead of rows of their own.
   *
   * <p>With more than one caller, every commit goes through an ideal {@link GroupCommit}.
   */
  static final class SqliteRows extends Contender {

    private final java.sql.Connection connection;
    private final Ed25519SignatureVerifier verifier;
    private final EffectAuthorization signed;
    private final boolean lean;
    private final PreparedStatement nonce;
    private final PreparedStatement effect;
    private final PreparedStatement finish;
    private final PreparedStatement evidence;
    private final PreparedStatement receipt;
    private final String prefix = "rows-" + Long.toString(System.nanoTime(), 36) + "-";
    private final AtomicLong next = new AtomicLong();
    private final GroupCommit group; // null with one caller

    SqliteRows(String name, int callers, Path file, Ed25519SignatureVerifier verifier, EffectAuthorization signed,
        boolean lean) throws SQLException {
      super(name, callers);
      JdbcConnectionStore.openSqlite(file).close();
      connection = storeSettings().createConnection("jdbc:sqlite:" + file);
      try (Statement ddl = connection.createStatement()) {
        List<String> triggers = new ArrayList<>();
        try (var rows = ddl.executeQuery("SELECT name FROM sqlite_master WHERE type = 'trigger'")) {
          while (rows.next()) {
            triggers.add(rows.getString(1));
          }
        }
        for (String trigger : triggers) {
          ddl.execute("DROP TRIGGER \"" + trigger + "\"");
        }
        if (lean) {
          ddl.execute("CREATE TABLE evidence_once (organization_id TEXT NOT NULL, evidence_ref TEXT NOT NULL,"
              + " PRIMARY KEY (organization_id, evidence_ref)) WITHOUT ROWID");
        }
      }
      connection.setAutoCommit(false);
      this.lean = lean;
      nonce = connection.prepareStatement(
          "INSERT INTO authorization_nonces (organization_id, nonce, recorded_at) VALUES (?, ?, ?)");
      effect = connection.prepareStatement("INSERT INTO executions (organization_id, execution_id, connection_id,"
          + " connector_revision, operation_id, authorization_id, idempotency_key, authorization_digest,"
          + " request_digest, holds_identity, state, created_at, updated_at, completed_at, history,"
          + " dispatch_started_db_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 1, 'DISPATCH_STARTED', ?10, ?10,"
          + " NULL, json_array(json_array('CREATED', ?10, NULL), json_array('AUTHORIZATION_VERIFIED', ?10, NULL),"
          + " json_array('PREPARED', ?10, NULL), json_array('DISPATCH_STARTED', ?10, NULL)),"
          + " CAST((julianday('now') - 2440587.5) * 86400000000.0 AS INTEGER))");
      // lean: the confirmation and the receipt appended to the history in the same statement
      finish = connection.prepareStatement("UPDATE executions SET state = 'SUCCEEDED', updated_at = ?3,"
          + " completed_at = ?3, history = json_insert(history, '$[#]', json_array('SUCCEEDED', ?3, ?3)"
          + (lean ? ", '$[#]', json_array(?4, ?5, ?3, ?6, ?7)" : "") + ")"
          + " WHERE organization_id = ?1 AND execution_id = ?2 AND state = 'DISPATCH_STARTED'");
      evidence = connection.prepareStatement(lean
          ? "INSERT INTO evidence_once (organization_id, evidence_ref) VALUES (?1, ?3)"
          : "INSERT INTO evidence_references (organization_id, execution_id, evidence_ref, observed_at,"
              + " confirmation_digest, sequence) VALUES (?1, ?2, ?3, ?4, ?5, 1)");
      receipt = connection.prepareStatement("INSERT INTO receipts (organization_id, execution_id, connection_id,"
          + " final_state, recorded_at, dispatch_started_at, confirmation_evidence_ref, sequence)"
          + " VALUES (?, ?, ?, 'SUCCEEDED', ?, ?, ?, 1)");
      this.verifier = verifier;
      this.signed = signed;
      group = callers > 1 ? new GroupCommit(connection) : null;
    }

    @Override
    void effect(int caller, int index) throws SQLException {
      if (!verifier.verifySignature(signed)) {
        throw new IllegalStateException("the signature did not verify");
      }
      long i = next.getAndIncrement();
      String id = "exec-" + prefix + i;
      long now = System.currentTimeMillis() * 1000;
      String ref = ConfirmationEvidenceRef.PREFIX + UUID.randomUUID();
      durably(() -> claim(id, i, now));
      durably(() -> outcome(id, ref, now));
    }

    /** {@code work} committed on its own (one caller) or in the group's next commit. */
    private void durably(GroupCommit.Work work) throws SQLException {
      if (group != null) {
        group.commit(work);
      } else {
        work.run();
        connection.commit();
      }
    }

    private void claim(String id, long i, long now) throws SQLException {
      nonce.setString(1, ORG.value());
      nonce.setString(2, "nonce-" + prefix + i);
      nonce.setLong(3, now);
      nonce.executeUpdate();
      bindExecution(effect, id, prefix + i, now);
      effect.executeUpdate();
    }

    private void outcome(String id, String ref, long now) throws SQLException {
      String org = ORG.value();
      finish.setString(1, org);
      finish.setString(2, id);
      finish.setLong(3, now + 1);
      if (lean) {
        finish.setString(4, ref);
        finish.setString(5, CONFIRMATION);
        finish.setString(6, CONNECTION.value());
        finish.setLong(7, now);
      }
      if (finish.executeUpdate() != 1) {
        throw new IllegalStateException("the execution did not move");
      }
      evidence.setString(1, org);
      evidence.setString(2, id);
      evidence.setString(3, ref);
      if (!lean) {
        evidence.setLong(4, now + 1);
        evidence.setString(5, CONFIRMATION);
      }
      evidence.executeUpdate();
      if (!lean) {
        receipt.setString(1, org);
        receipt.setString(2, id);
        receipt.setString(3, CONNECTION.value());
        receipt.setLong(4, now + 1);
        receipt.setLong(5, now);
        receipt.setString(6, ref);
        receipt.executeUpdate();
      }
    }

    @Override
    void close() throws SQLException {
      if (group != null) {
        group.close();
      }
      connection.close();
    }
  }

  /**
   * The ideal group commit, for the floors: one writer thread takes every work waiting (up to 64), runs them in one
   * transaction and commits once; each caller returns when its batch is durable, or gets the batch's failure. No
   * savepoint, no guard: what a group commit of these rows cannot beat.
   */
  static final class GroupCommit implements AutoCloseable {

    /** Statements run inside the writer's transaction. */
    interface Work {
      void run() throws SQLException;
    }

    private record Pending(Work work, CompletableFuture<Void> done) {}

    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Thread writer;

    GroupCommit(java.sql.Connection connection) {
      writer = new Thread(() -> {
        List<Pending> batch = new ArrayList<>();
        try {
          while (true) {
            batch.add(queue.take());
            queue.drainTo(batch, 63);
            try {
              for (Pending pending : batch) {
                pending.work.run();
              }
              connection.commit();
              batch.forEach(pending -> pending.done.complete(null));
            } catch (SQLException | RuntimeException e) {
              try {
                connection.rollback();
              } catch (SQLException rollback) {
                e.addSuppressed(rollback);
              }
              batch.forEach(pending -> pending.done.completeExceptionally(e));
            }
            batch.clear();
          }
        } catch (InterruptedException closed) {
          batch.forEach(pending -> pending.done.cancel(false));
        }
      }, "floor-group-commit");
      writer.setDaemon(true);
      writer.start();
    }

    /** Runs {@code work} in the writer's next transaction and returns once that transaction is committed. */
    void commit(Work work) throws SQLException {
      Pending pending = new Pending(work, new CompletableFuture<>());
      queue.add(pending);
      try {
        pending.done.join();
      } catch (CompletionException failed) {
        throw new SQLException("the batch failed", failed.getCause());
      }
    }

    @Override
    public void close() {
      writer.interrupt();
    }
  }
}
