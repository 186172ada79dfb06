package io.zeocore.autoconfigure.connections;

import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.custody.SecretStore;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.read.ReadOrchestrator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;

/**
 * Configuration properties of ZeoCore's durable effect orchestration: the store, the exact authorization verifier,
 * recovery and credential custody. Nothing is created until a {@code zeocore.connections.*} property is set; the
 * orchestrators exist only when {@code authorization} is configured (there is no permissive default).
 */
@ConfigurationProperties("zeocore.connections")
public class ZeoCoreConnectionsProperties {

  /** Whether to enable ZeoCore's effect orchestration (store, orchestrators, recovery). */
  private boolean enabled = true;

  private final Store store = new Store();

  private final Authorization authorization = new Authorization();

  private final Recovery recovery = new Recovery();

  private final Custody custody = new Custody();

  private final Reads reads = new Reads();

  public boolean isEnabled() {
    return this.enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Store getStore() {
    return this.store;
  }

  public Authorization getAuthorization() {
    return this.authorization;
  }

  public Recovery getRecovery() {
    return this.recovery;
  }

  public Custody getCustody() {
    return this.custody;
  }

  public Reads getReads() {
    return this.reads;
  }

  /** Where the store's database comes from. */
  public enum StoreDataSource {

    /** ZeoCore's own SQLite file at {@code path}, created 0600 in a 0700 directory. */
    EMBEDDED,

    /** The application's {@link javax.sql.DataSource} bean (SQLite or PostgreSQL), detected from its metadata. */
    APPLICATION
  }

  /**
   * The store. By default an embedded SQLite file; with {@code datasource: application} the application's DataSource;
   * with {@code url} a database of its own. Its schema is migrated at start-up by ZeoCore's private Flyway (history
   * table zeocore_schema_history), which never touches the application's own migrations.
   */
  public static class Store {

    /** The embedded SQLite file, created 0600 (in 0700 directories) when missing. */
    private Path path = Path.of("data", "zeocore.db");

    /** Which database to use when no url is set: ZeoCore's embedded file or the application's DataSource. */
    private StoreDataSource datasource = StoreDataSource.EMBEDDED;

    /** JDBC URL of a database of ZeoCore's own: jdbc:postgresql://... or jdbc:sqlite:<path>. */
    private @Nullable String url;

    /** Login user of the url's database. */
    private @Nullable String username;

    /** Login password of the url's database. */
    private @Nullable String password;

    /**
     * How many connections ZeoCore's own pool for a PostgreSQL url keeps at most (default 10). They are opened when
     * first needed and kept open; an operation that finds them all in use waits up to 30s for one. Only with a url of
     * PostgreSQL: the embedded file has one writer connection, and datasource=application uses the application's
     * pool.
     */
    private @Nullable Integer poolSize;

    public Path getPath() {
      return this.path;
    }

    public void setPath(Path path) {
      this.path = path;
    }

    public StoreDataSource getDatasource() {
      return this.datasource;
    }

    public void setDatasource(StoreDataSource datasource) {
      this.datasource = datasource;
    }

    public @Nullable String getUrl() {
      return this.url;
    }

    public void setUrl(@Nullable String url) {
      this.url = url;
    }

    public @Nullable String getUsername() {
      return this.username;
    }

    public void setUsername(@Nullable String username) {
      this.username = username;
    }

    public @Nullable String getPassword() {
      return this.password;
    }

    public void setPassword(@Nullable String password) {
      this.password = password;
    }

    public @Nullable Integer getPoolSize() {
      return this.poolSize;
    }

    public void setPoolSize(@Nullable Integer poolSize) {
      this.poolSize = poolSize;
    }
  }

  /**
   * The exact authorization verifier. Setting any of these requires all of audience, trusted-issuers and a trust-roots
   * entry for every trusted issuer; with none set, no verifier and no orchestrator exist.
   */
  public static class Authorization {

    /** The audience every authorization must name, e.g. "zeocore". */
    private @Nullable String audience;

    /** Issuers whose authorizations are accepted. */
    private Set<String> trustedIssuers = new LinkedHashSet<>();

    /**
     * Ed25519 public keys (PEM "PUBLIC KEY" resources, e.g. classpath:zeo-go.pub) of each trusted issuer, by issuer.
     */
    private final Map<String, List<Resource>> trustRoots = new LinkedHashMap<>();

    /** How far an authorization's issued-at may lie ahead of this host's clock. */
    private Duration issuedAtSkew = ExactAuthorizationVerifier.DEFAULT_ISSUED_AT_SKEW;

    public @Nullable String getAudience() {
      return this.audience;
    }

    public void setAudience(@Nullable String audience) {
      this.audience = audience;
    }

    public Set<String> getTrustedIssuers() {
      return this.trustedIssuers;
    }

    public void setTrustedIssuers(Set<String> trustedIssuers) {
      this.trustedIssuers = trustedIssuers;
    }

    public Map<String, List<Resource>> getTrustRoots() {
      return this.trustRoots;
    }

    public Duration getIssuedAtSkew() {
      return this.issuedAtSkew;
    }

    public void setIssuedAtSkew(Duration issuedAtSkew) {
      this.issuedAtSkew = issuedAtSkew;
    }
  }

  /**
   * Recovery of effects left open: dispatches presumed orphaned and ambiguities, reconciled through the
   * EffectReconciler beans and never dispatched again.
   */
  public static class Recovery {

    /** Whether to run recovery sweeps at start-up and then at the interval. */
    private boolean enabled = true;

    /** Time between the end of one sweep and the start of the next. */
    private Duration interval = Duration.ofSeconds(30);

    /** Age after which a dispatch still in flight is presumed orphaned and recorded ambiguous. */
    private Duration dispatchStaleAfter = EffectRecovery.DEFAULT_DISPATCH_STALE_AFTER;

    /** Wait before reconciling an ambiguity again after its first unresolved attempt; doubles per attempt. */
    private Duration initialBackoff = EffectRecovery.DEFAULT_INITIAL_BACKOFF;

    /** Cap of the doubling wait between reconciliation attempts. */
    private Duration maxBackoff = EffectRecovery.DEFAULT_MAX_BACKOFF;

    /** Executions examined per sweep. */
    private int batchSize = EffectRecovery.DEFAULT_BATCH_SIZE;

    public boolean isEnabled() {
      return this.enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getInterval() {
      return this.interval;
    }

    public void setInterval(Duration interval) {
      this.interval = interval;
    }

    public Duration getDispatchStaleAfter() {
      return this.dispatchStaleAfter;
    }

    public void setDispatchStaleAfter(Duration dispatchStaleAfter) {
      this.dispatchStaleAfter = dispatchStaleAfter;
    }

    public Duration getInitialBackoff() {
      return this.initialBackoff;
    }

    public void setInitialBackoff(Duration initialBackoff) {
      this.initialBackoff = initialBackoff;
    }

    public Duration getMaxBackoff() {
      return this.maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
      this.maxBackoff = maxBackoff;
    }

    public int getBatchSize() {
      return this.batchSize;
    }

    public void setBatchSize(int batchSize) {
      this.batchSize = batchSize;
    }
  }

  /**
   * Custody of connection credentials: a PKCS12 keystore file that hands material to providers only inside one-shot,
   * expiring leases. The SecretStore bean exists once key-store is set.
   */
  public static class Custody {

    /** The PKCS12 keystore file, created 0600 (in 0700 directories) when missing. */
    private @Nullable Path keyStore;

    /** Password of the keystore and its entries, e.g. "${ZEOCORE_CUSTODY_PASSWORD}". Never logged. */
    private @Nullable String password;

    /** How long a resolved secret lease may be redeemed. */
    private Duration leaseTtl = SecretStore.DEFAULT_LEASE_TTL;

    public @Nullable Path getKeyStore() {
      return this.keyStore;
    }

    public void setKeyStore(@Nullable Path keyStore) {
      this.keyStore = keyStore;
    }

    public @Nullable String getPassword() {
      return this.password;
    }

    public void setPassword(@Nullable String password) {
      this.password = password;
    }

    public Duration getLeaseTtl() {
      return this.leaseTtl;
    }

    public void setLeaseTtl(Duration leaseTtl) {
      this.leaseTtl = leaseTtl;
    }
  }

  /** Authorized reads through the ReadOrchestrator bean. */
  public static class Reads {

    /**
     * How deeply a provider's inline result may nest to be stored, 1 to 100 (a map of scalars nests 1 level); a deeper
     * one ends the read FAILED_SAFE with nothing stored. Its size is bounded by the connector revision's
     * response size limit.
     */
    private int maxResultDepth = ReadOrchestrator.DEFAULT_MAX_RESULT_DEPTH;

    public int getMaxResultDepth() {
      return this.maxResultDepth;
    }

    public void setMaxResultDepth(int maxResultDepth) {
      this.maxResultDepth = maxResultDepth;
    }
  }
}
