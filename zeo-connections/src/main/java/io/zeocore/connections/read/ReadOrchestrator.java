package io.zeocore.connections.read;

import io.zeocore.EffectKind;
import io.zeocore.InvalidFieldException;
import io.zeocore.connections.admission.AdmissionException;
import io.zeocore.connections.admission.ConnectorPreflight;
import io.zeocore.connections.admission.PreflightCode;
import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.AuthorizationVerdict;
import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.contract.ReadArtifact;
import io.zeocore.connections.contract.ReadId;
import io.zeocore.connections.contract.ReadReceipt;
import io.zeocore.connections.contract.ReadRecord;
import io.zeocore.connections.contract.ReadState;
import io.zeocore.connections.internal.JsonValues;
import io.zeocore.connections.internal.Timestamps;
import io.zeocore.connections.store.ConnectionStoreException;
import io.zeocore.connections.store.ReadClaim;
import io.zeocore.connections.store.ReadStore;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one authorized read (a read) with a durable idempotency claim and exactly one receipt. Reads have no
 * ambiguity and no reconciler: anything that goes wrong after the claim becomes a {@code FAILED_SAFE} receipt.
 *
 * <h2>{@link #observe}, step by step</h2>
 * <ol>
 *   <li>No authorization: refused {@code ABSENT}. Refusals of reads are never persisted.
 *   <li>Request digest and verification as for effects. A {@code REPLAYED} authorization whose identity (the caller's
 *       connection, revision and operation, the authorization's key) has a read for the same request digest
 *       returns its state, id and receipt; every other refusal returns only the reason.
 *   <li>Preflight (throws {@link ReadPreflightException}, nothing persisted): connection active, pinned
 *       revision, revision stored, body size, admission, operation exposed, operation is {@code read}, and the
 *       request's resource argument (if the operation names one) is a string among the connection's selected business
 *       resources.
 *   <li>Claim: nonce and {@code CLAIMED} record in one transaction. If the identity is taken: a different request
 *       digest is refused {@code REQUEST_DIGEST_MISMATCH}; the same one returns the stored state and receipt (the
 *       receipt is absent while the other claim is in flight).
 *   <li>Observe once. A {@code FAILED_SAFE} result is recorded as is. An inline result is rejected if any object key
 *       at any depth is secret-shaped ({@code access_token}, {@code authorization}, {@code client_secret},
 *       {@code credential(s)}, {@code password}, {@code refresh_token}, {@code secret}, {@code token}; case-insensitive),
 *       if it nests deeper than {@link Builder#maxResultDepth} (default 100 levels), or if its canonical JSON is larger
 *       than {@code response_size_limit_bytes}; its digest is {@code sha256:} over
 *       the canonical bytes (Python {@code json.dumps(sort_keys=True, separators=(",", ":"))}). An artifact is
 *       rejected if larger than the limit; its digest is its {@code content_sha256}. Any exception, a {@code null}
 *       result or a rejection becomes {@code FAILED_SAFE} with {@code PROVIDER_UNAVAILABLE} (provider text is
 *       dropped).
 *   <li>Commit: the terminal record and its receipt in one transaction.
 * </ol>
 *
 * <p>Thread-safe. Timestamps are strictly increasing at microsecond precision.
 */
public final class ReadOrchestrator {

  /** Object keys that make an inline result look like it carries a secret (compared case-insensitively). */
  public static final Set<String> SECRET_SHAPED_KEYS = Set.of("access_token", "authorization", "client_secret",
      "credential", "credentials", "password", "refresh_token", "secret", "token");

  static final String UNAVAILABLE_MESSAGE = "provider observation did not complete safely";

  /** The message of a confirmed result that the store could not keep. */
  static final String NOT_STORED_MESSAGE = "provider observation result could not be stored";

  private static final Logger LOG = LoggerFactory.getLogger(ReadOrchestrator.class);

  /** This orchestrator's preflight rejections, with the reference's phrases. */
  private static final ConnectorPreflight.Rejections REJECTIONS = new ConnectorPreflight.Rejections() {
    @Override
    public RuntimeException rejected(PreflightCode code) {
      return new ReadPreflightException(code, switch (code) {
        case CONNECTION_NOT_ACTIVE -> "connection is not active";
        case CONNECTION_REVISION_MISMATCH -> "connection revision mismatch";
        case CONNECTOR_REVISION_UNAVAILABLE -> "connector revision is unavailable";
        case REQUEST_TOO_LARGE -> "request exceeds connector size limit";
        case OPERATION_NOT_EXPOSED -> "read operation is not exposed";
        case EFFECTFUL_OPERATION -> "effectful operations require effect orchestration";
        case BUSINESS_RESOURCE_NOT_SELECTED -> "business resource is not selected";
        case ADMISSION_REFUSED, READ_ONLY_OPERATION ->
            throw new IllegalArgumentException("not an observation preflight rejection: " + code);
      });
    }

    @Override
    public RuntimeException admissionRefused(AdmissionException cause) {
      return new ReadPreflightException("connector admission refused read", cause);
    }
  };

  /**
   * The default and largest bound on how deeply a stored inline result may nest ({@link JsonValues#MAX_DEPTH}: every
   * ZeoCore JSON reader and deep copy refuses more).
   */
  public static final int DEFAULT_MAX_RESULT_DEPTH = JsonValues.MAX_DEPTH;

  private final ReadStore store;
  private final ExactAuthorizationVerifier verifier;
  private final Timestamps timestamps;
  private final int maxResultDepth;
  private final List<ReadListener> listeners;

  /** An orchestrator on the system UTC clock. */
  public ReadOrchestrator(ReadStore store, ExactAuthorizationVerifier verifier) {
    this(builder(store, verifier));
  }

  /** An orchestrator whose instants come from {@code clock} (made strictly increasing). */
  public ReadOrchestrator(ReadStore store, ExactAuthorizationVerifier verifier, InstantSource clock) {
    this(builder(store, verifier).clock(clock));
  }

  private ReadOrchestrator(Builder builder) {
    this.store = builder.store;
    this.verifier = builder.verifier;
    this.timestamps = new Timestamps(builder.clock);
    this.maxResultDepth = builder.maxResultDepth;
    this.listeners = List.copyOf(builder.listeners);
  }

  public static Builder builder(ReadStore store, ExactAuthorizationVerifier verifier) {
    return new Builder(store, verifier);
  }

  /** Configures an {@link ReadOrchestrator}. */
  public static final class Builder {

    private final ReadStore store;
    private final ExactAuthorizationVerifier verifier;
    private InstantSource clock = Clock.systemUTC();
    private int maxResultDepth = DEFAULT_MAX_RESULT_DEPTH;
    private final List<ReadListener> listeners = new ArrayList<>();

    private Builder(ReadStore store, ExactAuthorizationVerifier verifier) {
      this.store = Objects.requireNonNull(store, "store");
      this.verifier = Objects.requireNonNull(verifier, "verifier");
    }

    /** The source of instants (default: the system UTC clock); readings are made strictly increasing. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * How deeply an inline result may nest to be stored (a map or list of scalars nests 1 level); a deeper one ends
     * the read {@code FAILED_SAFE} with nothing stored. Its size is bounded by the connector revision's
     * {@code response_size_limit_bytes}.
     *
     * @throws InvalidFieldException unless {@code 1 <= depth <= }{@link #DEFAULT_MAX_RESULT_DEPTH}
     */
    public Builder maxResultDepth(int depth) {
      if (depth < 1 || depth > DEFAULT_MAX_RESULT_DEPTH) {
        throw new InvalidFieldException("maxResultDepth", "must be between 1 and " + DEFAULT_MAX_RESULT_DEPTH);
      }
      this.maxResultDepth = depth;
      return this;
    }

    /** Adds a listener told how each {@code observe} call goes. */
    public Builder listener(ReadListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    public ReadOrchestrator build() {
      return new ReadOrchestrator(this);
    }
  }

  /** How deeply a stored inline result may nest (see {@link Builder#maxResultDepth}). */
  public int maxResultDepth() {
    return maxResultDepth;
  }

  /**
   * Runs one read. See the class documentation for the exact steps.
   *
   * @param organizationId the trusted organization
   * @param connectionId the connection the caller intends to read through
   * @param connectorRevision the revision the caller intends to use
   * @param operationId the read operation
   * @param authorization the authority's authorization, or {@code null}
   * @param readId the caller's id for this read
   * @param requestBody the exact bytes the authorization's digest covers; never persisted
   * @param dispatcher called at most once, after the claim is durable
   * @throws ReadPreflightException if an authorized request fails a preflight check (nothing persisted)
   * @throws ConnectionStoreException if the store fails
   */
  public ReadResult read(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, @Nullable EffectAuthorization authorization,
      ReadId readId, byte[] requestBody, ReadDispatcher dispatcher) {
    require(organizationId, "organization_id");
    require(connectionId, "connection_id");
    require(connectorRevision, "connector_revision");
    require(operationId, "operation_id");
    require(readId, "observation_id");
    require(requestBody, "request_body");
    require(dispatcher, "dispatcher");
    List<ReadListener.ReadScope> scopes = started(operationId, readId);
    ReadResult result;
    try {
      result = observeOnce(organizationId, connectionId, connectorRevision, operationId, authorization,
          readId, requestBody, dispatcher);
    } catch (RuntimeException thrown) {
      for (int i = scopes.size() - 1; i >= 0; i--) {
        ReadListener.ReadScope scope = scopes.get(i);
        quietly(() -> scope.threw(thrown));
      }
      throw thrown;
    }
    for (int i = scopes.size() - 1; i >= 0; i--) {
      ReadListener.ReadScope scope = scopes.get(i);
      quietly(() -> scope.returned(result));
    }
    return result;
  }

  private List<ReadListener.ReadScope> started(OperationId operationId, ReadId readId) {
    if (listeners.isEmpty()) {
      return List.of();
    }
    List<ReadListener.ReadScope> scopes = new ArrayList<>(listeners.size());
    for (ReadListener listener : listeners) {
      quietly(() -> scopes.add(listener.readStarted(operationId, readId)));
    }
    return scopes;
  }

  /** Runs a listener's callback; whatever it throws is logged by type and dropped. */
  private static void quietly(Runnable callback) {
    try {
      callback.run();
    } catch (Throwable e) { // deliberately every Throwable: no listener may change an read's path
      LOG.warn("observation listener failed: {}", e.getClass().getName());
    }
  }

  private ReadResult observeOnce(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, @Nullable EffectAuthorization authorization,
      ReadId readId, byte[] requestBody, ReadDispatcher dispatcher) {
    if (authorization == null) {
      return ReadResult.refused(AuthorizationRefusalReason.ABSENT);
    }
    byte[] body = requestBody.clone();
    String requestDigest = Digests.requestDigest(body);
    Instant now = timestamps.next();
    AuthorizationVerdict verdict = verifier.verify(authorization, organizationId, connectionId, connectorRevision,
        operationId, requestDigest, now, store);
    if (!verdict.authorized()) {
      if (verdict.refusalReason() == AuthorizationRefusalReason.REPLAYED) {
        Optional<ReadRecord> existing = store.getReadByIdempotency(organizationId, connectionId,
            connectorRevision, operationId, authorization.idempotencyKey());
        if (existing.isPresent() && existing.get().requestDigest().equals(requestDigest)) {
          return stored(organizationId, existing.get());
        }
      }
      return ReadResult.refused(
          Objects.requireNonNull(verdict.refusalReason(), "a refused verdict carries its reason"));
    }

    ConnectorPreflight.Passed passed = ConnectorPreflight.check(store, organizationId, connectionId,
        connectorRevision, operationId, body, REJECTIONS);
    Connection connection = passed.connection();
    ConnectorRevision revision = passed.revision();
    BusinessOperation operation = passed.operation();
    if (operation.effect() != EffectKind.READ) {
      throw REJECTIONS.rejected(PreflightCode.EFFECTFUL_OPERATION);
    }
    if (operation.resourceArgument() != null) {
      Optional<String> resource = passed.admitted().stringField(operation.resourceArgument());
      if (resource.isEmpty() || !connection.selectedBusinessResources().contains(resource.get())) {
        throw REJECTIONS.rejected(PreflightCode.BUSINESS_RESOURCE_NOT_SELECTED);
      }
    }

    Instant createdAt = timestamps.next(now);
    ReadRecord claimed = new ReadRecord(readId, organizationId, authorization.connectionId(),
        authorization.connectorRevision(), authorization.operationId(), authorization.authorizationId(),
        authorization.idempotencyKey(), Digests.authorizationDigest(authorization), requestDigest,
        ReadState.CLAIMED, createdAt, null);
    ReadClaim claim = store.claimRead(organizationId, claimed, authorization.nonce());
    if (!claim.claimed()) {
      ReadRecord existing = claim.read();
      if (!existing.requestDigest().equals(requestDigest)) {
        return ReadResult.refused(AuthorizationRefusalReason.REQUEST_DIGEST_MISMATCH);
      }
      return stored(organizationId, existing);
    }

    ReadReceipt receipt = observeOnce(organizationId, claimed, connection, revision, body, dispatcher);
    ReadRecord completed = claimed.complete(receipt);
    try {
      store.commitRead(organizationId, completed, receipt);
    } catch (ConnectionStoreException unstorable) {
      if (receipt.finalState() != ReadState.CONFIRMED) {
        throw unstorable;
      }
      // the result itself could not be stored: the claim still ends, FAILED_SAFE, with no result kept
      LOG.debug("observation {} result could not be stored: {}", readId, unstorable.getMessage());
      receipt = unavailable(organizationId, claimed, NOT_STORED_MESSAGE);
      completed = claimed.complete(receipt);
      store.commitRead(organizationId, completed, receipt);
    }
    return new ReadResult(completed.state(), readId, receipt, null);
  }

  /** The {@code FAILED_SAFE} receipt, with {@code PROVIDER_UNAVAILABLE} and {@code message}, of a claimed read. */
  private ReadReceipt unavailable(OrganizationId organizationId, ReadRecord claimed, String message) {
    return failedSafe(organizationId, claimed, new NormalizedError(NormalizedErrorCode.PROVIDER_UNAVAILABLE, message));
  }

  /** The {@code FAILED_SAFE} receipt, carrying {@code error}, of a claimed read; recorded after the claim. */
  private ReadReceipt failedSafe(OrganizationId organizationId, ReadRecord claimed,
      NormalizedError error) {
    return new ReadReceipt(claimed.readId(), organizationId, claimed.connectionId(),
        ReadState.FAILED_SAFE, claimed.requestDigest(), null, null, null, error,
        timestamps.next(claimed.createdAt()));
  }

  private ReadReceipt observeOnce(OrganizationId organizationId, ReadRecord claimed,
      Connection connection, ConnectorRevision revision, byte[] body, ReadDispatcher dispatcher) {
    ReadDispatchRequest request = new ReadDispatchRequest(organizationId, connection, revision,
        claimed.operationId(), claimed.readId(), claimed.requestDigest(), body);
    ReadReceipt receipt = null;
    try {
      ReadDispatchResult result = dispatcher.read(request);
      if (result != null) {
        receipt = receiptFor(organizationId, claimed, revision, result);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception | StackOverflowError | AssertionError | LinkageError e) {
      // whatever the dispatcher (or an unbuildable result) throws after the claim ends the read FAILED_SAFE
      LOG.debug("observation {} did not complete: {}", claimed.readId(), e.getClass().getName());
    }
    if (receipt == null) {
      receipt = unavailable(organizationId, claimed, UNAVAILABLE_MESSAGE);
    }
    return receipt;
  }

  /** The receipt for a dispatcher result, or {@code null} when the result must be rejected. */
  private @Nullable ReadReceipt receiptFor(OrganizationId organizationId, ReadRecord claimed,
      ConnectorRevision revision, ReadDispatchResult result) {
    if (result.disposition() == ReadDisposition.FAILED_SAFE) {
      return failedSafe(organizationId, claimed,
          Objects.requireNonNull(result.normalizedError(), "a FAILED_SAFE result carries its error"));
    }
    String resultDigest;
    Object inlineResult = result.inlineResult();
    if (inlineResult != null) {
      if (hasSecretShapedKey(inlineResult)) {
        LOG.debug("observation {} returned a secret-shaped key; result discarded", claimed.readId());
        return null;
      }
      if (JsonValues.depth(inlineResult) > maxResultDepth) {
        LOG.debug("observation {} returned a result nested deeper than {} levels; result discarded",
            claimed.readId(), maxResultDepth);
        return null;
      }
      byte[] canonical = CanonicalJson.bytes(inlineResult);
      if (canonical.length > revision.responseSizeLimitBytes()) {
        return null;
      }
      resultDigest = Digests.SHA256_PREFIX + Digests.sha256Hex(canonical);
    } else {
      ReadArtifact artifact = Objects.requireNonNull(result.artifact(), "a CONFIRMED result carries one of the two");
      if (artifact.sizeBytes() > revision.responseSizeLimitBytes()) {
        return null;
      }
      resultDigest = artifact.contentSha256();
    }
    return new ReadReceipt(claimed.readId(), organizationId, claimed.connectionId(),
        ReadState.CONFIRMED, claimed.requestDigest(), resultDigest, result.inlineResult(), result.artifact(),
        null, timestamps.next(claimed.createdAt()));
  }

  static boolean hasSecretShapedKey(Object value) {
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (SECRET_SHAPED_KEYS.contains(String.valueOf(entry.getKey()).toLowerCase(Locale.ROOT))
            || hasSecretShapedKey(entry.getValue())) {
          return true;
        }
      }
    } else if (value instanceof List<?> list) {
      for (Object element : list) {
        if (hasSecretShapedKey(element)) {
          return true;
        }
      }
    }
    return false;
  }

  private ReadResult stored(OrganizationId organizationId, ReadRecord record) {
    ReadReceipt receipt = record.state() == ReadState.CLAIMED ? null
        : store.getReadReceipt(organizationId, record.readId()).orElse(null);
    return new ReadResult(record.state(), record.readId(), receipt, null);
  }

  private static void require(Object value, String name) {
    if (value == null) {
      throw new IllegalArgumentException(name + " is required");
    }
  }
}
