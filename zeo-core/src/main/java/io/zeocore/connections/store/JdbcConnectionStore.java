package io.zeocore.connections.store;

import io.zeocore.connections.contract.ConfirmationEvidence;
import io.zeocore.connections.contract.ConfirmationEvidenceRef;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.ContractJson;
import io.zeocore.connections.contract.EffectExecution;
import io.zeocore.connections.contract.ExecutionId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.ObservationArtifact;
import io.zeocore.connections.contract.ObservationArtifactRef;
import io.zeocore.connections.contract.ObservationId;
import io.zeocore.connections.contract.ObservationReceipt;
import io.zeocore.connections.contract.ObservationRecord;
import io.zeocore.connections.contract.ObservationState;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.AuthorizationId;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.core.JacksonException;

/**
 * The ZeoCore store on JDBC: one implementation of {@link io.zeocore.connections.store.ConnectionStore},
 * {@link io.zeocore.connections.store.EffectStore}, {@link ObservationStore} and {@link EffectRecoveryStore} for
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
 *       {@code jdbc:postgresql:} URL gets a plain {@link java.sql.DriverManager}-based data source that opens a new
 *       physical connection for every operation and closes it afterwards (no pool: fine for tools, tests and low
 *       rates; in an application pass its pooled data source, for example Spring Boot's HikariCP, to
 *       {@link #forDataSource(DataSource)}).
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
 *   <li>A claim ({@link #claimExecution}, {@link #claimObservation}) is decided by the unique (organization, nonce)
 *       key and the unique idempotency identity. On PostgreSQL a second process inserting the same key waits for the
 *       first transaction: if it commits, the second fails with SQLSTATE 23505, rolls back everything it wrote and
 *       returns the winner's execution ({@code claimed = false}); if it rolls back, the second proceeds. Exactly one
 *       claim commits, so exactly one dispatch happens.
 *   <li>Every state change is a compare-and-set ({@code UPDATE … WHERE state = <expected>}, row count checked). On
 *       PostgreSQL a concurrent update of the same row waits for the row lock, then re-evaluates its condition on the
 *       committed row and matches nothing; the loser gets "execution state changed concurrently" and writes nothing.
 *       So two processes can never both advance an execution. For {@link #commitOutcome} the expected state follows
 *       from the receipt: a receipt that resolves an ambiguity expects {@code AMBIGUOUS}; any other receipt with
 *       {@code dispatchStartedAt} expects {@code DISPATCH_STARTED}; a receipt without it expects a pre-dispatch state.
 *   <li>Why not {@code SERIALIZABLE} with retries: the two races above are already exact under {@code READ COMMITTED};
 *       a stricter level would only turn them into serialization failures (SQLSTATE 40001) that need a retry loop,
 *       and a retried claim must still end as "lost", so the retry would add latency and nothing else.
 * </ul>
 *
 * <h2>Reads</h2>
 * Every read is organization-scoped: another organization's record reads as absent. Connector revisions are immutable
 * and cached after the first read (at most 1024, least recently used evicted). A connection row is read on every call
 * (it can change), but its document is parsed again only when its stored text differs from the last parse cached for
 * that connection (at most 1024). {@link #findRecoveryCandidates}, {@link #executionCountsByState()} and
 * {@link #info()} are the only cross-organization reads (system sweeps and health).
 *
 * <h2>What is never stored</h2>
 * Request bodies (only their digests), provider bytes (only confirmation digests), dispatcher exception text and
 * {@code providerDetail} (a receipt carrying one is refused). The connection document holds the raw
 * {@link io.zeocore.connections.contract.SecretRef} handle, a locator, never secret material.
 *
 * <p>Instances are thread-safe. Failures are {@link ConnectionStoreException}s whose message names the rule or
 * conflict.
 */
public final class JdbcConnectionStore implements EffectRecoveryStore, ObservationStore, StoreIntrospection,
    AutoCloseable {

  private static final String EXECUTION_COLUMNS = "organization_id, execution_id, connection_id, connector_revision,"
      + " operation_id, authorization_id, idempotency_key, authorization_digest, request_digest, state, created_at,"
      + " updated_at, completed_at";
  private static final String OBSERVATION_COLUMNS = "organization_id, observation_id, connection_id,"
      + " connector_revision, operation_id, authorization_id, idempotency_key, authorization_digest, request_digest,"
      + " state, created_at, completed_at";
  private static final String RECEIPT_COLUMNS = "organization_id, execution_id, connection_id, final_state,"
      + " error_code, error_message, recorded_at, dispatch_started_at, resolved_at, confirmation_evidence_ref,"
      + " reconciliation_evidence, resolves_ambiguous_recorded_at, reconciliation_attempt_evidence";
  private static final String OBSERVATION_RECEIPT_COLUMNS = "organization_id, observation_id, connection_id,"
      + " final_state, request_digest, result_digest, inline_result, artifact_ref, artifact_content_sha256,"
      + " artifact_size_bytes, artifact_media_type, error_code, error_message, recorded_at";
  private static final String PRE_DISPATCH_STATES = "('CREATED', 'AUTHORIZATION_VERIFIED', 'PREPARED')";
  private static final int REVISION_CACHE_LIMIT = 1024;
  private static final int CONNECTION_CACHE_LIMIT = 1024;

  private final StoreDatabase database;
  private final Dialect dialect;
  private final Tables tables;
  private final SqliteDatabase sqlite;
  private final Supplier<UUID> evidenceIds;
  private final ParsedDocuments<ConnectorRevision> revisions = new ParsedDocuments<>(REVISION_CACHE_LIMIT);
  private final ParsedDocuments<Connection> connections = new ParsedDocuments<>(CONNECTION_CACHE_LIMIT);

  private final String upsertConnection;
  private final String selectConnection;
  private final String selectRevision;
  private final String insertRevision;
  private final String insertExecution;
  private final String advanceExecution;
  private final String advanceWithIdentity;
  private final String advanceFromPreDispatch;
  private final String selectExecution;
  private final String selectExecutionByIdentity;
  private final String selectHistory;
  private final String insertReceipt;
  private final String selectReceipts;
  private final String insertEvidenceReference;
  private final String selectEvidenceReferences;
  private final String insertConfirmationEvidence;
  private final String selectConfirmationEvidence;
  private final String insertNonce;
  private final String selectNonce;
  private final String insertObservation;
  private final String selectObservation;
  private final String selectObservationByIdentity;
  private final String completeObservation;
  private final String insertObservationReceipt;
  private final String selectObservationReceipt;
  private final String selectStaleDispatches;
  private final String selectAmbiguous;
  private final String countByState;

  private JdbcConnectionStore(StoreDatabase database, Tables tables, SqliteDatabase sqlite,
      Supplier<UUID> evidenceIds) {
    this.database = database;
    this.dialect = database.dialect();
    this.tables = tables;
    this.sqlite = sqlite;
    this.evidenceIds = evidenceIds;
    String connections = tables.qualify("connections");
    String connectorRevisions = tables.qualify("connector_revisions");
    String executions = tables.qualify("executions");
    String history = tables.qualify("execution_history");
    String receipts = tables.qualify("receipts");
    String evidenceReferences = tables.qualify("evidence_references");
    String confirmationEvidence = tables.qualify("confirmation_evidence");
    String nonces = tables.qualify("authorization_nonces");
    String observations = tables.qualify("observations");
    String observationReceipts = tables.qualify("observation_receipts");

    upsertConnection = "INSERT INTO " + connections + " (organization_id, connection_id, document) VALUES (?, ?, ?)"
        + " ON CONFLICT (organization_id, connection_id) DO UPDATE SET document = excluded.document";
    selectConnection = "SELECT document FROM " + connections + " WHERE organization_id = ? AND connection_id = ?";
    selectRevision = "SELECT document FROM " + connectorRevisions + " WHERE organization_id = ? AND revision_id = ?";
    insertRevision = "INSERT INTO " + connectorRevisions + " (organization_id, revision_id, document)"
        + " VALUES (?, ?, ?)";
    insertExecution = "INSERT INTO " + executions + " (organization_id, execution_id, connection_id,"
        + " connector_revision, operation_id, authorization_id, idempotency_key, authorization_digest,"
        + " request_digest, holds_identity, state, created_at, updated_at, completed_at)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    advanceExecution = "UPDATE " + executions + " SET state = ?, updated_at = ?, completed_at = ?"
        + " WHERE organization_id = ? AND execution_id = ? AND state = ?";
    String identity = " AND connection_id = ? AND connector_revision = ? AND operation_id = ?"
        + " AND authorization_id = ? AND idempotency_key = ? AND authorization_digest = ? AND request_digest = ?"
        + " AND created_at = ?";
    advanceWithIdentity = advanceExecution + identity;
    advanceFromPreDispatch = "UPDATE " + executions + " SET state = ?, updated_at = ?, completed_at = ?"
        + " WHERE organization_id = ? AND execution_id = ? AND state IN " + PRE_DISPATCH_STATES + identity;
    selectExecution = "SELECT " + EXECUTION_COLUMNS + " FROM " + executions
        + " WHERE organization_id = ? AND execution_id = ?";
    selectExecutionByIdentity = "SELECT " + EXECUTION_COLUMNS + " FROM " + executions
        + " WHERE organization_id = ? AND connection_id = ? AND connector_revision = ? AND operation_id = ?"
        + " AND idempotency_key = ? AND holds_identity = 1";
    selectHistory = "SELECT e.organization_id AS organization_id, e.execution_id AS execution_id,"
        + " e.connection_id AS connection_id, e.connector_revision AS connector_revision,"
        + " e.operation_id AS operation_id, e.authorization_id AS authorization_id,"
        + " e.idempotency_key AS idempotency_key, e.authorization_digest AS authorization_digest,"
        + " e.request_digest AS request_digest, h.state AS state, e.created_at AS created_at,"
        + " h.recorded_at AS updated_at, h.completed_at AS completed_at"
        + " FROM " + history + " h JOIN " + executions + " e"
        + " ON e.organization_id = h.organization_id AND e.execution_id = h.execution_id"
        + " WHERE h.organization_id = ? AND h.execution_id = ? ORDER BY h.sequence";
    insertReceipt = "INSERT INTO " + receipts + " (" + RECEIPT_COLUMNS + ")"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    selectReceipts = "SELECT " + RECEIPT_COLUMNS + " FROM " + receipts
        + " WHERE organization_id = ? AND execution_id = ? ORDER BY sequence";
    insertEvidenceReference = "INSERT INTO " + evidenceReferences + " (organization_id, execution_id, evidence_ref)"
        + " VALUES (?, ?, ?)";
    selectEvidenceReferences = "SELECT evidence_ref FROM " + evidenceReferences
        + " WHERE organization_id = ? AND execution_id = ? ORDER BY sequence";
    insertConfirmationEvidence = "INSERT INTO " + confirmationEvidence + " (organization_id, execution_id,"
        + " evidence_ref, observed_at, confirmation_digest) VALUES (?, ?, ?, ?, ?)";
    selectConfirmationEvidence = "SELECT organization_id, execution_id, evidence_ref, observed_at,"
        + " confirmation_digest FROM " + confirmationEvidence + " WHERE organization_id = ? AND evidence_ref = ?";
    insertNonce = "INSERT INTO " + nonces + " (organization_id, nonce, recorded_at) VALUES (?, ?, ?)";
    selectNonce = "SELECT 1 FROM " + nonces + " WHERE organization_id = ? AND nonce = ?";
    insertObservation = "INSERT INTO " + observations + " (" + OBSERVATION_COLUMNS + ")"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    selectObservation = "SELECT " + OBSERVATION_COLUMNS + " FROM " + observations
        + " WHERE organization_id = ? AND observation_id = ?";
    selectObservationByIdentity = "SELECT " + OBSERVATION_COLUMNS + " FROM " + observations
        + " WHERE organization_id = ? AND connection_id = ? AND connector_revision = ? AND operation_id = ?"
        + " AND idempotency_key = ?";
    completeObservation = "UPDATE " + observations + " SET state = ?, completed_at = ?"
        + " WHERE organization_id = ? AND observation_id = ? AND state = 'CLAIMED'"
        + " AND connection_id = ? AND connector_revision = ? AND operation_id = ? AND authorization_id = ?"
        + " AND idempotency_key = ? AND authorization_digest = ? AND request_digest = ? AND created_at = ?";
    insertObservationReceipt = "INSERT INTO " + observationReceipts + " (" + OBSERVATION_RECEIPT_COLUMNS + ")"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    selectObservationReceipt = "SELECT " + OBSERVATION_RECEIPT_COLUMNS + " FROM " + observationReceipts
        + " WHERE organization_id = ? AND observation_id = ?";
    String attempts = "(SELECT count(*) FROM " + receipts + " r WHERE r.organization_id = e.organization_id"
        + " AND r.execution_id = e.execution_id AND r.reconciliation_attempt_evidence IS NOT NULL)";
    String lastReceipt = "(SELECT max(r.recorded_at) FROM " + receipts + " r"
        + " WHERE r.organization_id = e.organization_id AND r.execution_id = e.execution_id)";
    String candidateColumns = "SELECT e.organization_id AS organization_id, e.execution_id AS execution_id,"
        + " e.connection_id AS connection_id, e.connector_revision AS connector_revision,"
        + " e.operation_id AS operation_id, e.authorization_id AS authorization_id,"
        + " e.idempotency_key AS idempotency_key, e.authorization_digest AS authorization_digest,"
        + " e.request_digest AS request_digest, e.state AS state, e.created_at AS created_at,"
        + " e.updated_at AS updated_at, e.completed_at AS completed_at, " + attempts + " AS attempts, "
        + lastReceipt + " AS last_receipt_at FROM " + executions + " e";
    selectStaleDispatches = candidateColumns + " WHERE e.state = 'DISPATCH_STARTED' AND e.updated_at < ?"
        + " ORDER BY e.updated_at LIMIT ?";
    selectAmbiguous = candidateColumns + " WHERE e.state = 'AMBIGUOUS'"
        + " ORDER BY last_receipt_at NULLS FIRST, e.updated_at LIMIT ?";
    countByState = "SELECT state, count(*) AS executions FROM " + executions + " GROUP BY state";
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
   * {@link java.sql.DriverManager}-based data source without a pool, one physical connection per operation, with the
   * tables in schema {@value Dialect#POSTGRESQL_SCHEMA}. Applications should pass their pool to
   * {@link #forDataSource(DataSource)} instead.
   */
  public static JdbcConnectionStore forJdbcUrl(String jdbcUrl, String user, String password) {
    return builder().jdbcUrl(jdbcUrl, user, password).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link JdbcConnectionStore}; exactly one of the three sources must be set. */
  public static final class Builder {

    private Path sqliteFile;
    private DataSource dataSource;
    private Dialect dialect;
    private String jdbcUrl;
    private String user;
    private String password;
    private String schema;
    private Supplier<UUID> evidenceIds = UUID::randomUUID;
    private boolean migrate = true;

    private Builder() {}

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

    /** A JDBC URL ({@code jdbc:sqlite:<path>} or {@code jdbc:postgresql:...}); user and password may be null. */
    public Builder jdbcUrl(String jdbcUrl, String user, String password) {
      this.jdbcUrl = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
      this.user = user;
      this.password = password;
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
      DataSource source = dataSource;
      Dialect sourceDialect = dialect;
      if (jdbcUrl != null) {
        Dialect urlDialect = Dialect.fromJdbcUrl(jdbcUrl);
        if (urlDialect == Dialect.SQLITE) {
          file = sqliteFileOf(jdbcUrl);
        } else {
          DriverManagerDataSource driverManager = new DriverManagerDataSource(jdbcUrl);
          driverManager.setUsername(user);
          driverManager.setPassword(password);
          source = driverManager;
          sourceDialect = urlDialect;
        }
      }
      if (file != null) {
        Tables sqliteTables = Tables.of(Dialect.SQLITE, schema);
        SqliteDatabase sqlite = SqliteDatabase.open(file);
        try {
          if (migrate) {
            ZeoCoreSchema.migrate(sqlite.migrationDataSource(), Dialect.SQLITE);
          }
          return new JdbcConnectionStore(sqlite.database(), sqliteTables, sqlite, evidenceIds);
        } catch (RuntimeException e) {
          sqlite.close();
          throw e;
        }
      }
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
      return new JdbcConnectionStore(new DataSourceDatabase(source, sourceDialect), sourceTables, null, evidenceIds);
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
    return dialect;
  }

  /** The PostgreSQL schema that holds the store's tables; empty on SQLite. */
  public Optional<String> schema() {
    return tables.schemaName();
  }

  /** The embedded SQLite file, when this store owns one. */
  public Optional<Path> databaseFile() {
    return sqlite == null ? Optional.empty() : Optional.of(sqlite.file());
  }

  /** Closes the embedded SQLite database; a store on an application data source leaves it open. Idempotent. */
  @Override
  public void close() {
    database.close();
  }

  @Override
  public String toString() {
    return "JdbcConnectionStore[" + dialect + (sqlite == null ? "" : ", " + sqlite.file())
        + (tables.schema() == null ? "" : ", schema " + tables.schema()) + "]";
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Health and metrics (cross-organization, read-only)

  /**
   * Reachability, schema version (read from {@value ZeoCoreSchema#HISTORY_TABLE} in the store's schema) and, for the
   * embedded SQLite file, file modes. Never throws for an unreachable database.
   */
  @Override
  public StoreInfo info() {
    Path file = sqlite == null ? null : sqlite.file();
    Map<String, String> modes = Map.of();
    try {
      if (sqlite != null) {
        modes = sqlite.fileModes();
      }
      Optional<String> version = database.read(ZeoCoreSchema.appliedVersion(tables));
      return new StoreInfo(dialect, tables.schema(), true, version.orElse(null), file, modes, null);
    } catch (SQLException | RuntimeException e) {
      String failure = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
      return new StoreInfo(dialect, tables.schema(), false, null, file, modes, failure);
    }
  }

  /**
   * How many executions are in each state, across organizations; every state is present (zero when none).
   *
   * @throws ConnectionStoreException if the database cannot be read
   */
  @Override
  public Map<EffectState, Long> executionCountsByState() {
    Map<EffectState, Long> counts = new EnumMap<>(EffectState.class);
    for (EffectState state : EffectState.values()) {
      counts.put(state, 0L);
    }
    read("counting executions failed", s -> s.list(countByState, row -> {
      counts.put(EffectState.valueOf(row.getString("state")), row.getLong("executions"));
      return null;
    }));
    return Collections.unmodifiableMap(counts);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Connections and connector revisions

  @Override
  public void saveConnection(OrganizationId organizationId, Connection connection) {
    requireScope(organizationId, connection.organizationId(), "connection");
    String document = document(connection, "connection");
    write("saving the connection failed", s -> s.update(upsertConnection, organizationId.value(),
        connection.connectionId().value(), document));
  }

  @Override
  public Optional<Connection> getConnection(OrganizationId organizationId, ConnectionId connectionId) {
    String document = read("reading the connection failed",
        s -> s.first(selectConnection, row -> row.getString(1), organizationId.value(), connectionId.value()));
    if (document == null) {
      return Optional.empty();
    }
    return Optional.of(connections.parse(organizationId.value() + '\u0000' + connectionId.value(), document,
        text -> parse(text, Connection.class, "connection")));
  }

  @Override
  public void saveConnectorRevision(OrganizationId organizationId, ConnectorRevision revision) {
    Objects.requireNonNull(organizationId, "organizationId");
    String document = document(revision, "connector revision");
    SqlWork<Integer> save = s -> {
      String stored = s.first(selectRevision, row -> row.getString(1), organizationId.value(),
          revision.revisionId().value());
      if (stored == null) {
        return s.update(insertRevision, organizationId.value(), revision.revisionId().value(), document);
      }
      if (!parse(stored, ConnectorRevision.class, "connector revision").equals(revision)) {
        throw new ConnectionStoreException("connector revision is immutable");
      }
      return 0;
    };
    try {
      database.write(save);
    } catch (SQLException e) {
      if (!StoreFailures.isConflict(e)) {
        throw StoreFailures.translate(e, "saving the connector revision failed");
      }
      // another process inserted it between our read and our insert (PostgreSQL, READ COMMITTED): compare with it
      write("saving the connector revision failed", save);
    }
  }

  @Override
  public Optional<ConnectorRevision> getConnectorRevision(OrganizationId organizationId,
      ConnectorRevisionId revisionId) {
    String key = organizationId.value() + '\u0000' + revisionId.value();
    ConnectorRevision cached = revisions.cached(key); // immutable once stored: no read needed
    if (cached != null) {
      return Optional.of(cached);
    }
    String document = read("reading the connector revision failed",
        s -> s.first(selectRevision, row -> row.getString(1), organizationId.value(), revisionId.value()));
    if (document == null) {
      return Optional.empty();
    }
    return Optional.of(revisions.parse(key, document,
        text -> parse(text, ConnectorRevision.class, "connector revision")));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Executions

  @Override
  public void saveExecution(OrganizationId organizationId, EffectExecution execution) {
    requireScope(organizationId, execution.organizationId(), "execution");
    write("saving the execution failed", s -> {
      EffectExecution stored = s.first(selectExecution, JdbcConnectionStore::readExecution, organizationId.value(),
          execution.executionId().value());
      if (stored == null) {
        if (execution.state() != EffectState.CREATED) {
          throw new ConnectionStoreException("first persisted state must be CREATED");
        }
        insertExecution(s, execution, true);
        return null;
      }
      if (!stored.hasSameIdentityAs(execution)) {
        throw new ConnectionStoreException("execution identity is immutable");
      }
      if (!stored.state().canTransitionTo(execution.state())) {
        throw new ConnectionStoreException("transition is not allowed");
      }
      if (execution.updatedAt().isBefore(stored.updatedAt())) {
        throw new ConnectionStoreException("updated_at must be monotonic");
      }
      requireAdvanced(s.update(advanceExecution, execution.state().name(), Micros.of(execution.updatedAt()),
          Micros.ofNullable(execution.completedAt()), organizationId.value(), execution.executionId().value(),
          stored.state().name()));
      return null;
    });
  }

  @Override
  public Optional<EffectExecution> getExecution(OrganizationId organizationId, ExecutionId executionId) {
    return Optional.ofNullable(read("reading the execution failed", s -> s.first(selectExecution,
        JdbcConnectionStore::readExecution, organizationId.value(), executionId.value())));
  }

  @Override
  public Optional<EffectExecution> getExecutionByIdempotency(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, IdempotencyKey idempotencyKey) {
    return Optional.ofNullable(read("reading the execution failed", s -> s.first(selectExecutionByIdentity,
        JdbcConnectionStore::readExecution, organizationId.value(), connectionId.value(), connectorRevision.value(),
        operationId.value(), idempotencyKey.value())));
  }

  @Override
  public EffectClaim claimExecution(OrganizationId organizationId, String nonce, List<EffectExecution> snapshots) {
    if (nonce == null || nonce.isEmpty()) {
      throw new ConnectionStoreException("authorization nonce is required");
    }
    requireSnapshotChain(organizationId, snapshots, "claimed execution must start at CREATED");
    EffectExecution first = snapshots.get(0);
    EffectExecution last = snapshots.get(snapshots.size() - 1);
    try {
      database.write(s -> {
        s.update(insertNonce, organizationId.value(), nonce, Micros.of(first.createdAt()));
        insertExecution(s, first, true);
        advanceChain(s, snapshots);
        return null;
      });
      return new EffectClaim(last, true);
    } catch (SQLException e) {
      if (!StoreFailures.isConflict(e)) {
        throw StoreFailures.translate(e, "claiming the execution failed");
      }
      Optional<EffectExecution> existing = getExecutionByIdempotency(organizationId, first.connectionId(),
          first.connectorRevision(), first.operationId(), first.idempotencyKey());
      return new EffectClaim(existing.orElseThrow(() -> new ConnectionStoreException(
          "authorization nonce or execution identity was already used", e)), false);
    }
  }

  @Override
  public List<EffectExecution> getExecutionHistory(OrganizationId organizationId, ExecutionId executionId) {
    return read("reading the execution history failed", s -> s.list(selectHistory,
        JdbcConnectionStore::readExecution, organizationId.value(), executionId.value()));
  }

  @Override
  public void recordRefusal(OrganizationId organizationId, List<EffectExecution> snapshots, EffectReceipt receipt) {
    requireSnapshotChain(organizationId, snapshots, "refused execution must start at CREATED");
    EffectExecution last = snapshots.get(snapshots.size() - 1);
    if (last.state() != EffectState.REFUSED) {
      throw new ConnectionStoreException("refused execution must end REFUSED");
    }
    requireReceiptMatches(organizationId, last, receipt);
    try {
      database.write(s -> {
        insertExecution(s, snapshots.get(0), false);
        advanceChain(s, snapshots);
        insertReceipt(s, receipt);
        return null;
      });
    } catch (SQLException e) {
      if (!StoreFailures.isConflict(e)) {
        throw StoreFailures.translate(e, "recording the refusal failed");
      }
      // the execution id is taken (typically: the same refused authorization sent again): record nothing new
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Receipts and evidence

  @Override
  public void saveReceipt(OrganizationId organizationId, EffectReceipt receipt) {
    requireScope(organizationId, receipt.organizationId(), "receipt");
    requireNoProviderDetail(receipt);
    write("saving the receipt failed", s -> {
      insertReceipt(s, receipt);
      return null;
    });
  }

  @Override
  public List<EffectReceipt> getReceiptsForExecution(OrganizationId organizationId, ExecutionId executionId) {
    return read("reading receipts failed", s -> s.list(selectReceipts, JdbcConnectionStore::readReceipt,
        organizationId.value(), executionId.value()));
  }

  @Override
  public void saveEvidenceReference(OrganizationId organizationId, ExecutionId executionId,
      ConfirmationEvidenceRef evidenceRef) {
    write("saving the evidence reference failed", s -> s.update(insertEvidenceReference, organizationId.value(),
        executionId.value(), evidenceRef.value()));
  }

  @Override
  public List<ConfirmationEvidenceRef> getEvidenceReferencesForExecution(OrganizationId organizationId,
      ExecutionId executionId) {
    return read("reading evidence references failed", s -> s.list(selectEvidenceReferences,
        row -> new ConfirmationEvidenceRef(row.getString(1)), organizationId.value(), executionId.value()));
  }

  @Override
  public ConfirmationEvidence newConfirmationEvidence(OrganizationId organizationId, ExecutionId executionId,
      Instant observedAt, String confirmationDigest) {
    return new ConfirmationEvidence(ConfirmationEvidenceRef.of(evidenceIds.get()), organizationId, executionId,
        observedAt, confirmationDigest);
  }

  @Override
  public ConfirmationEvidence saveConfirmationEvidence(OrganizationId organizationId, ExecutionId executionId,
      Instant observedAt, String confirmationDigest) {
    ConfirmationEvidence evidence = newConfirmationEvidence(organizationId, executionId, observedAt,
        confirmationDigest);
    write("saving confirmation evidence failed", s -> {
      insertEvidence(s, evidence);
      return null;
    });
    return evidence;
  }

  @Override
  public Optional<ConfirmationEvidence> getConfirmationEvidence(OrganizationId organizationId,
      ConfirmationEvidenceRef evidenceRef) {
    return Optional.ofNullable(read("reading confirmation evidence failed", s -> s.first(selectConfirmationEvidence,
        row -> new ConfirmationEvidence(new ConfirmationEvidenceRef(row.getString("evidence_ref")),
            new OrganizationId(row.getString("organization_id")), new ExecutionId(row.getString("execution_id")),
            Micros.read(row, "observed_at"), row.getString("confirmation_digest")),
        organizationId.value(), evidenceRef.value())));
  }

  @Override
  public void commitOutcome(OrganizationId organizationId, EffectExecution execution, EffectReceipt receipt,
      ConfirmationEvidence evidence) {
    requireScope(organizationId, execution.organizationId(), "execution");
    requireReceiptMatches(organizationId, execution, receipt);
    if (evidence != null) {
      requireScope(organizationId, evidence.organizationId(), "confirmation evidence");
      if (!evidence.executionId().equals(execution.executionId())) {
        throw new ConnectionStoreException("confirmation evidence execution mismatch");
      }
      if (!evidence.evidenceRef().equals(receipt.confirmationEvidenceRef())) {
        throw new ConnectionStoreException("receipt evidence reference mismatch");
      }
    }
    EffectState expected = expectedPriorState(receipt);
    write("committing the outcome failed", s -> {
      if (evidence != null) {
        insertEvidence(s, evidence);
      }
      List<Object> args = new ArrayList<>(List.of(execution.state().name(), Micros.of(execution.updatedAt())));
      args.add(Micros.ofNullable(execution.completedAt()));
      args.add(organizationId.value());
      args.add(execution.executionId().value());
      String sql = advanceFromPreDispatch;
      if (expected != null) {
        args.add(expected.name());
        sql = advanceWithIdentity;
      }
      Collections.addAll(args, execution.connectionId().value(), execution.connectorRevision().value(),
          execution.operationId().value(), execution.authorizationId().value(), execution.idempotencyKey().value(),
          execution.authorizationDigest(), execution.requestDigest(), Micros.of(execution.createdAt()));
      if (s.update(sql, args.toArray()) != 1) {
        EffectExecution stored = s.first(selectExecution, JdbcConnectionStore::readExecution, organizationId.value(),
            execution.executionId().value());
        if (stored == null) {
          throw new ConnectionStoreException("execution does not exist in organization");
        }
        if (!stored.hasSameIdentityAs(execution)) {
          throw new ConnectionStoreException("execution identity is immutable");
        }
        throw new ConnectionStoreException("execution state changed concurrently: stored state is "
            + stored.state() + ", expected " + (expected == null ? "a pre-dispatch state" : expected));
      }
      insertReceipt(s, receipt);
      return null;
    });
  }

  /**
   * The state {@link #commitOutcome} compares against: {@code AMBIGUOUS} for a resolving receipt, else
   * {@code DISPATCH_STARTED} when the receipt says dispatch started, else {@code null} for "any pre-dispatch state".
   */
  private static EffectState expectedPriorState(EffectReceipt receipt) {
    if (receipt.resolvesAmbiguity()) {
      return EffectState.AMBIGUOUS;
    }
    return receipt.dispatchStartedAt() != null ? EffectState.DISPATCH_STARTED : null;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Nonces

  @Override
  public boolean hasAuthorizationNonce(OrganizationId organizationId, String nonce) {
    Boolean exists = read("reading the authorization nonce failed",
        s -> s.exists(selectNonce, organizationId.value(), nonce));
    return exists;
  }

  @Override
  public void recordAuthorizationNonce(OrganizationId organizationId, String nonce, Instant recordedAt) {
    try {
      database.write(s -> s.update(insertNonce, organizationId.value(), nonce, Micros.of(recordedAt)));
    } catch (SQLException e) {
      throw StoreFailures.isConflict(e) ? new ConnectionStoreException("authorization nonce was already used", e)
          : StoreFailures.translate(e, "recording the authorization nonce failed");
    }
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Observations

  @Override
  public Optional<ObservationRecord> getObservation(OrganizationId organizationId, ObservationId observationId) {
    return Optional.ofNullable(read("reading the observation failed", s -> s.first(selectObservation,
        JdbcConnectionStore::readObservation, organizationId.value(), observationId.value())));
  }

  @Override
  public Optional<ObservationRecord> getObservationByIdempotency(OrganizationId organizationId,
      ConnectionId connectionId, ConnectorRevisionId connectorRevision, OperationId operationId,
      IdempotencyKey idempotencyKey) {
    return Optional.ofNullable(read("reading the observation failed", s -> s.first(selectObservationByIdentity,
        JdbcConnectionStore::readObservation, organizationId.value(), connectionId.value(),
        connectorRevision.value(), operationId.value(), idempotencyKey.value())));
  }

  @Override
  public ObservationClaim claimObservation(OrganizationId organizationId, ObservationRecord observation,
      String nonce) {
    requireScope(organizationId, observation.organizationId(), "observation");
    if (observation.state() != ObservationState.CLAIMED) {
      throw new ConnectionStoreException("new observation must start CLAIMED");
    }
    if (nonce == null || nonce.isEmpty()) {
      throw new ConnectionStoreException("authorization nonce is required");
    }
    try {
      database.write(s -> {
        s.update(insertNonce, organizationId.value(), nonce, Micros.of(observation.createdAt()));
        s.update(insertObservation, organizationId.value(), observation.observationId().value(),
            observation.connectionId().value(), observation.connectorRevision().value(),
            observation.operationId().value(), observation.authorizationId().value(),
            observation.idempotencyKey().value(), observation.authorizationDigest(), observation.requestDigest(),
            observation.state().name(), Micros.of(observation.createdAt()), null);
        return null;
      });
      return new ObservationClaim(observation, true);
    } catch (SQLException e) {
      if (!StoreFailures.isConflict(e)) {
        throw StoreFailures.translate(e, "claiming the observation failed");
      }
      Optional<ObservationRecord> existing = getObservationByIdempotency(organizationId, observation.connectionId(),
          observation.connectorRevision(), observation.operationId(), observation.idempotencyKey());
      return new ObservationClaim(existing.orElseThrow(() -> new ConnectionStoreException(
          "authorization nonce or observation identity was already used", e)), false);
    }
  }

  @Override
  public void commitObservation(OrganizationId organizationId, ObservationRecord observation,
      ObservationReceipt receipt) {
    requireScope(organizationId, observation.organizationId(), "observation");
    requireScope(organizationId, receipt.organizationId(), "observation receipt");
    if (observation.state() == ObservationState.CLAIMED) {
      throw new ConnectionStoreException("committed observation must be terminal");
    }
    if (!receipt.observationId().equals(observation.observationId())) {
      throw new ConnectionStoreException("observation receipt identity mismatch");
    }
    if (!receipt.connectionId().equals(observation.connectionId())) {
      throw new ConnectionStoreException("observation receipt connection mismatch");
    }
    if (!receipt.requestDigest().equals(observation.requestDigest())) {
      throw new ConnectionStoreException("observation receipt request mismatch");
    }
    if (receipt.finalState() != observation.state()) {
      throw new ConnectionStoreException("observation receipt state mismatch");
    }
    if (!receipt.recordedAt().equals(observation.completedAt())) {
      throw new ConnectionStoreException("observation receipt must be recorded at completed_at");
    }
    String inline = receipt.inlineResult() == null ? null : writeJson(receipt.inlineResult());
    ObservationArtifact artifact = receipt.artifact();
    NormalizedError error = receipt.normalizedError();
    write("committing the observation failed", s -> {
      int updated = s.update(completeObservation, observation.state().name(), Micros.of(observation.completedAt()),
          organizationId.value(), observation.observationId().value(), observation.connectionId().value(),
          observation.connectorRevision().value(), observation.operationId().value(),
          observation.authorizationId().value(), observation.idempotencyKey().value(),
          observation.authorizationDigest(), observation.requestDigest(), Micros.of(observation.createdAt()));
      if (updated != 1) {
        ObservationRecord stored = s.first(selectObservation, JdbcConnectionStore::readObservation,
            organizationId.value(), observation.observationId().value());
        if (stored == null) {
          throw new ConnectionStoreException("observation claim does not exist");
        }
        if (stored.state() != ObservationState.CLAIMED) {
          throw new ConnectionStoreException("observation is already terminal");
        }
        throw new ConnectionStoreException("observation identity is immutable");
      }
      s.update(insertObservationReceipt, organizationId.value(), receipt.observationId().value(),
          receipt.connectionId().value(), receipt.finalState().name(), receipt.requestDigest(),
          receipt.resultDigest(), inline, artifact == null ? null : artifact.artifactRef().value(),
          artifact == null ? null : artifact.contentSha256(), artifact == null ? null : artifact.sizeBytes(),
          artifact == null ? null : artifact.mediaType(), error == null ? null : error.code().name(),
          error == null ? null : error.message(), Micros.of(receipt.recordedAt()));
      return null;
    });
  }

  @Override
  public Optional<ObservationReceipt> getObservationReceipt(OrganizationId organizationId,
      ObservationId observationId) {
    return Optional.ofNullable(read("reading the observation receipt failed", s -> s.first(selectObservationReceipt,
        this::readObservationReceipt, organizationId.value(), observationId.value())));
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Recovery (cross-organization)

  @Override
  public List<RecoveryCandidate> findRecoveryCandidates(Instant dispatchStartedBefore, int limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive");
    }
    return read("finding executions to recover failed", s -> {
      List<RecoveryCandidate> candidates = new ArrayList<>(s.list(selectStaleDispatches,
          JdbcConnectionStore::readCandidate, Micros.of(dispatchStartedBefore), limit));
      if (candidates.size() < limit) {
        candidates.addAll(s.list(selectAmbiguous, JdbcConnectionStore::readCandidate, limit - candidates.size()));
      }
      return candidates;
    });
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Helpers

  private void insertExecution(SqlSession s, EffectExecution execution, boolean holdsIdentity) throws SQLException {
    s.update(insertExecution, execution.organizationId().value(), execution.executionId().value(),
        execution.connectionId().value(), execution.connectorRevision().value(), execution.operationId().value(),
        execution.authorizationId().value(), execution.idempotencyKey().value(), execution.authorizationDigest(),
        execution.requestDigest(), holdsIdentity ? 1 : 0, execution.state().name(),
        Micros.of(execution.createdAt()), Micros.of(execution.updatedAt()),
        Micros.ofNullable(execution.completedAt()));
  }

  /** Compare-and-set through {@code snapshots[1..]}; each must move exactly one row. */
  private void advanceChain(SqlSession s, List<EffectExecution> snapshots) throws SQLException {
    for (int i = 1; i < snapshots.size(); i++) {
      EffectExecution next = snapshots.get(i);
      requireAdvanced(s.update(advanceExecution, next.state().name(), Micros.of(next.updatedAt()),
          Micros.ofNullable(next.completedAt()), next.organizationId().value(), next.executionId().value(),
          snapshots.get(i - 1).state().name()));
    }
  }

  private static void requireAdvanced(int updated) {
    if (updated != 1) {
      throw new ConnectionStoreException("execution state changed concurrently");
    }
  }

  private void insertReceipt(SqlSession s, EffectReceipt receipt) throws SQLException {
    requireNoProviderDetail(receipt);
    NormalizedError error = receipt.normalizedError();
    s.update(insertReceipt, receipt.organizationId().value(), receipt.executionId().value(),
        receipt.connectionId().value(), receipt.finalState().name(), error == null ? null : error.code().name(),
        error == null ? null : error.message(), Micros.of(receipt.recordedAt()),
        Micros.ofNullable(receipt.dispatchStartedAt()), Micros.ofNullable(receipt.resolvedAt()),
        receipt.confirmationEvidenceRef() == null ? null : receipt.confirmationEvidenceRef().value(),
        receipt.reconciliationEvidence(), Micros.ofNullable(receipt.resolvesAmbiguousRecordedAt()),
        receipt.reconciliationAttemptEvidence());
  }

  private void insertEvidence(SqlSession s, ConfirmationEvidence evidence) throws SQLException {
    s.update(insertEvidenceReference, evidence.organizationId().value(), evidence.executionId().value(),
        evidence.evidenceRef().value());
    s.update(insertConfirmationEvidence, evidence.organizationId().value(), evidence.executionId().value(),
        evidence.evidenceRef().value(), Micros.of(evidence.observedAt()), evidence.confirmationDigest());
  }

  private static void requireScope(OrganizationId organizationId, OrganizationId recordOrganization, String kind) {
    Objects.requireNonNull(organizationId, "organizationId");
    if (!organizationId.equals(recordOrganization)) {
      throw new ConnectionStoreException(kind + " organization mismatch");
    }
  }

  private static void requireNoProviderDetail(EffectReceipt receipt) {
    if (receipt.normalizedError() != null && receipt.normalizedError().providerDetail() != null) {
      throw new ConnectionStoreException("provider_detail is never persisted");
    }
  }

  private static void requireReceiptMatches(OrganizationId organizationId, EffectExecution execution,
      EffectReceipt receipt) {
    requireScope(organizationId, receipt.organizationId(), "receipt");
    if (!receipt.executionId().equals(execution.executionId())) {
      throw new ConnectionStoreException("receipt execution mismatch");
    }
    if (!receipt.connectionId().equals(execution.connectionId())) {
      throw new ConnectionStoreException("receipt connection mismatch");
    }
    if (receipt.finalState() != execution.state()) {
      throw new ConnectionStoreException("receipt state does not match execution");
    }
    requireNoProviderDetail(receipt);
  }

  private static void requireSnapshotChain(OrganizationId organizationId, List<EffectExecution> snapshots,
      String startMessage) {
    if (snapshots == null || snapshots.isEmpty()) {
      throw new ConnectionStoreException("at least one execution snapshot is required");
    }
    EffectExecution first = snapshots.get(0);
    requireScope(organizationId, first.organizationId(), "execution");
    if (first.state() != EffectState.CREATED) {
      throw new ConnectionStoreException(startMessage);
    }
    for (int i = 1; i < snapshots.size(); i++) {
      EffectExecution previous = snapshots.get(i - 1);
      EffectExecution next = snapshots.get(i);
      if (!first.hasSameIdentityAs(next)) {
        throw new ConnectionStoreException("execution identity is immutable");
      }
      if (!previous.state().canTransitionTo(next.state())) {
        throw new ConnectionStoreException("transition is not allowed");
      }
      if (!next.updatedAt().isAfter(previous.updatedAt())) {
        throw new ConnectionStoreException("snapshot timestamps must strictly increase");
      }
    }
  }

  private <T> T read(String failure, SqlWork<T> work) {
    try {
      return database.read(work);
    } catch (SQLException e) {
      throw StoreFailures.translate(e, failure);
    }
  }

  private <T> T write(String failure, SqlWork<T> work) {
    try {
      return database.write(work);
    } catch (SQLException e) {
      throw StoreFailures.translate(e, failure);
    }
  }

  private static String document(Object document, String kind) {
    try {
      return ContractJson.storeDocumentMapper().writeValueAsString(document);
    } catch (JacksonException e) {
      throw new ConnectionStoreException(kind + " document could not be written", e);
    }
  }

  private static String writeJson(Object value) {
    try {
      return ContractJson.mapper().writeValueAsString(value);
    } catch (JacksonException e) {
      throw new ConnectionStoreException("inline result could not be written", e);
    }
  }

  private static <T> T parse(String document, Class<T> type, String kind) {
    try {
      return ContractJson.storeDocumentMapper().readValue(document, type);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new ConnectionStoreException("stored " + kind + " document is unreadable", e);
    }
  }

  private static EffectExecution readExecution(ResultSet row) throws SQLException {
    return new EffectExecution(new ExecutionId(row.getString("execution_id")),
        new OrganizationId(row.getString("organization_id")), new ConnectionId(row.getString("connection_id")),
        new ConnectorRevisionId(row.getString("connector_revision")), new OperationId(row.getString("operation_id")),
        new AuthorizationId(row.getString("authorization_id")),
        new IdempotencyKey(row.getString("idempotency_key")), row.getString("authorization_digest"),
        row.getString("request_digest"), EffectState.valueOf(row.getString("state")),
        Micros.read(row, "created_at"), Micros.read(row, "updated_at"), Micros.read(row, "completed_at"));
  }

  private static RecoveryCandidate readCandidate(ResultSet row) throws SQLException {
    return new RecoveryCandidate(readExecution(row), row.getInt("attempts"), Micros.read(row, "last_receipt_at"));
  }

  private static EffectReceipt readReceipt(ResultSet row) throws SQLException {
    String code = row.getString("error_code");
    NormalizedError error = code == null ? null
        : new NormalizedError(NormalizedErrorCode.valueOf(code), row.getString("error_message"), null);
    String evidenceRef = row.getString("confirmation_evidence_ref");
    return new EffectReceipt(new ExecutionId(row.getString("execution_id")),
        new OrganizationId(row.getString("organization_id")), new ConnectionId(row.getString("connection_id")),
        EffectState.valueOf(row.getString("final_state")), error, Micros.read(row, "recorded_at"),
        Micros.read(row, "dispatch_started_at"), Micros.read(row, "resolved_at"),
        evidenceRef == null ? null : new ConfirmationEvidenceRef(evidenceRef),
        row.getString("reconciliation_evidence"), Micros.read(row, "resolves_ambiguous_recorded_at"),
        row.getString("reconciliation_attempt_evidence"));
  }

  private static ObservationRecord readObservation(ResultSet row) throws SQLException {
    return new ObservationRecord(new ObservationId(row.getString("observation_id")),
        new OrganizationId(row.getString("organization_id")), new ConnectionId(row.getString("connection_id")),
        new ConnectorRevisionId(row.getString("connector_revision")), new OperationId(row.getString("operation_id")),
        new AuthorizationId(row.getString("authorization_id")),
        new IdempotencyKey(row.getString("idempotency_key")), row.getString("authorization_digest"),
        row.getString("request_digest"), ObservationState.valueOf(row.getString("state")),
        Micros.read(row, "created_at"), Micros.read(row, "completed_at"));
  }

  private ObservationReceipt readObservationReceipt(ResultSet row) throws SQLException {
    String code = row.getString("error_code");
    NormalizedError error = code == null ? null
        : new NormalizedError(NormalizedErrorCode.valueOf(code), row.getString("error_message"), null);
    String inline = row.getString("inline_result");
    String artifactRef = row.getString("artifact_ref");
    ObservationArtifact artifact = artifactRef == null ? null
        : new ObservationArtifact(new ObservationArtifactRef(artifactRef), row.getString("artifact_content_sha256"),
            row.getLong("artifact_size_bytes"), row.getString("artifact_media_type"));
    return new ObservationReceipt(new ObservationId(row.getString("observation_id")),
        new OrganizationId(row.getString("organization_id")), new ConnectionId(row.getString("connection_id")),
        ObservationState.valueOf(row.getString("final_state")), row.getString("request_digest"),
        row.getString("result_digest"), inline == null ? null : parse(inline, Object.class, "inline result"),
        artifact, error, Micros.read(row, "recorded_at"));
  }
}
