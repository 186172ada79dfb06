package io.zeocore.benchmarks;

import io.zeocore.connections.authorization.Ed25519SignatureVerifier;
import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.contract.AuthorizationCanonicalForm;
import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.ConfirmationEvidenceRef;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectDispatcher;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.X509EncodedKeySpec;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import static io.zeocore.benchmarks.DurableEffects.*;

/** The contenders of {@link DurableEffects}: how one kind of effect is run (ZeoCore end to end, raw JDBC, the floors of ZeoCore's data model), with the authorizations they are given signed outside the clock. */
final class EffectContenders {

  private EffectContenders() {}

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


  /** Raw JDBC on PostgreSQL: each caller owns one connection and its prepared statements. */
  static final class PostgresRaw extends Contender {

    private final List<java.sql.Connection> connections = new ArrayList<>();
    private final List<RawStatements> statements = new ArrayList<>();
    private final Ed25519SignatureVerifier verifier;
    private final EffectAuthorization signed;

    /** With a {@code verifier}: one check of {@code signed}'s signature per effect ("raw + verify"). */
    PostgresRaw(String name, int callers, String url, Ed25519SignatureVerifier verifier, EffectAuthorization signed)
        throws SQLException {
      super(name, callers);
      this.verifier = verifier;
      this.signed = signed;
      for (int c = 0; c < callers; c++) {
        java.sql.Connection connection = DriverManager.getConnection(url, "postgres", null);
        connection.setAutoCommit(false);
        connections.add(connection);
        statements.add(new RawStatements(connection, RAW_SCHEMA + ".", name + "-" + c));
      }
    }

    @Override
    void effect(int caller, int index) throws SQLException {
      if (verifier != null && !verifier.verifySignature(signed)) {
        throw new IllegalStateException("the signature did not verify");
      }
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
   * no read, one BouncyCastle Ed25519 check (as ZeoCore's): what no implementation of this data model can beat on
   * this server.
   */
  static final class PostgresRows extends Contender {

    private final List<java.sql.Connection> connections = new ArrayList<>();
    private final List<PreparedStatement> claims = new ArrayList<>();
    private final List<PreparedStatement> outcomes = new ArrayList<>();
    private final String prefix = "rows-" + Long.toString(System.nanoTime(), 36) + "-";
    private final AtomicLong next = new AtomicLong();
    private final Ed25519SignatureVerifier verifier;
    private final EffectAuthorization signed;

    /** Each effect also checks {@code signed}'s signature once with {@code verifier}, as ZeoCore does. */
    PostgresRows(String name, int callers, String url, Ed25519SignatureVerifier verifier, EffectAuthorization signed)
        throws SQLException {
      super(name, callers);
      this.verifier = verifier;
      this.signed = signed;
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
      if (!verifier.verifySignature(signed)) {
        throw new IllegalStateException("the signature did not verify");
      }
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
}
