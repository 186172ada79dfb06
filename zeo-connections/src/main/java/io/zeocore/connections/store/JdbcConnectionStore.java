package io.zeocore.connections.store;

import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.ConfirmationEvidenceRef;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.ReadId;
import io.zeocore.connections.contract.ReadReceipt;
import io.zeocore.connections.contract.ReadRecord;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The ZeoCore store on JDBC: one implementation of {@link io.zeocore.connections.store.ConnectionStore},
 * {@link io.zeocore.connections.store.EffectStore}, {@link ReadStore} and {@link EffectRecoveryStore} for
 * SQLite and PostgreSQL ({@link Dialect}).
 *
 * <h2>Opening</h2>
 * <ul>
 *   <li>{@link #openSqlite(Path)}: the embedded default. ZeoCore creates and owns the file ({@link SqliteDatabase}) and
 *       its single writer connection; nothing is exposed as a {@link DataSource}. {@link #close()} closes it.
 *   <li>{@link #forDataSource(DataSource)}: an application-provided data source (SQLite or PostgreSQL, usually a pool).
 *       Each operation borrows a connection with {@link DataSource#getConnection()} and commits on its own, also when
 *       the caller is inside an application transaction. {@link #close()} leaves the data source open.
 *   <li>{@link #forJdbcUrl(String, String, String)}: a {@code jdbc:sqlite:<path>} URL opens the embedded file; a
 *       {@code jdbc:postgresql:} URL gets a bounded pool of the store's own (at most {@link Builder#poolSize} physical
 *       connections, 10 by default, opened with {@link java.sql.DriverManager} when first needed, reset and kept when
 *       returned, checked before reuse after half a second idle), which {@link #close()} closes. The schema is
 *       migrated through separate, unpooled connections.
 * </ul>
 * Every factory migrates the schema ({@link ZeoCoreSchema#migrate}) unless the {@link Builder} says otherwise. On
 * PostgreSQL the tables live in schema {@value Dialect#POSTGRESQL_SCHEMA} or the one given to
 * {@link Builder#schema(String)}.
 *
 * <h2>Transactions and invariants</h2>
 * Every write method is one transaction: {@code BEGIN IMMEDIATE} on SQLite, which serializes writers on the file;
 * {@code READ COMMITTED} on PostgreSQL, set per transaction whatever the pool's default, where many application
 * instances write at once. The schema enforces the append-only tables, the transition table, the first state, one-use
 * nonces, idempotency uniqueness and receipt provenance for any connection; this class adds the reference's
 * pre-checks and error phrases. The same code is correct on both dialects because every decision that a concurrent
 * writer could invalidate is taken by a constraint or a compare-and-set, never by an earlier read alone (a read only
 * chooses the error message, or, for {@link #saveConnectorRevision}, is repeated after a lost insert):
 * <ul>
 *   <li>A claim ({@link #claimEffect}, {@link #claimRead}) is decided by the unique (organization, nonce)
 *       key and the unique idempotency identity. On PostgreSQL a second process inserting the same key waits for the
 *       first transaction: if it commits, the second fails with SQLSTATE 23505, rolls back everything it wrote and
 *       returns the winner's effect ({@code claimed = false}); if it rolls back, the second proceeds. Exactly one
 *       claim commits, so exactly one dispatch happens.
 *   <li>Every state change is a compare-and-set ({@code UPDATE … WHERE state = <expected>}, row count checked). On
 *       PostgreSQL a concurrent update of the same row waits for the row lock, then re-evaluates its condition on the
 *       committed row and matches nothing; the loser gets "effect state changed concurrently" and writes nothing.
 *       So two processes can never both advance an effect. For {@link #commitOutcome} the expected state follows
 *       from the receipt: a receipt that resolves an ambiguity expects {@code AMBIGUOUS}; any other receipt with
 *       {@code dispatchStartedAt} expects {@code DISPATCH_STARTED}; a receipt without it expects a pre-dispatch state.
 *   <li>Why not {@code SERIALIZABLE} with retries: the two races above are already exact under {@code READ COMMITTED};
 *       a stricter level would only turn them into serialization failures (SQLSTATE 40001) that need a retry loop,
 *       and a retried claim must still end as "lost", so the retry would add latency and nothing else.
 * </ul>
 *
 * <h2>Reads</h2>
 * Every read is organization-scoped: another organization's record reads as absent. Connector revisions are immutable
 * and cached after the first read. {@link #findRecoveryCandidates}, {@link #effectCountsByState()} and
 * {@link #info()} are the only cross-organization reads (system sweeps and health).
 *
 * <h2>What is never stored</h2>
 * Request bodies (only their digests), provider bytes (only confirmation digests), dispatcher exception text and
 * {@code providerDetail} (a receipt carrying one is refused). The connection document holds the raw
 * {@link io.zeocore.connections.contract.SecretRef} handle, a locator, never secret material.
 *
 * <h2>Shape</h2>
 * This class is a facade: it opens the database and hands each call to the package-private class that owns the
 * aggregate's SQL text, row readers and transactions: {@link ConnectionRecords} (connections and connector
 * revisions), {@link EffectRecords} (effects, history, claims, refusals, outcomes, receipts and evidence),
 * {@link ReadRecords} (reads and their receipts), {@link NonceRecords} (authorization nonces, shared by
 * both claims) and {@link RecoveryQueries} (the cross-organization reads). Every SQLite/PostgreSQL difference is in
 * the dialect's strategy ({@link SqliteDialect}, {@link PostgresDialect}).
 *
 * <p>Instances are thread-safe. Failures are {@link ConnectionStoreException}s whose message names the rule or
 * conflict.
 */
public final class JdbcConnectionStore implements EffectRecoveryStore, ReadStore, StoreIntrospection,
    AutoCloseable {

  /** How many connections the store's own pool for a PostgreSQL URL keeps at most unless told otherwise. */
  public static final int DEFAULT_POOL_SIZE = 10;

  private final StoreDatabase database;
  private final Tables tables;
  private final @Nullable SqliteDatabase sqlite;
  private final ConnectionRecords connections;
  private final NonceRecords nonces;
  private final EffectRecords effects;
  private final ReadRecords reads;
  private final RecoveryQueries recovery;
  private final TargetHealthRows targetHealth;

  private JdbcConnectionStore(StoreDatabase database, Tables tables, @Nullable SqliteDatabase sqlite,
      Supplier<UUID> evidenceIds) {
    this.database = database;
    this.tables = tables;
    this.sqlite = sqlite;
    this.connections = new ConnectionRecords(database, tables);
    this.nonces = new NonceRecords(database, tables);
    this.effects = new EffectRecords(database, tables, nonces, connections, evidenceIds);
    this.reads = new ReadRecords(database, tables, nonces);
    this.recovery = new RecoveryQueries(database, tables, sqlite);
    this.targetHealth = new TargetHealthRows(database, tables);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Opening

  /**
   * Opens (creating if needed) the embedded SQLite store at {@code file} and migrates its schema. See
   * {@link SqliteDatabase} for the file modes and connection settings.
   */
  public static JdbcConnectionStore openSqlite(Path file) {
    return builder().sqliteFile(file).build();
  }

  /** A store on an application data source; the dialect is detected from the database, the schema migrated. */
  public static JdbcConnectionStore forDataSource(DataSource dataSource) {
    return builder().dataSource(dataSource).build();
  }

  /** A store on an application data source of a known dialect; the schema is migrated. */
  public static JdbcConnectionStore forDataSource(DataSource dataSource, Dialect dialect) {
    return builder().dataSource(dataSource, dialect).build();
  }

  /**
   * A store for a JDBC URL: {@code jdbc:sqlite:<file path>} opens the embedded file like {@link #openSqlite(Path)};
   * {@code jdbc:postgresql:...} connects with {@code user} and {@code password} (either may be {@code null}) through a
   * pool of the store's own of up to {@value #DEFAULT_POOL_SIZE} connections ({@link Builder#poolSize} sets another
   * size), with the tables in schema {@value Dialect#POSTGRESQL_SCHEMA}. {@link #close()} closes the pool. An
   * application that already has a pool for that database can pass it to {@link #forDataSource(DataSource)}
   * instead.
   */
  public static JdbcConnectionStore forJdbcUrl(String jdbcUrl, String user, String password) {
    return builder().jdbcUrl(jdbcUrl, user, password).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link JdbcConnectionStore}; exactly one of the three sources must be set. */
  public static final class Builder {

    private @Nullable Path sqliteFile;
    private @Nullable DataSource dataSource;
    private @Nullable Dialect dialect;
    private @Nullable String jdbcUrl;
    private @Nullable String user;
    private @Nullable String password;
    private @Nullable String schema;
    private @Nullable Integer poolSize;
    private Supplier<UUID> evidenceIds = UUID::randomUUID;
    private boolean migrate = true;
    private GroupCommitDatabase.Committer committer = SqlDialect::commit;

    private Builder() {}

    /** How the embedded SQLite file's batches commit; tests make a commit fail with it. */
    Builder committer(GroupCommitDatabase.Committer committer) {
      this.committer = Objects.requireNonNull(committer, "committer");
      return this;
    }

    /** The embedded SQLite file, created with mode 0600 (in 0700 directories) if missing. */
    public Builder sqliteFile(Path file) {
      this.sqliteFile = Objects.requireNonNull(file, "file");
      return this;
    }

    /** An application data source; the dialect is detected from its metadata. */
    public Builder dataSource(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      return this;
    }

    /** An application data source of a known dialect. */
    public Builder dataSource(DataSource dataSource, Dialect dialect) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      this.dialect = Objects.requireNonNull(dialect, "dialect");
      return this;
    }

    /**
     * A JDBC URL ({@code jdbc:sqlite:<path>} or {@code jdbc:postgresql:...}); user and password may be null. A
     * PostgreSQL URL gets a pool of the store's own ({@link #poolSize(int)}), closed with the store.
     */
    public Builder jdbcUrl(String jdbcUrl, @Nullable String user, @Nullable String password) {
      this.jdbcUrl = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
      this.user = user;
      this.password = password;
      return this;
    }

    /**
     * How many connections the pool of a {@code jdbc:postgresql:} {@link #jdbcUrl URL} keeps at most (default 10).
     * They are opened when first needed and kept open; a caller that finds them all in use waits up to 30 seconds
     * for one to be returned, then fails. Only for a PostgreSQL URL: {@link #build()} refuses it with any other
     * source (an application data source is the application's pool; SQLite has one writer connection).
     *
     * @throws IllegalArgumentException if {@code size} is below 1
     */
    public Builder poolSize(int size) {
      if (size < 1) {
        throw new IllegalArgumentException("poolSize must be at least 1, not " + size);
      }
      this.poolSize = size;
      return this;
    }

    /**
     * The PostgreSQL schema that holds ZeoCore's tables and its {@value ZeoCoreSchema#HISTORY_TABLE} (default
     * {@value Dialect#POSTGRESQL_SCHEMA}), created by the migration if missing. 1 to 63 lower-case letters, digits and
     * underscores, starting with a letter or underscore and not with {@code pg_}. Several applications (or test
     * suites) can share one database with one schema each. Not allowed on SQLite ({@link #build()} refuses it).
     */
    public Builder schema(String schema) {
      this.schema = Objects.requireNonNull(schema, "schema");
      return this;
    }

    /** The source of evidence ref UUIDs; must yield version-4 UUIDs. Default {@link UUID#randomUUID()}. */
    public Builder evidenceIds(Supplier<UUID> evidenceIds) {
      this.evidenceIds = Objects.requireNonNull(evidenceIds, "evidenceIds");
      return this;
    }

    /** Whether to migrate the schema when building (default {@code true}). */
    public Builder migrate(boolean migrate) {
      this.migrate = migrate;
      return this;
    }

    /**
     * Opens the store (and migrates the schema unless disabled).
     *
     * @throws IllegalStateException if not exactly one source is set, or opening or migrating fails
     * @throws IllegalArgumentException if the schema name is invalid or set for SQLite
     */
    public JdbcConnectionStore build() {
      int sources = (sqliteFile != null ? 1 : 0) + (dataSource != null ? 1 : 0) + (jdbcUrl != null ? 1 : 0);
      if (sources != 1) {
        throw new IllegalStateException("set exactly one of sqliteFile, dataSource and jdbcUrl");
      }
      Path file = sqliteFile;
      Dialect sourceDialect = dialect;
      if (jdbcUrl != null) {
        Dialect urlDialect = Dialect.fromJdbcUrl(jdbcUrl);
        if (SqlDialect.of(urlDialect).embedded()) {
          file = sqliteFileOf(jdbcUrl);
        } else {
          return openOnUrl(new UrlSessions(jdbcUrl, user, password), urlDialect);
        }
      }
      if (poolSize != null) {
        throw new IllegalStateException("poolSize applies to a jdbc:postgresql: url only: an application data source "
            + "is the application's pool, and SQLite has one writer connection");
      }
      if (file != null) {
        Tables sqliteTables = SqliteDialect.INSTANCE.tables(schema);
        SqliteDatabase sqlite = SqliteDatabase.open(file, committer);
        try {
          if (migrate) {
            ZeoCoreSchema.migrate(sqlite.database(), sqlite::migrationDataSource, sqliteTables);
          }
          return new JdbcConnectionStore(sqlite.database(), sqliteTables, sqlite, evidenceIds);
        } catch (RuntimeException e) {
          sqlite.close();
          throw e;
        }
      }
      DataSource source = Objects.requireNonNull(dataSource, "dataSource"); // the one source left
      if (sourceDialect == null) {
        try {
          sourceDialect = Dialect.detect(source);
        } catch (SQLException e) {
          throw new IllegalStateException("reaching the ZeoCore store's data source failed: " + e.getMessage(), e);
        }
      }
      Tables sourceTables = Tables.of(sourceDialect, schema);
      if (migrate) {
        ZeoCoreSchema.migrate(source, sourceDialect, sourceTables.schema());
      }
      return new JdbcConnectionStore(new DataSourceDatabase(source, sourceTables.sql()), sourceTables, null,
          evidenceIds);
    }

    /**
     * The store on a database of its own: migrated through connections of its own (so that the migration's session
     * settings never reach a pooled connection), then run on its pool.
     */
    private JdbcConnectionStore openOnUrl(UrlSessions connections, Dialect urlDialect) {
      Tables urlTables = Tables.of(urlDialect, schema);
      if (migrate) {
        ZeoCoreSchema.migrate(connections, urlDialect, urlTables.schema());
      }
      UrlSessionPool pool = new UrlSessionPool(connections,
          poolSize == null ? DEFAULT_POOL_SIZE : poolSize, UrlSessionPool.DEFAULT_MAX_WAIT,
          UrlSessionPool.DEFAULT_VALIDATE_AFTER_IDLE);
      return new JdbcConnectionStore(DataSourceDatabase.owning(pool, urlTables.sql()), urlTables, null, evidenceIds);
    }

    private static Path sqliteFileOf(String jdbcUrl) {
      String rest = jdbcUrl.substring("jdbc:sqlite:".length());
      if (rest.isEmpty() || rest.startsWith(":") || rest.startsWith("file:") || rest.indexOf('?') >= 0) {
        throw new IllegalArgumentException(
            "a jdbc:sqlite: url for ZeoCore's store must name a plain file path (no :memory:, file: or parameters)");
      }
      return Path.of(rest);
    }
  }

  /** The store's dialect. */
  public Dialect dialect() {
    return tables.dialect();
  }

  /** The PostgreSQL schema that holds the store's tables; empty on SQLite. */
  public Optional<String> schema() {
    return tables.schemaName();
  }

  /** How many writes wait for the embedded SQLite file's next group commit (for tests); 0 on a data source. */
  int queuedWrites() {
    return sqlite == null ? 0 : sqlite.queuedWrites();
  }

  /** The embedded SQLite file, when this store owns one. */
  public Optional<Path> databaseFile() {
    return sqlite == null ? Optional.empty() : Optional.of(sqlite.file());
  }

  /**
   * Closes the embedded SQLite database or the pool of a JDBC URL's database; a store on an application data source
   * leaves it open. Idempotent.
   */
  @Override
  public void close() {
    database.close();
  }

  @Override
  public String toString() {
    return "JdbcConnectionStore[" + tables.dialect() + (sqlite == null ? "" : ", " + sqlite.file())
        + (tables.schema() == null ? "" : ", schema " + tables.schema()) + "]";
  }

  // Health and metrics (cross-organization, read-only)

  /**
   * Reachability, schema version (read from {@value ZeoCoreSchema#HISTORY_TABLE} in the store's schema) and, for the
   * embedded SQLite file, file modes. Never throws for an unreachable database.
   */
  @Override
  public StoreInfo info() {
    return recovery.info();
  }

  /**
   * How many effects are in each state, across organizations; every state is present (zero when none).
   *
   * @throws ConnectionStoreException if the database cannot be read
   */
  @Override
  public Map<EffectState, Long> effectCountsByState() {
    return recovery.effectCountsByState();
  }

  /** The pool of a PostgreSQL URL's database, which the store owns; empty on an embedded file or a data source. */
  @Override
  public Optional<SessionPoolStats> sessionPool() {
    return database.ownPool();
  }

  /**
   * Target cooldowns and probe leases in this store (schema version 9), for
   * {@link io.zeocore.execution.TargetHealth.Builder#store}: every process and machine whose runners use a view on
   * this store's file or database shares its cooldowns, timed by the database's clock. Each call is one short
   * transaction; on SQLite the writes queue with the store's other writes. Valid until this store is closed.
   */
  public io.zeocore.execution.TargetHealthStore targetHealth() {
    return targetHealth;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Connections and connector revisions

  @Override
  public void saveConnection(OrganizationId organizationId, Connection connection) {
    connections.saveConnection(organizationId, connection);
  }

  @Override
  public Optional<Connection> getConnection(OrganizationId organizationId, ConnectionId connectionId) {
    return connections.getConnection(organizationId, connectionId);
  }

  @Override
  public void saveConnectorRevision(OrganizationId organizationId, ConnectorRevision revision) {
    connections.saveConnectorRevision(organizationId, revision);
  }

  @Override
  public Optional<ConnectorRevision> getConnectorRevision(OrganizationId organizationId,
      ConnectorRevisionId revisionId) {
    return connections.getConnectorRevision(organizationId, revisionId);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Effects

  @Override
  public void saveEffect(OrganizationId organizationId, EffectRecord effect) {
    effects.save(organizationId, effect);
  }

  @Override
  public Optional<EffectRecord> getEffect(OrganizationId organizationId, EffectId effectId) {
    return effects.get(organizationId, effectId);
  }

  @Override
  public Optional<EffectRecord> getEffectByIdempotency(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, IdempotencyKey idempotencyKey) {
    return effects.getByIdempotency(organizationId, connectionId, connectorRevision, operationId,
        idempotencyKey);
  }

  @Override
  public EffectClaim claimEffect(OrganizationId organizationId, String nonce, List<EffectRecord> snapshots) {
    return effects.claim(organizationId, nonce, snapshots);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Here the connection is read inside the claim's own transaction: on SQLite in the writer's transaction (no
   * other write can come between the read and the commit), on PostgreSQL by {@code zeocore_claim} in the statement
   * that claims (schema version 10: the committed row when the statement starts, compared with the document
   * {@code checked} was parsed from). No separate round trip.
   */
  @Override
  public EffectClaim claimEffect(OrganizationId organizationId, String nonce, List<EffectRecord> snapshots,
      Connection checked) {
    Objects.requireNonNull(checked, "checked");
    return effects.claim(organizationId, nonce, snapshots, checked);
  }

  @Override
  public List<EffectRecord> getEffectHistory(OrganizationId organizationId, EffectId effectId) {
    return effects.history(organizationId, effectId);
  }

  @Override
  public void recordRefusal(OrganizationId organizationId, List<EffectRecord> snapshots, EffectReceipt receipt) {
    effects.recordRefusal(organizationId, snapshots, receipt);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Receipts and evidence

  @Override
  public void saveReceipt(OrganizationId organizationId, EffectReceipt receipt) {
    effects.saveReceipt(organizationId, receipt);
  }

  @Override
  public List<EffectReceipt> getReceiptsForEffect(OrganizationId organizationId, EffectId effectId) {
    return effects.receipts(organizationId, effectId);
  }

  @Override
  public void saveEvidenceReference(OrganizationId organizationId, EffectId effectId,
      ConfirmationEvidenceRef evidenceRef) {
    effects.saveEvidenceReference(organizationId, effectId, evidenceRef);
  }

  @Override
  public List<ConfirmationEvidenceRef> getEvidenceReferencesForEffect(OrganizationId organizationId,
      EffectId effectId) {
    return effects.evidenceReferences(organizationId, effectId);
  }

  @Override
  public ConfirmationEvidence newConfirmationEvidence(OrganizationId organizationId, EffectId effectId,
      Instant observedAt, String confirmationDigest) {
    return effects.newConfirmationEvidence(organizationId, effectId, observedAt, confirmationDigest);
  }

  @Override
  public ConfirmationEvidence saveConfirmationEvidence(OrganizationId organizationId, EffectId effectId,
      Instant observedAt, String confirmationDigest) {
    return effects.saveConfirmationEvidence(organizationId, effectId, observedAt, confirmationDigest);
  }

  @Override
  public Optional<ConfirmationEvidence> getConfirmationEvidence(OrganizationId organizationId,
      ConfirmationEvidenceRef evidenceRef) {
    return effects.confirmationEvidence(organizationId, evidenceRef);
  }

  @Override
  public void commitOutcome(OrganizationId organizationId, EffectRecord effect, EffectReceipt receipt,
      @Nullable ConfirmationEvidence evidence) {
    effects.commitOutcome(organizationId, effect, receipt, evidence);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Nonces

  @Override
  public boolean hasAuthorizationNonce(OrganizationId organizationId, String nonce) {
    return nonces.exists(organizationId, nonce);
  }

  @Override
  public void recordAuthorizationNonce(OrganizationId organizationId, String nonce, Instant recordedAt) {
    nonces.record(organizationId, nonce, recordedAt);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Reads

  @Override
  public Optional<ReadRecord> getRead(OrganizationId organizationId, ReadId readId) {
    return reads.get(organizationId, readId);
  }

  @Override
  public Optional<ReadRecord> getReadByIdempotency(OrganizationId organizationId,
      ConnectionId connectionId, ConnectorRevisionId connectorRevision, OperationId operationId,
      IdempotencyKey idempotencyKey) {
    return reads.getByIdempotency(organizationId, connectionId, connectorRevision, operationId,
        idempotencyKey);
  }

  @Override
  public ReadClaim claimRead(OrganizationId organizationId, ReadRecord read,
      String nonce) {
    return reads.claim(organizationId, read, nonce);
  }

  @Override
  public void commitRead(OrganizationId organizationId, ReadRecord read,
      ReadReceipt receipt) {
    reads.commit(organizationId, read, receipt);
  }

  @Override
  public Optional<ReadReceipt> getReadReceipt(OrganizationId organizationId,
      ReadId readId) {
    return reads.receipt(organizationId, readId);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Recovery (cross-organization)

  @Override
  public List<RecoveryCandidate> findRecoveryCandidates(Duration dispatchStaleAfter, int limit) {
    return recovery.findCandidates(dispatchStaleAfter, limit);
  }

  @Override
  public boolean claimRecoveryLease(OrganizationId organizationId, EffectId effectId, String holder,
      Duration lease) {
    Objects.requireNonNull(organizationId, "organizationId");
    Objects.requireNonNull(effectId, "effectId");
    if (holder == null || holder.isBlank()) {
      throw new IllegalArgumentException("holder is required");
    }
    if (lease == null || lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("lease must be positive");
    }
    return recovery.claimLease(organizationId.value(), effectId.value(), holder, lease);
  }

  @Override
  public void releaseRecoveryLease(OrganizationId organizationId, EffectId effectId, String holder) {
    recovery.releaseLease(organizationId.value(), effectId.value(), holder);
  }
}
