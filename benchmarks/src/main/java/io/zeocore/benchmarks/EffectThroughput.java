package io.zeocore.benchmarks;

import io.zeocore.connections.contract.EffectKind;
import io.zeocore.connections.contract.AuthorizationId;
import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionHealth;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectionStatus;
import io.zeocore.connections.contract.ConnectorId;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectDispatcher;
import io.zeocore.connections.effect.EffectExecutionResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.contract.ExecutionId;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import io.zeocore.connections.contract.IdempotencyMode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.RiskClass;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.authorization.AuthorizationSigner;
import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.authorization.Ed25519SignatureVerifier;
import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.sqlite.SQLiteConfig;

/**
 * Item 3, a plain measurement (not JMH: each effect needs its own signed authorization, signed before the clock
 * starts, and a durable commit takes milliseconds): effects per second through {@link EffectOrchestrator} on the SQLite
 * store against the physical limit, a raw JDBC loop doing two durable commits per effect on a file with the same
 * settings ({@code journal_mode=WAL}, {@code synchronous=FULL}, {@code IMMEDIATE} transactions, one connection).
 *
 * <p>The orchestrator runs end to end: Ed25519 verification of the authorization, preflight, the first commit (nonce,
 * idempotency identity and the {@code CREATED … DISPATCH_STARTED} snapshots), a no-op dispatcher that confirms at
 * once, the second commit ({@code CONFIRMED}, {@code SUCCEEDED}, receipt and evidence). The raw loop inserts an
 * execution row and commits, then updates it and inserts a receipt row and commits.
 *
 * <p>A third contender, the raw loop that also checks one Ed25519 signature per effect exactly as the orchestrator's
 * verifier does, is the limit for work that must verify an authorization before it commits.
 *
 * <p>One JVM, both files in {@code directory} (so on the same disk), one thread. After 100 warm-up effects each, the
 * contenders take turns in small batches ({@code effectsPerBatch}, default 25, {@code batches} times, default 24,
 * rotating who goes first), because the latency of an fsync on a shared virtual disk drifts by several times within
 * seconds: neighbouring batches see the same disk. Prints one JSON object: effects per second of each (over all
 * batches), the ratios of the totals, the median and 10th/90th percentiles of the per-batch ratios, and per effect the
 * thread's CPU time and the rest of the wall time (waiting, mostly for fsync).
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.zeocore.benchmarks.EffectThroughput <directory> [effectsPerBatch]
 * [batches]}
 */
public final class EffectThroughput {

  private static final String ISSUER = "zeo-go";
  private static final String AUDIENCE = "zeocore";
  private static final OrganizationId ORG = new OrganizationId("org-1");
  private static final ConnectionId CONNECTION = new ConnectionId("conn-1");
  private static final ConnectorRevisionId REVISION = new ConnectorRevisionId("stripe-r1");
  private static final OperationId CREATE_REFUND = new OperationId("create_refund");
  private static final byte[] BODY = "{\"amount\":100,\"charge\":\"ch_1\"}".getBytes(StandardCharsets.UTF_8);
  private static final String CONFIRMATION = "c".repeat(64);
  private static final int WARM_UP_EFFECTS = 100;

  private final EffectOrchestrator orchestrator;
  private final RawDurableCommits raw;
  private final Ed25519SignatureVerifier signatures;
  private final List<EffectAuthorization> authorizations;
  private final AtomicInteger dispatches = new AtomicInteger();
  private final EffectDispatcher confirming = request -> {
    dispatches.incrementAndGet();
    return EffectDispatchResult.confirmed(CONFIRMATION);
  };
  private final EffectReconciler noReconciliation = request -> {
    throw new IllegalStateException("a confirmed effect is never reconciled");
  };
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private int nextEffect;

  private EffectThroughput(EffectOrchestrator orchestrator, RawDurableCommits raw, Ed25519SignatureVerifier signatures,
      List<EffectAuthorization> authorizations) {
    this.orchestrator = orchestrator;
    this.raw = raw;
    this.signatures = signatures;
    this.authorizations = authorizations;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: EffectThroughput <directory> [effectsPerBatch] [batches]");
    }
    Path directory = Files.createDirectories(Path.of(args[0]));
    int batch = args.length > 1 ? Integer.parseInt(args[1]) : 25;
    int batches = args.length > 2 ? Integer.parseInt(args[2]) : 24;
    Files.deleteIfExists(directory.resolve("zeocore.db"));
    Files.deleteIfExists(directory.resolve("raw.db"));

    KeyPair keys = Ed25519Keys.generate();
    AuthorizationSigner signer = new AuthorizationSigner(ISSUER, keys.getPrivate());
    Ed25519SignatureVerifier signatures = Ed25519SignatureVerifier.of(ISSUER, keys.getPublic());
    ExactAuthorizationVerifier verifier = new ExactAuthorizationVerifier(signatures, AUDIENCE, Set.of(ISSUER));
    List<EffectAuthorization> authorizations = new ArrayList<>();
    Instant now = Instant.now();
    for (int i = 0; i < WARM_UP_EFFECTS + batch * batches; i++) {
      authorizations.add(signer.sign(unsigned(i, now)));
    }
    try (JdbcConnectionStore store = JdbcConnectionStore.builder().sqliteFile(directory.resolve("zeocore.db")).build();
        RawDurableCommits raw = RawDurableCommits.open(directory.resolve("raw.db"))) {
      store.saveConnectorRevision(ORG, revision());
      store.saveConnection(ORG, connection(now));
      EffectThroughput measurement = new EffectThroughput(new EffectOrchestrator(store, verifier), raw, signatures,
          authorizations);
      System.out.println(measurement.measure(batch, batches));
    }
  }

  private String measure(int batch, int batches) throws SQLException {
    zeoCoreBatch(WARM_UP_EFFECTS);
    rawBatch(WARM_UP_EFFECTS, false);
    rawBatch(WARM_UP_EFFECTS, true);
    long[] zeoCore = new long[2];
    long[] rawLoop = new long[2];
    long[] verifying = new long[2];
    double[] ratios = new double[batches];
    double[] verifyingRatios = new double[batches];
    for (int i = 0; i < batches; i++) {
      long[][] times = new long[3][];
      for (int turn = 0; turn < 3; turn++) {
        int contender = (i + turn) % 3; // rotate who goes first
        times[contender] = contender == 0 ? zeoCoreBatch(batch) : rawBatch(batch, contender == 2);
      }
      add(zeoCore, times[0]);
      add(rawLoop, times[1]);
      add(verifying, times[2]);
      ratios[i] = (double) times[1][0] / times[0][0]; // throughput ratio: the limit's time over ZeoCore's
      verifyingRatios[i] = (double) times[2][0] / times[0][0];
    }
    if (dispatches.get() != WARM_UP_EFFECTS + batch * batches) {
      throw new IllegalStateException("expected one dispatch per effect, saw " + dispatches.get());
    }
    Arrays.sort(ratios);
    Arrays.sort(verifyingRatios);
    long effects = (long) batch * batches;
    return String.format(Locale.ROOT, "{\"effectsPerBatch\":%d,\"batches\":%d,"
            + "\"zeocoreEffectsPerSecond\":%.1f,\"rawEffectsPerSecond\":%.1f,\"rawVerifyingEffectsPerSecond\":%.1f,"
            + "\"ratioOfTotals\":%.3f,\"medianBatchRatio\":%.3f,\"p10BatchRatio\":%.3f,\"p90BatchRatio\":%.3f,"
            + "\"verifyingRatioOfTotals\":%.3f,\"verifyingMedianBatchRatio\":%.3f,"
            + "\"zeocoreCpuMicrosPerEffect\":%.0f,\"rawCpuMicrosPerEffect\":%.0f,\"rawVerifyingCpuMicrosPerEffect\":%.0f,"
            + "\"zeocoreWaitMicrosPerEffect\":%.0f,\"rawWaitMicrosPerEffect\":%.0f,"
            + "\"rawVerifyingWaitMicrosPerEffect\":%.0f}",
        batch, batches, perSecond(effects, zeoCore), perSecond(effects, rawLoop), perSecond(effects, verifying),
        (double) rawLoop[0] / zeoCore[0], quantile(ratios, 0.5), quantile(ratios, 0.1), quantile(ratios, 0.9),
        (double) verifying[0] / zeoCore[0], quantile(verifyingRatios, 0.5),
        micros(zeoCore[1], effects), micros(rawLoop[1], effects), micros(verifying[1], effects),
        micros(zeoCore[0] - zeoCore[1], effects), micros(rawLoop[0] - rawLoop[1], effects),
        micros(verifying[0] - verifying[1], effects));
  }

  private static double perSecond(long effects, long[] times) {
    return effects / (times[0] / 1e9);
  }

  private static double micros(long nanos, long effects) {
    return nanos / 1e3 / effects;
  }

  private static void add(long[] sum, long[] batch) {
    for (int i = 0; i < sum.length; i++) {
      sum[i] += batch[i];
    }
  }

  /** {wall ns, this thread's CPU ns} for {@code effects} effects through the orchestrator, each {@code SUCCEEDED}. */
  private long[] zeoCoreBatch(int effects) {
    long cpu = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    for (int i = 0; i < effects; i++) {
      EffectAuthorization authorization = authorizations.get(nextEffect);
      EffectExecutionResult result = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, authorization,
          new ExecutionId("exec-" + nextEffect), BODY, confirming, noReconciliation);
      if (result.state() != EffectState.SUCCEEDED) {
        throw new IllegalStateException("effect " + nextEffect + " ended " + result.state());
      }
      nextEffect++;
    }
    return new long[] {System.nanoTime() - start, threads.getCurrentThreadCpuTime() - cpu};
  }

  /**
   * {wall ns, this thread's CPU ns} for {@code effects} effects of the raw loop; with {@code verifying}, each effect
   * first checks the authorization's Ed25519 signature as the orchestrator's verifier does (canonical form, then
   * {@code Signature.verify}): the limit for work that must check a signature before it commits.
   */
  private long[] rawBatch(int effects, boolean verifying) throws SQLException {
    long cpu = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    for (int i = 0; i < effects; i++) {
      if (verifying && !signatures.verifySignature(authorizations.get(0))) {
        throw new IllegalStateException("the signature did not verify");
      }
      raw.effect();
    }
    return new long[] {System.nanoTime() - start, threads.getCurrentThreadCpuTime() - cpu};
  }

  private static double quantile(double[] sorted, double q) {
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }

  /** The physical limit: two durable commits per effect through one connection with the store's settings. */
  static final class RawDurableCommits implements AutoCloseable {

    private final java.sql.Connection connection;
    private final PreparedStatement claim;
    private final PreparedStatement finish;
    private final PreparedStatement receipt;
    private long next;

    private RawDurableCommits(java.sql.Connection connection) throws SQLException {
      this.connection = connection;
      this.claim = connection.prepareStatement(
          "INSERT INTO executions (execution_id, state, request_digest, created_at, updated_at) VALUES (?, ?, ?, ?, ?)");
      this.finish = connection.prepareStatement(
          "UPDATE executions SET state = ?, updated_at = ? WHERE execution_id = ?");
      this.receipt = connection.prepareStatement(
          "INSERT INTO receipts (execution_id, state, confirmation_digest, created_at) VALUES (?, ?, ?, ?)");
    }

    /** Opens {@code file} with the settings of ZeoCore's {@code SqliteDatabase} and creates the two tables. */
    static RawDurableCommits open(Path file) throws SQLException {
      SQLiteConfig config = new SQLiteConfig();
      config.setJournalMode(SQLiteConfig.JournalMode.WAL);
      config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
      config.setBusyTimeout(5000);
      config.enforceForeignKeys(true);
      config.enableRecursiveTriggers(true);
      config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
      java.sql.Connection connection = config.createConnection("jdbc:sqlite:" + file);
      try (Statement ddl = connection.createStatement()) {
        ddl.execute("CREATE TABLE executions (execution_id TEXT PRIMARY KEY, state TEXT NOT NULL, "
            + "request_digest TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)");
        ddl.execute("CREATE TABLE receipts (execution_id TEXT NOT NULL REFERENCES executions (execution_id), "
            + "state TEXT NOT NULL, confirmation_digest TEXT, created_at INTEGER NOT NULL)");
      }
      connection.setAutoCommit(false);
      return new RawDurableCommits(connection);
    }

    /** One effect: insert and commit ({@code DISPATCH_STARTED}), then update, add the receipt and commit. */
    void effect() throws SQLException {
      String id = "exec-" + next++;
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

    @Override
    public void close() throws SQLException {
      connection.close();
    }
  }

  private static EffectAuthorization unsigned(int effect, Instant now) {
    return new EffectAuthorization(new AuthorizationId("auth-" + effect), ORG, "seat-1", "binding-1", "packet-1",
        "attempt-1", CONNECTION, REVISION, CREATE_REFUND, Digests.requestDigest(BODY),
        new IdempotencyKey("idem-" + effect), List.of("approval-1"), now.minusSeconds(1), now.plusSeconds(3600),
        "nonce-" + effect, AUDIENCE, ISSUER, "unsigned");
  }

  /** The refund operation of a Stripe-like connector, as in zeo-core's contract test fixtures. */
  private static ConnectorRevision revision() {
    BusinessOperation refund = new BusinessOperation(CREATE_REFUND, EffectKind.FINANCIAL,
        closedSchema("amount", "charge"), Map.of("type", "object"), "https://api.stripe.com", "POST", "/v1/refunds",
        List.of("api_key"), List.of("$.id"), IdempotencyMode.PROVIDER_NATIVE, "lookup_by_idempotency_key", null);
    return new ConnectorRevision(new ConnectorId("stripe"), REVISION, "stripe", "api_key", "GET /v1/account",
        "GET /v1/balance", "header:Authorization", "default", "1", List.of("https://api.stripe.com"),
        List.of("refunds:write"), List.of(refund), 65_536, 1_048_576, 30.0, false, RiskClass.HIGH, true,
        "by_idempotency_key", null, List.of("fixture-1"));
  }

  private static Connection connection(Instant now) {
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
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("additionalProperties", false);
    schema.put("properties", properties);
    return schema;
  }
}
