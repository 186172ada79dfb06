package io.zeocore.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zeocore.EffectKind;
import io.zeocore.connections.authorization.Ed25519SignatureVerifier;
import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.contract.AuthorizationCanonicalForm;
import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.ConfirmationEvidenceRef;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionHealth;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectionStatus;
import io.zeocore.connections.contract.ConnectorId;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.IdempotencyMode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.RiskClass;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectDispatcher;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.store.Dialect;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.X509EncodedKeySpec;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.sqlite.SQLiteConfig;

/**
 * Item 3, durable effects at the disk's limit (issue 20): effects per second through {@link EffectOrchestrator} against
 * raw JDBC doing the same two durable commits, on SQLite (WAL, {@code synchronous=FULL}) and on PostgreSQL, with 1, 4
 * and 16 concurrent callers, and with two JVMs on one PostgreSQL database.
 *
 * <p>Every contender takes one turn per round (rotating who goes first), each turn a small batch, so that neighbouring
 * batches see the same disk and the same neighbours on a shared machine; the ratios are the medians of the per-round
 * ratios (and the ratio of totals). Beside each figure: process CPU µs per effect (every thread, JIT and GC included),
 * bytes allocated per effect (every thread), bytes and calls of {@code write} per effect ({@code /proc/self/io}
 * {@code wchar}/{@code syscw}: WAL frames, checkpoints, sockets), PostgreSQL WAL bytes per effect
 * ({@code pg_current_wal_insert_lsn}, server-wide), and per-effect latency p50/p99.
 *
 * <p>Contenders (names as printed):
 * <ul>
 *   <li>{@code sqlite-zeocore-N}: {@code execute()} end to end (verification with the default verifier, preflight,
 *       claim commit, a no-op confirming dispatcher, outcome commit), N callers on one store.
 *   <li>{@code sqlite-zeocore-jdk-1}: the same with the JDK Ed25519 verifier (the verifier lever's "before").
 *   <li>{@code sqlite-raw-1}: one connection, insert + commit, then update + receipt insert + commit (the floor).
 *   <li>{@code sqlite-raw-jdk-1}, {@code sqlite-raw-bc-1}: the floor plus one authorization signature check per effect
 *       with the JDK's or BouncyCastle's Ed25519 ({@link Ed25519SignatureVerifier}, canonical form included).
 *   <li>{@code pg-zeocore-N}, {@code pg-raw-N}: the same on PostgreSQL; raw callers own one connection each.
 *   <li>{@code pg-zeocore-url-N}: ZeoCore on a {@code jdbc:postgresql:} URL ({@code zeocore.connections.store.url}),
 *       i.e. on the store's own pool (size 16) instead of an application's HikariCP pool of 16.
 *   <li>{@code pg2jvm-zeocore-N}, {@code pg2jvm-raw-N}: two child JVMs, N callers each, started together.
 *   <li>{@code sqlite-rows-bc-N}, {@code pg-rows-N}: the floor of ZeoCore's data model — its rows, by plain
 *       statements, on its own schema with the guard triggers dropped ({@link SqliteRows}, {@link PostgresRows}).
 *   <li>{@code sqlite-lean-bc-N}: the floor of the leanest data model that keeps every guarantee ({@link SqliteRows}).
 * </ul>
 *
 * <p>Usage: {@code DurableEffects <directory> [--rounds R] [--effects E] [--sqlite] [--pg <jdbc url>] [--jvms]}.
 * Prints one JSON object per contender, then one with the ratios.
 */
public final class DurableEffects {

  static final String ISSUER = "zeo-go";
  static final String AUDIENCE = "zeocore";
  static final OrganizationId ORG = new OrganizationId("org-1");
  static final ConnectionId CONNECTION = new ConnectionId("conn-1");
  static final ConnectorRevisionId REVISION = new ConnectorRevisionId("stripe-r1");
  static final OperationId CREATE_REFUND = new OperationId("create_refund");
  static final byte[] BODY = "{\"amount\":100,\"charge\":\"ch_1\"}".getBytes(StandardCharsets.UTF_8);
  static final String CONFIRMATION = "c".repeat(64);
  static final String ZEOCORE_SCHEMA = "bench_zeocore";
  static final String ZEOCORE_URL_SCHEMA = "bench_zeocore_url";
  static final String RAW_SCHEMA = "bench_raw";
  static final String ROWS_SCHEMA = "bench_rows";

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  // ------------------------------------------------------------------------------------------------------------
  // Signing (outside the clock): BouncyCastle, because the JDK's signing would dominate preparation time

  static final class Issuer {

    private final byte[] seed = new byte[32];
    private final Ed25519PrivateKeyParameters key;
    final PublicKey publicKey;
    private final String prefix;
    private final AtomicLong next = new AtomicLong();
    private final Instant now = Instant.now();

    Issuer(String prefix) throws Exception {
      new SecureRandom().nextBytes(seed);
      key = new Ed25519PrivateKeyParameters(seed, 0);
      byte[] spki = HexFormat.of().parseHex("302a300506032b6570032100" + HexFormat.of().formatHex(
          key.generatePublicKey().getEncoded()));
      publicKey = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(spki));
      this.prefix = prefix;
    }

    /** A fresh signed authorization with its own nonce and idempotency key. */
    EffectAuthorization next() {
      long i = next.getAndIncrement();
      EffectAuthorization unsigned = new EffectAuthorization(new AuthorizationId("auth-" + prefix + i), ORG,
          "seat-1", "binding-1", "packet-1", "attempt-1", CONNECTION, REVISION, CREATE_REFUND,
          Digests.requestDigest(BODY), new IdempotencyKey("idem-" + prefix + i), List.of("approval-1"),
          now.minusSeconds(1), now.plusSeconds(36_000), "nonce-" + prefix + i, AUDIENCE, ISSUER, "unsigned");
      Ed25519Signer signer = new Ed25519Signer();
      signer.init(true, key);
      byte[] payload = AuthorizationCanonicalForm.signingPayload(unsigned);
      signer.update(payload, 0, payload.length);
      return unsigned.withSignature(Base64.getUrlEncoder().withoutPadding().encodeToString(signer.generateSignature()));
    }
  }

  // ------------------------------------------------------------------------------------------------------------
  // Contenders

  /** One kind of effect, run by {@code callers} threads at once. */
  abstract static class Contender {

    final String name;
    final int callers;

    Contender(String name, int callers) {
      this.name = name;
      this.callers = callers;
    }

    /** Untimed: whatever the next {@code perCaller} effects of each caller need (signed authorizations). */
    void prepare(int perCaller) throws Exception {}

    /** One effect by caller {@code caller}; must end durable, or throw. */
    abstract void effect(int caller, int index) throws Exception;

    void close() throws Exception {}
  }

  /** ZeoCore end to end; each caller uses its own pre-signed authorizations. */
  static final class ZeoCore extends Contender {

    private final EffectOrchestrator orchestrator;
    private final Issuer issuer;
    private final String runId;
    private final List<List<EffectAuthorization>> prepared = new ArrayList<>();
    final AtomicInteger dispatches = new AtomicInteger();
    private final EffectDispatcher confirming = request -> {
      dispatches.incrementAndGet();
      return EffectDispatchResult.confirmed(CONFIRMATION);
    };
    private final EffectReconciler never = request -> {
      throw new IllegalStateException("a confirmed effect is never reconciled");
    };
    private final AtomicLong ids = new AtomicLong();

    ZeoCore(String name, int callers, JdbcConnectionStore store, Ed25519SignatureVerifier signatures, Issuer issuer,
        String runId) {
      super(name, callers);
      this.orchestrator = new EffectOrchestrator(timed(store), new ExactAuthorizationVerifier(signatures, AUDIENCE,
          Set.of(ISSUER)));
      this.issuer = issuer;
      this.runId = runId;
    }

    @Override
    void prepare(int perCaller) {
      prepared.clear();
      for (int c = 0; c < callers; c++) {
        List<EffectAuthorization> mine = new ArrayList<>(perCaller);
        for (int i = 0; i < perCaller; i++) {
          mine.add(issuer.next());
        }
        prepared.add(mine);
      }
    }

    @Override
    void effect(int caller, int index) {
      EffectResult result = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
          prepared.get(caller).get(index), new EffectId("exec-" + runId + "-" + ids.getAndIncrement()), BODY,
          confirming, never);
      if (result.state() != EffectState.SUCCEEDED) {
        throw new IllegalStateException(name + ": effect ended " + result.state());
      }
    }
  }

  /**
   * Binds parameters 1–10 of a floor's execution insert: organization, execution id, connection, connector revision,
   * operation, authorization id, idempotency key, authorization digest, request digest, then {@code now} (µs).
   */
  static void bindExecution(PreparedStatement insert, String effectId, String unique, long now)
      throws SQLException {
    insert.setString(1, ORG.value());
    insert.setString(2, effectId);
    insert.setString(3, CONNECTION.value());
    insert.setString(4, REVISION.value());
    insert.setString(5, CREATE_REFUND.value());
    insert.setString(6, "auth-" + unique);
    insert.setString(7, "idem-" + unique);
    insert.setString(8, "sha256:" + CONFIRMATION);
    insert.setString(9, Digests.requestDigest(BODY));
    insert.setLong(10, now);
  }

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


  /** The two commits of one effect on one connection (auto-commit off). */
  static final class RawStatements {

    private final java.sql.Connection connection;
    private final PreparedStatement claim;
    private final PreparedStatement finish;
    private final PreparedStatement receipt;
    private final String prefix;
    private long next;

    RawStatements(java.sql.Connection connection, String schema, String prefix) throws SQLException {
      this.connection = connection;
      this.prefix = prefix + "-" + System.nanoTime() + "-";
      claim = connection.prepareStatement("INSERT INTO " + schema + "executions (execution_id, state,"
          + " request_digest, created_at, updated_at) VALUES (?, ?, ?, ?, ?)");
      finish = connection.prepareStatement("UPDATE " + schema + "executions SET state = ?, updated_at = ?"
          + " WHERE execution_id = ?");
      receipt = connection.prepareStatement("INSERT INTO " + schema + "receipts (execution_id, state,"
          + " confirmation_digest, created_at) VALUES (?, ?, ?, ?)");
    }

    static void createTables(java.sql.Connection connection, String schema) throws SQLException {
      try (Statement ddl = connection.createStatement()) {
        ddl.execute("CREATE TABLE IF NOT EXISTS " + schema + "executions (execution_id TEXT PRIMARY KEY,"
            + " state TEXT NOT NULL, request_digest TEXT NOT NULL, created_at BIGINT NOT NULL,"
            + " updated_at BIGINT NOT NULL)");
        ddl.execute("CREATE TABLE IF NOT EXISTS " + schema + "receipts (execution_id TEXT NOT NULL REFERENCES "
            + schema + "executions (execution_id), state TEXT NOT NULL, confirmation_digest TEXT,"
            + " created_at BIGINT NOT NULL)");
      }
    }

    /** Insert and commit ({@code DISPATCH_STARTED}), then update, add the receipt and commit. */
    void effect() throws SQLException {
      String id = prefix + next++;
      long now = System.currentTimeMillis();
      claim.setString(1, id);
      claim.setString(2, "DISPATCH_STARTED");
      claim.setString(3, "sha256:" + CONFIRMATION);
      claim.setLong(4, now);
      claim.setLong(5, now);
      claim.executeUpdate();
      connection.commit();
      finish.setString(1, "SUCCEEDED");
      finish.setLong(2, now);
      finish.setString(3, id);
      finish.executeUpdate();
      receipt.setString(1, id);
      receipt.setString(2, "SUCCEEDED");
      receipt.setString(3, CONFIRMATION);
      receipt.setLong(4, now);
      receipt.executeUpdate();
      connection.commit();
    }
  }

  /** Raw JDBC on PostgreSQL: each caller owns one connection and its prepared statements. */
  static final class PostgresRaw extends Contender {

    private final List<java.sql.Connection> connections = new ArrayList<>();
    private final List<RawStatements> statements = new ArrayList<>();

    PostgresRaw(String name, int callers, String url) throws SQLException {
      super(name, callers);
      for (int c = 0; c < callers; c++) {
        java.sql.Connection connection = DriverManager.getConnection(url, "postgres", null);
        connection.setAutoCommit(false);
        connections.add(connection);
        statements.add(new RawStatements(connection, RAW_SCHEMA + ".", name + "-" + c));
      }
    }

    @Override
    void effect(int caller, int index) throws SQLException {
      statements.get(caller).effect();
    }

    @Override
    void close() throws SQLException {
      for (java.sql.Connection connection : connections) {
        connection.close();
      }
    }
  }

  /**
   * The floor of ZeoCore's own data model on PostgreSQL: ZeoCore's schema (migrated by a store into a schema of its
   * own, then every trigger but the foreign keys' dropped), and per effect the rows ZeoCore writes, in two
   * auto-committed statements (one round trip per commit, as ZeoCore's two function calls): the nonce, the execution
   * inserted at once at {@code DISPATCH_STARTED} with its four-snapshot history, and its dispatch clock; then the
   * execution moved to {@code SUCCEEDED}, the confirmed evidence reference and the receipt. No guard, no function,
   * no read: what no implementation of this data model can beat on this server.
   */
  static final class PostgresRows extends Contender {

    private final List<java.sql.Connection> connections = new ArrayList<>();
    private final List<PreparedStatement> claims = new ArrayList<>();
    private final List<PreparedStatement> outcomes = new ArrayList<>();
    private final String prefix = "rows-" + Long.toString(System.nanoTime(), 36) + "-";
    private final AtomicLong next = new AtomicLong();

    PostgresRows(String name, int callers, String url) throws SQLException {
      super(name, callers);
      String t = ROWS_SCHEMA + ".";
      for (int c = 0; c < callers; c++) {
        java.sql.Connection connection = DriverManager.getConnection(url, "postgres", null);
        connections.add(connection);
        claims.add(connection.prepareStatement("WITH p (o, x, c, r, op, a, k, ad, rd, t, nn) AS (VALUES (?::text,"
            + " ?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::bigint, ?::text)),"
            + " n AS (INSERT INTO " + t + "authorization_nonces (organization_id, nonce, recorded_at)"
            + " SELECT o, nn, t FROM p), e AS (INSERT INTO " + t + "executions (organization_id, execution_id,"
            + " connection_id, connector_revision, operation_id, authorization_id, idempotency_key,"
            + " authorization_digest, request_digest, holds_identity, state, created_at, updated_at, completed_at,"
            + " history) SELECT o, x, c, r, op, a, k, ad, rd, 1, 'DISPATCH_STARTED', t, t, NULL,"
            + " jsonb_build_array(jsonb_build_array('CREATED', t, NULL), jsonb_build_array('AUTHORIZATION_VERIFIED',"
            + " t, NULL), jsonb_build_array('PREPARED', t, NULL), jsonb_build_array('DISPATCH_STARTED', t, NULL))"
            + " FROM p) INSERT INTO " + t + "dispatch_clock (organization_id, execution_id, started_db_at)"
            + " SELECT o, x, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint FROM p"));
        outcomes.add(connection.prepareStatement("WITH p (o, x, t, ref, cd, c, ds) AS (VALUES (?::text, ?::text,"
            + " ?::bigint, ?::text, ?::text, ?::text, ?::bigint)), u AS (UPDATE " + t + "executions e"
            + " SET state = 'SUCCEEDED', updated_at = p.t, completed_at = p.t, history = e.history"
            + " || jsonb_build_array(jsonb_build_array('SUCCEEDED', p.t, p.t)) FROM p WHERE e.organization_id = p.o"
            + " AND e.execution_id = p.x AND e.state = 'DISPATCH_STARTED' RETURNING 1), v AS (INSERT INTO " + t
            + "evidence_references (organization_id, execution_id, evidence_ref, observed_at, confirmation_digest)"
            + " SELECT o, x, ref, t, cd FROM p, u) INSERT INTO " + t + "receipts (organization_id, execution_id,"
            + " connection_id, final_state, recorded_at, dispatch_started_at, confirmation_evidence_ref)"
            + " SELECT o, x, c, 'SUCCEEDED', t, ds, ref FROM p, u"));
      }
    }

    /** Every trigger of {@code schema} that is not a foreign key's, dropped. */
    static void dropTriggers(java.sql.Connection connection, String schema) throws SQLException {
      List<String> drops = new ArrayList<>();
      try (Statement query = connection.createStatement();
          var rows = query.executeQuery("SELECT format('DROP TRIGGER %I ON %s', t.tgname, t.tgrelid::regclass)"
              + " FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n"
              + " ON n.oid = c.relnamespace WHERE n.nspname = '" + schema + "' AND NOT t.tgisinternal")) {
        while (rows.next()) {
          drops.add(rows.getString(1));
        }
      }
      try (Statement ddl = connection.createStatement()) {
        for (String drop : drops) {
          ddl.execute(drop);
        }
      }
    }

    @Override
    void effect(int caller, int index) throws SQLException {
      long i = next.getAndIncrement();
      String id = "exec-" + prefix + i;
      long now = System.currentTimeMillis() * 1000;
      PreparedStatement claim = claims.get(caller);
      bindExecution(claim, id, prefix + i, now);
      claim.setString(11, "nonce-" + prefix + i);
      claim.executeUpdate();
      PreparedStatement outcome = outcomes.get(caller);
      outcome.setString(1, ORG.value());
      outcome.setString(2, id);
      outcome.setLong(3, now + 1);
      outcome.setString(4, ConfirmationEvidenceRef.PREFIX + UUID.randomUUID());
      outcome.setString(5, CONFIRMATION);
      outcome.setString(6, CONNECTION.value());
      outcome.setLong(7, now);
      if (outcome.executeUpdate() != 1) {
        throw new IllegalStateException("the execution did not move");
      }
    }

    @Override
    void close() throws SQLException {
      for (java.sql.Connection connection : connections) {
        connection.close();
      }
    }
  }

  // ------------------------------------------------------------------------------------------------------------
  // Running batches

  /** What one batch cost. */
  record Batch(int effects, long wallNanos, long cpuNanos, long allocatedBytes, long writeBytes, long writeCalls,
      long walBytes, long[] latencies) {}

  /** Totals of one contender over all rounds. */
  static final class Totals {

    final String name;
    long effects;
    long wall;
    long cpu;
    long allocated;
    long writeBytes;
    long writeCalls;
    long wal;
    final List<Long> latencies = new ArrayList<>();
    final List<Double> rates = new ArrayList<>();

    Totals(String name) {
      this.name = name;
    }

    void add(Batch batch) {
      effects += batch.effects;
      wall += batch.wallNanos;
      cpu += batch.cpuNanos;
      allocated += batch.allocatedBytes;
      writeBytes += batch.writeBytes;
      writeCalls += batch.writeCalls;
      wal += batch.walBytes;
      for (long latency : batch.latencies) {
        latencies.add(latency);
      }
      rates.add(batch.effects / (batch.wallNanos / 1e9));
    }

    double perSecond() {
      return effects / (wall / 1e9);
    }

    String json() {
      long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
      return String.format(Locale.ROOT, "{\"contender\":\"%s\",\"effects\":%d,\"effectsPerSecond\":%.1f,"
              + "\"cpuMicrosPerEffect\":%.0f,\"allocatedBytesPerEffect\":%.0f,\"writeBytesPerEffect\":%.0f,"
              + "\"writeCallsPerEffect\":%.1f,\"walBytesPerEffect\":%.0f,\"latencyP50Micros\":%.0f,"
              + "\"latencyP99Micros\":%.0f}",
          name, effects, perSecond(), cpu / 1e3 / effects, (double) allocated / effects,
          (double) writeBytes / effects, (double) writeCalls / effects, (double) wal / effects,
          quantile(sorted, 0.5) / 1e3, quantile(sorted, 0.99) / 1e3);
    }
  }

  /** With {@code --only <regex>}: only the contenders whose names match (for profiling one of them). */
  private static String only = ".*";
  /** With {@code --breakdown}: ZeoCore's store calls are timed one by one (wall µs per effect, printed at the end). */
  private static boolean breakdown;
  /** With {@code --warmup B}: batches each contender runs before the measured rounds (default 6). */
  private static int warmUpBatches = 6;
  static final Map<String, long[]> STORE_CALLS = new java.util.concurrent.ConcurrentHashMap<>();

  /** {@code store} with every call's wall time added to {@link #STORE_CALLS}. */
  static io.zeocore.connections.store.EffectStore timed(io.zeocore.connections.store.EffectStore store) {
    if (!breakdown) {
      return store;
    }
    return (io.zeocore.connections.store.EffectStore) java.lang.reflect.Proxy.newProxyInstance(
        DurableEffects.class.getClassLoader(), new Class<?>[] {io.zeocore.connections.store.EffectStore.class},
        (proxy, method, arguments) -> {
          long began = System.nanoTime();
          try {
            return method.invoke(store, arguments);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          } finally {
            long[] sum = STORE_CALLS.computeIfAbsent(method.getName(), k -> new long[2]);
            synchronized (sum) {
              sum[0] += System.nanoTime() - began;
              sum[1]++;
            }
          }
        });
  }

  private final String pgUrl;
  private java.sql.Connection walProbe;

  private DurableEffects(String pgUrl) {
    this.pgUrl = pgUrl;
  }

  /** Runs {@code perCaller} effects on each of the contender's callers, all starting together. */
  Batch run(Contender contender, int perCaller) throws Exception {
    contender.prepare(perCaller);
    int callers = contender.callers;
    long[][] latencies = new long[callers][perCaller];
    Throwable[] failure = new Throwable[1];
    CyclicBarrier start = new CyclicBarrier(callers + 1);
    CyclicBarrier end = new CyclicBarrier(callers + 1);
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < callers; c++) {
      int caller = c;
      Thread thread = new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < perCaller; i++) {
            long began = System.nanoTime();
            contender.effect(caller, i);
            latencies[caller][i] = System.nanoTime() - began;
          }
        } catch (Throwable e) {
          synchronized (failure) {
            failure[0] = e;
          }
        } finally {
          try {
            end.await();
          } catch (Exception ignored) {
            // the batch is over either way
          }
        }
      }, contender.name + "-" + c);
      thread.start();
      threads.add(thread);
    }
    long wal0 = walPosition();
    long[] io0 = io();
    long cpu0 = OS.getProcessCpuTime();
    long alloc0 = THREADS.getTotalThreadAllocatedBytes();
    long wall0 = System.nanoTime();
    start.await();
    end.await();
    long wall = System.nanoTime() - wall0;
    long alloc = THREADS.getTotalThreadAllocatedBytes() - alloc0;
    long cpu = OS.getProcessCpuTime() - cpu0;
    long[] io = io();
    long wal = walPosition() - wal0;
    for (Thread thread : threads) {
      thread.join();
    }
    if (failure[0] != null) {
      throw new IllegalStateException(contender.name + " failed", failure[0]);
    }
    return new Batch(callers * perCaller, wall, cpu, alloc, io[0] - io0[0], io[1] - io0[1], wal,
        Arrays.stream(latencies).flatMapToLong(Arrays::stream).toArray());
  }

  /** {@code wchar}, {@code syscw} of this process. */
  static long[] io() {
    try {
      long[] values = new long[2];
      for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
        if (line.startsWith("wchar:")) {
          values[0] = Long.parseLong(line.substring(6).trim());
        } else if (line.startsWith("syscw:")) {
          values[1] = Long.parseLong(line.substring(6).trim());
        }
      }
      return values;
    } catch (IOException | RuntimeException e) {
      return new long[2];
    }
  }

  private long walPosition() throws SQLException {
    if (pgUrl == null) {
      return 0;
    }
    if (walProbe == null) {
      walProbe = DriverManager.getConnection(pgUrl, "postgres", null);
    }
    try (Statement statement = walProbe.createStatement();
        ResultSet row = statement.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')")) {
      row.next();
      return row.getLong(1);
    }
  }

  /** Rounds of one batch per contender, rotating who goes first; prints each contender's totals. */
  Map<String, Totals> rounds(List<Contender> contenders, int rounds, int effectsPerBatch, PrintStream out)
      throws Exception {
    Map<String, Totals> totals = new LinkedHashMap<>();
    contenders = contenders.stream().filter(c -> c.name.matches(only)).toList();
    for (Contender contender : contenders) {
      totals.put(contender.name, new Totals(contender.name));
      for (int w = 0; w < warmUpBatches; w++) { // JIT compilation out of the measured batches
        run(contender, Math.max(2, effectsPerBatch / contender.callers));
      }
    }
    for (int r = 0; r < rounds; r++) {
      for (int t = 0; t < contenders.size(); t++) {
        Contender contender = contenders.get((r + t) % contenders.size());
        totals.get(contender.name).add(run(contender, Math.max(2, effectsPerBatch / contender.callers)));
      }
    }
    for (Totals total : totals.values()) {
      out.println(total.json());
    }
    return totals;
  }

  public static void main(String[] args) throws Exception {
    if (args.length >= 1 && args[0].equals("--child")) {
      Child.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: DurableEffects <directory> [--rounds R] [--effects E] [--sqlite]"
          + " [--pg <jdbc url>] [--jvms]");
    }
    Path directory = Files.createDirectories(Path.of(args[0]));
    int rounds = 10;
    int effects = 48;
    boolean sqlite = false;
    boolean jvms = false;
    String pg = null;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--effects" -> effects = Integer.parseInt(args[++i]);
        case "--sqlite" -> sqlite = true;
        case "--pg" -> pg = args[++i];
        case "--jvms" -> jvms = true;
        case "--only" -> only = args[++i];
        case "--breakdown" -> breakdown = true;
        case "--warmup" -> warmUpBatches = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Map<String, Double> ratios = new LinkedHashMap<>();
    Map<String, Totals> all = new LinkedHashMap<>();
    if (sqlite) {
      all.putAll(sqlite(directory, rounds, effects));
      ratio(ratios, all, "sqlite-zeocore-1", "sqlite-raw-1");
      ratio(ratios, all, "sqlite-zeocore-1", "sqlite-raw-bc-1");
      ratio(ratios, all, "sqlite-rows-bc-1", "sqlite-raw-bc-1");
      ratio(ratios, all, "sqlite-lean-bc-1", "sqlite-raw-bc-1");
      ratio(ratios, all, "sqlite-zeocore-1", "sqlite-rows-bc-1");
      ratio(ratios, all, "sqlite-zeocore-1", "sqlite-raw-jdk-1");
      ratio(ratios, all, "sqlite-zeocore-jdk-1", "sqlite-raw-1");
      ratio(ratios, all, "sqlite-zeocore-4", "sqlite-raw-1");
      ratio(ratios, all, "sqlite-zeocore-16", "sqlite-raw-1");
      ratio(ratios, all, "sqlite-lean-bc-4", "sqlite-raw-1");
      for (int callers : new int[] {4, 16}) {
        ratio(ratios, all, "sqlite-rows-bc-" + callers, "sqlite-raw-1");
        ratio(ratios, all, "sqlite-zeocore-" + callers, "sqlite-rows-bc-" + callers);
      }
    }
    if (pg != null) {
      DurableEffects measurement = new DurableEffects(pg);
      all.putAll(measurement.postgres(rounds, effects));
      for (int callers : new int[] {1, 4, 16}) {
        ratio(ratios, all, "pg-zeocore-" + callers, "pg-raw-" + callers);
        ratio(ratios, all, "pg-zeocore-url-" + callers, "pg-zeocore-" + callers);
        ratio(ratios, all, "pg-rows-" + callers, "pg-raw-" + callers);
        ratio(ratios, all, "pg-zeocore-" + callers, "pg-rows-" + callers);
      }
      if (jvms) {
        all.putAll(measurement.twoJvms(rounds, effects, 8));
        ratio(ratios, all, "pg2jvm-zeocore-8", "pg2jvm-raw-8");
      }
    }
    STORE_CALLS.forEach((method, sum) -> System.out.printf(Locale.ROOT, "{\"storeCall\":\"%s\",\"calls\":%d,"
        + "\"wallMicrosPerCall\":%.0f}%n", method, sum[1], sum[0] / 1e3 / sum[1]));
    StringBuilder json = new StringBuilder("{\"ratios\":{");
    ratios.forEach((k, v) -> json.append(String.format(Locale.ROOT, "\"%s\":%.3f,", k, v)));
    if (!ratios.isEmpty()) {
      json.setLength(json.length() - 1);
    }
    System.out.println(json.append("}}"));
  }

  /** The median of the per-round throughput ratios of {@code a} over {@code b}. */
  private static void ratio(Map<String, Double> ratios, Map<String, Totals> all, String a, String b) {
    Totals x = all.get(a);
    Totals y = all.get(b);
    if (x == null || y == null) {
      return;
    }
    double[] perRound = new double[Math.min(x.rates.size(), y.rates.size())];
    for (int i = 0; i < perRound.length; i++) {
      perRound[i] = x.rates.get(i) / y.rates.get(i);
    }
    Arrays.sort(perRound);
    ratios.put(a + "/" + b, perRound[perRound.length / 2]);
    ratios.put(a + "/" + b + ":p10", perRound[(int) (perRound.length * 0.1)]);
    ratios.put(a + "/" + b + ":p90", perRound[Math.min(perRound.length - 1, (int) (perRound.length * 0.9))]);
    ratios.put(a + "/" + b + ":totals", x.perSecond() / y.perSecond());
  }

  private static Map<String, Totals> sqlite(Path directory, int rounds, int effects) throws Exception {
    for (String name : List.of("zeocore.db", "raw.db", "raw-jdk.db", "raw-bc.db", "rows-bc.db",
        "lean-bc.db", "rows-bc-4.db", "rows-bc-16.db", "lean-bc-4.db")) {
      for (String suffix : List.of("", "-wal", "-shm")) {
        Files.deleteIfExists(directory.resolve(name + suffix));
      }
    }
    Issuer issuer = new Issuer("s");
    Ed25519SignatureVerifier preferred = Ed25519SignatureVerifier.of(ISSUER, issuer.publicKey);
    Ed25519SignatureVerifier jdk = Ed25519SignatureVerifier.usingJdk(Map.of(ISSUER, List.of(issuer.publicKey)));
    if (!preferred.implementation().equals("bouncycastle")) {
      throw new IllegalStateException("BouncyCastle is not on the benchmark's class path");
    }
    EffectAuthorization signed = issuer.next();
    List<Contender> contenders = new ArrayList<>();
    try (JdbcConnectionStore store = JdbcConnectionStore.openSqlite(directory.resolve("zeocore.db"))) {
      store.saveConnectorRevision(ORG, revision());
      store.saveConnection(ORG, connection(Instant.now()));
      String run = Long.toString(System.nanoTime(), 36);
      contenders.add(new ZeoCore("sqlite-zeocore-1", 1, store, preferred, issuer, run + "a"));
      contenders.add(new ZeoCore("sqlite-zeocore-jdk-1", 1, store, jdk, issuer, run + "b"));
      contenders.add(new SqliteRaw("sqlite-raw-1", directory.resolve("raw.db"), null, null));
      contenders.add(new SqliteRaw("sqlite-raw-jdk-1", directory.resolve("raw-jdk.db"), jdk, signed));
      contenders.add(new SqliteRaw("sqlite-raw-bc-1", directory.resolve("raw-bc.db"), preferred, signed));
      contenders.add(new SqliteRows("sqlite-rows-bc-1", 1, directory.resolve("rows-bc.db"), preferred, signed, false));
      contenders.add(new SqliteRows("sqlite-lean-bc-1", 1, directory.resolve("lean-bc.db"), preferred, signed, true));
      contenders.add(new ZeoCore("sqlite-zeocore-4", 4, store, preferred, issuer, run + "c"));
      contenders.add(new ZeoCore("sqlite-zeocore-16", 16, store, preferred, issuer, run + "d"));
      for (int callers : new int[] {4, 16}) {
        contenders.add(new SqliteRows("sqlite-rows-bc-" + callers, callers,
            directory.resolve("rows-bc-" + callers + ".db"), preferred, signed, false));
      }
      contenders.add(new SqliteRows("sqlite-lean-bc-4", 4, directory.resolve("lean-bc-4.db"), preferred, signed,
          true));
      try {
        return new DurableEffects(null).rounds(contenders, rounds, effects, System.out);
      } finally {
        for (Contender contender : contenders) {
          contender.close();
        }
      }
    }
  }

  static HikariDataSource pool(String url, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername("postgres");
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    return new HikariDataSource(config);
  }

  /** Drops and recreates both schemas (once per parent run). */
  static void resetPostgres(String url) throws SQLException {
    try (java.sql.Connection connection = DriverManager.getConnection(url, "postgres", null);
        Statement ddl = connection.createStatement()) {
      ddl.execute("DROP SCHEMA IF EXISTS " + ZEOCORE_SCHEMA + " CASCADE");
      ddl.execute("DROP SCHEMA IF EXISTS " + RAW_SCHEMA + " CASCADE");
      ddl.execute("DROP SCHEMA IF EXISTS " + ZEOCORE_URL_SCHEMA + " CASCADE");
      ddl.execute("DROP SCHEMA IF EXISTS " + ROWS_SCHEMA + " CASCADE");
      ddl.execute("CREATE SCHEMA " + RAW_SCHEMA);
      RawStatements.createTables(connection, RAW_SCHEMA + ".");
    }
  }

  static JdbcConnectionStore postgresStore(HikariDataSource pool) {
    return JdbcConnectionStore.builder().dataSource(pool, Dialect.POSTGRESQL).schema(ZEOCORE_SCHEMA).build();
  }

  private Map<String, Totals> postgres(int rounds, int effects) throws Exception {
    resetPostgres(pgUrl);
    Issuer issuer = new Issuer("p");
    Ed25519SignatureVerifier preferred = Ed25519SignatureVerifier.of(ISSUER, issuer.publicKey);
    List<Contender> contenders = new ArrayList<>();
    try (HikariDataSource pool = pool(pgUrl, 16); JdbcConnectionStore store = postgresStore(pool);
        JdbcConnectionStore onUrl = JdbcConnectionStore.builder().jdbcUrl(pgUrl, "postgres", null)
            .schema(ZEOCORE_URL_SCHEMA).poolSize(16).build()) {
      for (JdbcConnectionStore each : List.of(store, onUrl)) {
        each.saveConnectorRevision(ORG, revision());
        each.saveConnection(ORG, connection(Instant.now()));
      }
      JdbcConnectionStore.builder().dataSource(pool, Dialect.POSTGRESQL).schema(ROWS_SCHEMA).build().close();
      try (java.sql.Connection connection = pool.getConnection()) {
        PostgresRows.dropTriggers(connection, ROWS_SCHEMA);
      }
      String run = Long.toString(System.nanoTime(), 36);
      for (int callers : new int[] {1, 4, 16}) {
        contenders.add(new ZeoCore("pg-zeocore-" + callers, callers, store, preferred, issuer, run + callers));
        contenders.add(new PostgresRaw("pg-raw-" + callers, callers, pgUrl));
        contenders.add(new PostgresRows("pg-rows-" + callers, callers, pgUrl));
      }
      for (int callers : new int[] {1, 16}) {
        contenders.add(new ZeoCore("pg-zeocore-url-" + callers, callers, onUrl, preferred, issuer,
            run + "u" + callers));
      }
      try {
        return rounds(contenders, rounds, effects, System.out);
      } finally {
        for (Contender contender : contenders) {
          contender.close();
        }
      }
    }
  }

  // ------------------------------------------------------------------------------------------------------------
  // Two JVMs on one PostgreSQL database

  private Map<String, Totals> twoJvms(int rounds, int effects, int callersPerJvm) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = System.getProperty("java.class.path");
    int perCaller = Math.max(2, effects / callersPerJvm);
    List<Process> children = new ArrayList<>();
    List<BufferedReader> outputs = new ArrayList<>();
    List<PrintStream> inputs = new ArrayList<>();
    for (int j = 0; j < 2; j++) {
      Process child = new ProcessBuilder(java, "-Xms256m", "-Xmx256m", "-cp", classpath,
          DurableEffects.class.getName(), "--child", pgUrl, Integer.toString(callersPerJvm),
          Integer.toString(perCaller), "j" + j).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      children.add(child);
      outputs.add(new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)));
      inputs.add(new PrintStream(child.getOutputStream(), true, StandardCharsets.UTF_8));
    }
    String zeo = "pg2jvm-zeocore-" + callersPerJvm;
    String raw = "pg2jvm-raw-" + callersPerJvm;
    Map<String, Totals> totals = new LinkedHashMap<>();
    totals.put(zeo, new Totals(zeo));
    totals.put(raw, new Totals(raw));
    try {
      for (BufferedReader output : outputs) {
        expect(output, "ready");
      }
      for (int r = -2; r < rounds; r++) {
        for (String which : (r % 2 == 0) ? List.of("zeocore", "raw") : List.of("raw", "zeocore")) {
          for (BufferedReader output : outputs) {
            expect(output, "prepared");
          }
          long wal0 = walPosition();
          for (PrintStream input : inputs) {
            input.println(which);
          }
          long wall = 0;
          long cpu = 0;
          long alloc = 0;
          List<Long> latencies = new ArrayList<>();
          int done = 0;
          for (BufferedReader output : outputs) {
            String[] parts = output.readLine().split(" ");
            done += Integer.parseInt(parts[0]);
            wall = Math.max(wall, Long.parseLong(parts[1]));
            cpu += Long.parseLong(parts[2]);
            alloc += Long.parseLong(parts[3]);
            for (int k = 4; k < parts.length; k++) {
              latencies.add(Long.parseLong(parts[k]));
            }
          }
          long wal = walPosition() - wal0;
          if (r >= 0) {
            totals.get(which.equals("raw") ? raw : zeo).add(new Batch(done, wall, cpu, alloc, 0, 0, wal,
                latencies.stream().mapToLong(Long::longValue).toArray()));
          }
        }
      }
      for (PrintStream input : inputs) {
        input.println("exit");
      }
    } finally {
      for (Process child : children) {
        child.waitFor(10, TimeUnit.SECONDS);
        child.destroy();
      }
    }
    for (Totals total : totals.values()) {
      System.out.println(total.json());
    }
    return totals;
  }

  private static void expect(BufferedReader output, String word) throws IOException {
    String line = output.readLine();
    if (!word.equals(line)) {
      throw new IllegalStateException("child said " + line + ", expected " + word);
    }
  }

  /** A child JVM: waits for "zeocore" or "raw" on stdin, runs one batch, answers with its numbers. */
  static final class Child {

    static void main(String[] args) throws Exception {
      String url = args[0];
      int callers = Integer.parseInt(args[1]);
      int perCaller = Integer.parseInt(args[2]);
      String prefix = args[3];
      BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
          StandardCharsets.UTF_8);
      System.setOut(new PrintStream(java.io.OutputStream.nullOutputStream()));
      Issuer issuer = new Issuer(prefix);
      Ed25519SignatureVerifier preferred = Ed25519SignatureVerifier.of(ISSUER, issuer.publicKey);
      try (HikariDataSource pool = pool(url, callers);
          JdbcConnectionStore store = JdbcConnectionStore.builder().dataSource(pool, Dialect.POSTGRESQL)
              .schema(ZEOCORE_SCHEMA).build()) {
        store.saveConnectorRevision(ORG, revision());
        store.saveConnection(ORG, connection(Instant.parse("2026-01-01T00:00:00Z")));
        Contender zeo = new ZeoCore("zeocore", callers, store, preferred, issuer, prefix);
        Contender raw = new PostgresRaw(prefix + "raw", callers, url);
        DurableEffects runner = new DurableEffects(null);
        out.println("ready");
        while (true) {
          // prepare both (untimed), then wait for the word
          zeo.prepare(perCaller);
          out.println("prepared");
          String command = commands.readLine();
          if (command == null || command.equals("exit")) {
            break;
          }
          Contender contender = command.equals("raw") ? raw : zeo;
          Batch batch = runner.runPrepared(contender, perCaller);
          StringBuilder line = new StringBuilder().append(batch.effects).append(' ').append(batch.wallNanos)
              .append(' ').append(batch.cpuNanos).append(' ').append(batch.allocatedBytes);
          for (long latency : batch.latencies) {
            line.append(' ').append(latency);
          }
          out.println(line);
        }
        raw.close();
      }
    }
  }

  /** {@link #run} without preparing again (the child prepared before it said so). */
  Batch runPrepared(Contender contender, int perCaller) throws Exception {
    Contender already = new Contender(contender.name, contender.callers) {
      @Override
      void effect(int caller, int index) throws Exception {
        contender.effect(caller, index);
      }
    };
    return run(already, perCaller);
  }

  // ------------------------------------------------------------------------------------------------------------
  // Fixtures

  private static double quantile(long[] sorted, double q) {
    return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }

  static ConnectorRevision revision() {
    BusinessOperation refund = new BusinessOperation(CREATE_REFUND, EffectKind.FINANCIAL,
        closedSchema("amount", "charge"), Map.of("type", "object"), "https://api.stripe.com", "POST", "/v1/refunds",
        List.of("api_key"), List.of("$.id"), IdempotencyMode.PROVIDER_NATIVE, "lookup_by_idempotency_key", null);
    return new ConnectorRevision(new ConnectorId("stripe"), REVISION, "stripe", "api_key", "GET /v1/account",
        "GET /v1/balance", "header:Authorization", "default", "1", List.of("https://api.stripe.com"),
        List.of("refunds:write"), List.of(refund), 65_536, 1_048_576, 30.0, false, RiskClass.HIGH, true,
        "by_idempotency_key", null, List.of("fixture-1"));
  }

  static Connection connection(Instant now) {
    return new Connection(CONNECTION, ORG, new ConnectorId("stripe"), REVISION, "default-app", "acct_123",
        List.of("folder-a"), List.of("refunds:write"), List.of(CREATE_REFUND),
        new SecretRef("zc0-kc:org-1:5b0c1b3e-8d7f-4b7e-9c1a-2f3e4d5c6b7a"), ConnectionStatus.ACTIVE,
        ConnectionHealth.HEALTHY, now.minusSeconds(60), now.minusSeconds(30), null);
  }

  private static Map<String, Object> closedSchema(String... propertyNames) {
    Map<String, Object> properties = new LinkedHashMap<>();
    for (String name : propertyNames) {
      properties.put(name, Map.of("type", "string"));
    }
    return BusinessOperation.closedRequestSchema(properties);
  }
}
