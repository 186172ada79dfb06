package io.zeocore.connections.effect;

import io.zeocore.EffectKind;
import io.zeocore.connections.admission.AdmissionException;
import io.zeocore.connections.admission.ConnectorPreflight;
import io.zeocore.connections.admission.PreflightCode;
import io.zeocore.connections.authorization.AuthorizationNonceLookup;
import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.contract.AuthorizationRefusalReason;
import io.zeocore.connections.contract.AuthorizationVerdict;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.internal.Timestamps;
import io.zeocore.connections.store.ConnectionChangedException;
import io.zeocore.connections.store.ConnectionStoreException;
import io.zeocore.connections.store.EffectClaim;
import io.zeocore.connections.store.EffectStore;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Runs one effect (a write, a payment, a message) durably: the authorization is verified exactly, the effect is
 * persisted before the provider is entered, the dispatcher is called at most once per idempotency identity, ever, and
 * every outcome is an append-only receipt. An unknown outcome is recorded {@code AMBIGUOUS} and handed to a reconciler;
 * it is never dispatched again.
 *
 * <h2>{@link #execute}, step by step</h2>
 * <ol>
 *   <li>No authorization: {@code REFUSED}/{@code ABSENT}, nothing persisted.
 *   <li>Request digest {@code sha256:<hex>} over the raw body bytes, verification at the next instant. The nonce,
 *       the verifier's last check, is not looked up here: the claim (step 6) takes it in its own transaction and
 *       refuses a used one. It is looked up only where no claim answers — after a preflight rejection and after a
 *       claim refused with no effect of this identity — so that a used nonce is still {@code REPLAYED} before any
 *       preflight rejection, as if it had been looked up first; an authorized effect makes no read for it.
 *   <li>Refused without authentication (the issuer is not trusted or the signature does not verify, whatever the
 *       first failing check was): {@code REFUSED} with the reason and no effect id; <b>nothing is persisted</b>, the
 *       refusal is only counted ({@link #unauthenticatedRefusals()}) and logged by reason code, so that whoever can
 *       reach the orchestrator cannot grow the store.
 *   <li>Refused with authentication: a {@code REPLAYED} authorization whose identity has an effect for the same
 *       request digest returns that effect's current state (the idempotent replay; no new record). Every other
 *       refusal is persisted in one
 *       transaction ({@code CREATED → REFUSED} and a {@code REFUSED} receipt with {@code REQUEST_REFUSED} and the
 *       reason) that neither consumes the nonce nor occupies the idempotency identity; sending it again records
 *       nothing new. The result carries the reason and the effect id when a refusal is stored under it.
 *   <li>Preflight (throws {@link EffectPreflightException}, nothing persisted): connection active, pinned revision,
 *       revision stored, body size, connector admission, operation exposed, operation not {@code read}. The checks
 *       run on the connection this orchestrator last read for that organization and id (no read; the revision is
 *       immutable and cached by the store), and a check that fails there is decided again on a fresh read, so a
 *       rejection is always the stored connection's.
 *   <li><b>First durable commit</b>: the nonce, the idempotency identity and the snapshots {@code CREATED},
 *       {@code AUTHORIZATION_VERIFIED}, {@code PREPARED}, {@code DISPATCH_STARTED} (strictly increasing instants) in one
 *       transaction, which holds the connection the checks ran on
 *       ({@link EffectStore#claimEffect(OrganizationId, String, List, io.zeocore.connections.contract.Connection)}):
 *       if the stored connection is no longer that one, nothing is written, the connection is read and checked
 *       again and the claim made with it (at most three reads; then the store's
 *       {@link io.zeocore.connections.store.ConnectionChangedException} is thrown, nothing persisted). If the identity
 *       is taken, the existing effect's state is returned without dispatching; reusing an identity with a different
 *       request digest is refused with {@code REQUEST_DIGEST_MISMATCH}.
 *   <li>Dispatch, once, on the calling thread, after that commit. EFFECTFUL work never goes through the read-only
 *       {@link io.zeocore.execution.ResilientRunner}: there is no retry, no timeout wrapper, no fallback.
 *   <li><b>Second durable commit</b>: {@code CONFIRMED} → {@code SUCCEEDED} with confirmation evidence and receipt;
 *       {@code FAILED_SAFE} → {@code FAILED_SAFE} receipt, the reconciler is never called;
 *       {@link DispatchNotStartedException} → {@code FAILED_SAFE} with its error (nothing reached the provider); any
 *       other exception or a {@code null} result → {@code AMBIGUOUS} receipt (exception text discarded), then one
 *       reconciliation whose {@code CONFIRMED}/{@code FAILED_SAFE} resolves the ambiguity with a receipt pointing at
 *       it, and whose no-result/{@code UNRESOLVED} appends an attempt receipt and returns {@code AMBIGUOUS}
 *       ({@link EffectRecovery} retries later). An interrupted dispatcher is recorded {@code AMBIGUOUS}, the interrupt
 *       flag is restored and reconciliation is left to recovery.
 * </ol>
 * A crash between the two commits leaves {@code DISPATCH_STARTED}, which {@link EffectRecovery} treats as ambiguous.
 * Every state change is a compare-and-set; if another process (recovery) moved the effect on first, its state is
 * returned. A store failure propagates, leaving the last committed state.
 *
 * <h2>Time</h2>
 * With a clock fixed at {@code T}: verification at {@code T}, {@code CREATED} at {@code T+1µs} (the nonce is recorded
 * at the same instant), then {@code T+2}, {@code T+3}, {@code DISPATCH_STARTED} at {@code T+4µs}, the outcome or the
 * ambiguity at {@code T+5µs}, a resolution or attempt at {@code T+6µs}; a refusal is {@code CREATED T+1µs},
 * {@code REFUSED T+2µs}. (The reference records the nonce at its own instant, one microsecond earlier than each later
 * step here.)
 *
 * <p>Thread-safe; one instance serves any number of concurrent effects. {@link EffectListener}s are called after
 * each commit.
 */
public final class EffectOrchestrator {

  /** The verifier's nonce lookup for {@link #execute}: the claim checks the nonce itself (see {@link #replayed}). */
  private static final AuthorizationNonceLookup NONCE_LEFT_TO_THE_CLAIM = (organizationId, nonce) -> false;

  private final EffectStore store;
  private final ExactAuthorizationVerifier verifier;
  private final Timestamps timestamps;
  private final Listeners listeners;
  private final EffectOutcomes outcomes;
  private final RefusalCounter unauthenticated = new RefusalCounter();
  private final CheckedConnections checkedConnections = new CheckedConnections();
  /** Reads of the connection one effect makes at most when its claims keep finding it changed. */
  private static final int MAX_CONNECTION_READS = 3;

  /** An orchestrator on the system UTC clock, without listeners. */
  public EffectOrchestrator(EffectStore store, ExactAuthorizationVerifier verifier) {
    this(builder(store, verifier));
  }

  private EffectOrchestrator(Builder builder) {
    this.store = builder.store;
    this.verifier = builder.verifier;
    this.timestamps = new Timestamps(builder.clock);
    this.listeners = new Listeners(builder.listeners);
    this.outcomes = new EffectOutcomes(store, timestamps, listeners);
  }

  public static Builder builder(EffectStore store, ExactAuthorizationVerifier verifier) {
    return new Builder(store, verifier);
  }

  /** Configures an {@link EffectOrchestrator}. */
  public static final class Builder {

    private final EffectStore store;
    private final ExactAuthorizationVerifier verifier;
    private InstantSource clock = Clock.systemUTC();
    private final List<EffectListener> listeners = new ArrayList<>();

    private Builder(EffectStore store, ExactAuthorizationVerifier verifier) {
      this.store = Objects.requireNonNull(store, "store");
      this.verifier = Objects.requireNonNull(verifier, "verifier");
    }

    /** The source of instants (default: the system UTC clock); readings are made strictly increasing. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Adds a listener told about every committed transition and receipt. */
    public Builder listener(EffectListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    public EffectOrchestrator build() {
      return new EffectOrchestrator(this);
    }
  }

  /**
   * Executes one effect. See the class documentation for the exact steps.
   *
   * @param organizationId the trusted organization (runtime context, never caller input)
   * @param connectionId the connection the caller intends to use
   * @param connectorRevision the revision the caller intends to use
   * @param operationId the operation the caller intends to run
   * @param authorization the authority's authorization, or {@code null}
   * @param effectId the caller's id for this effect
   * @param requestBody the exact bytes the authorization's digest covers; never persisted
   * @param dispatcher called at most once, after {@code DISPATCH_STARTED} is durable
   * @param reconciler called at most once here when the dispatch outcome is unknown; must never re-issue the effect
   * @return the state reached (terminal, {@code AMBIGUOUS}, or the current state of an existing effect)
   * @throws EffectPreflightException if an authorized request fails a preflight check (nothing persisted)
   * @throws ConnectionStoreException if the store fails; the effect keeps its last committed state
   */
  public EffectResult execute(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, @Nullable EffectAuthorization authorization,
      EffectId effectId, byte[] requestBody, EffectDispatcher dispatcher, EffectReconciler reconciler) {
    require(organizationId, "organization_id");
    require(connectionId, "connection_id");
    require(connectorRevision, "connector_revision");
    require(operationId, "operation_id");
    require(effectId, "execution_id");
    require(requestBody, "request_body");
    require(dispatcher, "dispatcher");
    require(reconciler, "reconciler");
    EffectListener.ExecuteScope scope = listeners.executeStarted(operationId, effectId);
    EffectResult result;
    try {
      result = executeOnce(organizationId, connectionId, connectorRevision, operationId, authorization, effectId,
          requestBody, dispatcher, reconciler);
    } catch (RuntimeException thrown) {
      scope.threw(thrown);
      throw thrown;
    }
    scope.returned(result);
    return result;
  }

  private EffectResult executeOnce(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, @Nullable EffectAuthorization authorization,
      EffectId effectId, byte[] requestBody, EffectDispatcher dispatcher, EffectReconciler reconciler) {
    if (authorization == null) {
      return new EffectResult(EffectState.REFUSED, null, AuthorizationRefusalReason.ABSENT);
    }
    byte[] body = requestBody.clone();
    String requestDigest = Digests.requestDigest(body);
    Instant now = timestamps.next();
    // every check but the nonce's: the claim below takes the nonce in the same transaction as the effect and
    // refuses a used one, so the nonce is looked up only where the claim cannot answer first (see replayed)
    AuthorizationVerdict verdict = verifier.verify(authorization, organizationId, connectionId, connectorRevision,
        operationId, requestDigest, now, NONCE_LEFT_TO_THE_CLAIM);
    if (!verdict.authorized()) {
      AuthorizationRefusalReason reason =
          Objects.requireNonNull(verdict.refusalReason(), "a refused verdict carries its reason");
      if (!authenticated(reason, authorization)) {
        unauthenticated.count(reason);
        return new EffectResult(EffectState.REFUSED, null, reason);
      }
      return refused(organizationId, authorization, effectId, requestDigest, reason);
    }

    // the checks run on the connection this orchestrator last read, and the claim holds it: a changed connection
    // fails the claim (nothing written) and the checks run again on a fresh read, as does any check that fails here
    ConnectorPreflight.Passed preflight = null;
    Connection known = checkedConnections.get(organizationId, connectionId);
    if (known != null) {
      try {
        preflight = ConnectorPreflight.check(known, store, organizationId, connectorRevision, operationId, body,
            REJECTIONS);
        checkEffectKind(preflight);
      } catch (RuntimeException decideOnAFreshRead) {
        checkedConnections.forget(organizationId, connectionId);
        preflight = null;
      }
    }
    List<EffectRecord> snapshots = claimSnapshots(organizationId, authorization, effectId, requestDigest, now);
    EffectClaim claim;
    for (int read = 1; ; read++) {
      if (preflight == null) {
        try {
          preflight = preflight(organizationId, connectionId, connectorRevision, operationId, body);
        } catch (RuntimeException failed) {
          if (replayed(organizationId, authorization, failed)) {
            return refused(organizationId, authorization, effectId, requestDigest,
                AuthorizationRefusalReason.REPLAYED);
          }
          throw failed;
        }
        checkedConnections.remember(organizationId, preflight.connection());
      }
      try {
        claim = store.claimEffect(organizationId, authorization.nonce(), snapshots, preflight.connection());
        break;
      } catch (ConnectionChangedException changed) {
        checkedConnections.forget(organizationId, connectionId);
        if (read >= MAX_CONNECTION_READS) {
          throw changed;
        }
        preflight = null;
      } catch (ConnectionStoreException failed) {
        // the nonce was taken by no effect of this identity (a read, another identity): a replay
        if (replayed(organizationId, authorization, failed)) {
          return refused(organizationId, authorization, effectId, requestDigest,
              AuthorizationRefusalReason.REPLAYED);
        }
        throw failed;
      }
    }
    if (!claim.claimed()) {
      EffectRecord existing = claim.effect();
      if (!existing.requestDigest().equals(requestDigest)) {
        return refused(organizationId, authorization, effectId, requestDigest,
            AuthorizationRefusalReason.REQUEST_DIGEST_MISMATCH);
      }
      return new EffectResult(existing.state(), existing.effectId(), null);
    }
    listeners.chain(snapshots);
    EffectRecord started = claim.effect();

    EffectDispatchRequest request = new EffectDispatchRequest(organizationId, preflight.connection(),
        preflight.revision(), authorization.operationId(), effectId, authorization.idempotencyKey(),
        requestDigest, body);
    EffectDispatchResult result;
    try {
      result = dispatcher.dispatch(request);
    } catch (DispatchNotStartedException notStarted) {
      return outcomes.commitNotStarted(organizationId, started, notStarted.normalizedError());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return ambiguousOnly(organizationId, started);
    } catch (Exception | Error unknown) {
      // the outcome is unknown; the exception text is deliberately dropped
      if (unknown instanceof VirtualMachineError vmError) {
        ambiguousOnly(organizationId, started);
        throw vmError;
      }
      return ambiguousThenReconcile(organizationId, started, request, reconciler);
    }
    if (result == null) {
      return ambiguousThenReconcile(organizationId, started, request, reconciler);
    }
    return outcomes.commitDispatchResult(organizationId, started, result);
  }

  /**
   * Whether {@code authorization}'s nonce is taken. The nonce is the verifier's last check, so a used one answers
   * {@code REPLAYED} before any preflight rejection and before the claim; the claim takes the nonce in its own
   * transaction and refuses a used one, so this lookup is made only where no claim answered: after a preflight
   * rejection, and after a claim refused with no effect of this identity to return. If the lookup itself fails,
   * {@code failure} (what the step answered) is thrown, with the lookup's failure suppressed in it.
   */
  private boolean replayed(OrganizationId organizationId, EffectAuthorization authorization,
      RuntimeException failure) {
    try {
      return store.hasAuthorizationNonce(organizationId, authorization.nonce());
    } catch (RuntimeException lookup) {
      failure.addSuppressed(lookup);
      throw failure;
    }
  }

  /**
   * Whether a refused authorization is authentic (trusted issuer, verifying signature): the verifier checks the
   * signature after the intent, issuer and validity window, so a refusal for one of those is authentic only if the
   * signature is checked now; {@code SIGNATURE_UNVERIFIABLE} and {@code ISSUER_UNTRUSTED} never are; {@code REPLAYED}
   * is checked after the signature, so it always is.
   */
  private boolean authenticated(AuthorizationRefusalReason reason, EffectAuthorization authorization) {
    return switch (reason) {
      case SIGNATURE_UNVERIFIABLE, ISSUER_UNTRUSTED, ABSENT -> false;
      case REPLAYED -> true;
      default -> verifier.authenticates(authorization);
    };
  }

  /**
   * How many refusals of unauthenticated authorizations (untrusted issuer, a signature that does not verify) this
   * orchestrator answered since it was created, by reason. They are counted here and logged (by reason code only, at
   * {@code WARN} the 1st, 2nd, 4th, 8th… time per reason, otherwise at {@code DEBUG}) but never stored: the store
   * grows only with authenticated input. {@code ABSENT} (no authorization) is not counted.
   */
  public Map<AuthorizationRefusalReason, Long> unauthenticatedRefusals() {
    return unauthenticated.snapshot();
  }

  private EffectResult ambiguousOnly(OrganizationId organizationId, EffectRecord started) {
    EffectOutcomes.Ambiguity ambiguity = outcomes.recordAmbiguity(organizationId, started);
    return ambiguity != null
        ? new EffectResult(EffectState.AMBIGUOUS, started.effectId(), null)
        : currentState(organizationId, started.effectId());
  }

  private EffectResult ambiguousThenReconcile(OrganizationId organizationId, EffectRecord started,
      EffectDispatchRequest request, EffectReconciler reconciler) {
    EffectOutcomes.Ambiguity ambiguity = outcomes.recordAmbiguity(organizationId, started);
    if (ambiguity == null) {
      return currentState(organizationId, started.effectId());
    }
    return outcomes.reconcile(organizationId, ambiguity, ambiguity.recordedAt(), reconciler,
        EffectReconciliationRequest.afterDispatch(request, ambiguity.dispatchStartedAt()));
  }

  private EffectResult currentState(OrganizationId organizationId, EffectId effectId) {
    EffectRecord stored = store.getEffect(organizationId, effectId)
        .orElseThrow(() -> new ConnectionStoreException("execution does not exist in organization"));
    return new EffectResult(stored.state(), stored.effectId(), null);
  }

  private List<EffectRecord> claimSnapshots(OrganizationId organizationId, EffectAuthorization authorization,
      EffectId effectId, String requestDigest, Instant verifiedAt) {
    EffectRecord created = created(organizationId, authorization, effectId, requestDigest,
        timestamps.next(verifiedAt));
    EffectRecord verified = created.transitionTo(EffectState.AUTHORIZATION_VERIFIED,
        timestamps.next(created.updatedAt()));
    EffectRecord prepared = verified.transitionTo(EffectState.PREPARED, timestamps.next(verified.updatedAt()));
    EffectRecord started = prepared.transitionTo(EffectState.DISPATCH_STARTED, timestamps.next(prepared.updatedAt()));
    return List.of(created, verified, prepared, started);
  }

  /**
   * The {@code CREATED} snapshot of the effect {@code authorization} allows: its identity fields come from the
   * authorization, its digests are the whole authorization's and {@code requestDigest}, and it was created and last
   * updated at {@code createdAt}.
   */
  private static EffectRecord created(OrganizationId organizationId, EffectAuthorization authorization,
      EffectId effectId, String requestDigest, Instant createdAt) {
    return new EffectRecord(effectId, organizationId, authorization.connectionId(),
        authorization.connectorRevision(), authorization.operationId(), authorization.authorizationId(),
        authorization.idempotencyKey(), Digests.authorizationDigest(authorization), requestDigest,
        EffectState.CREATED, createdAt, createdAt, null);
  }

  /**
   * A refusal. A {@code REPLAYED} authorization whose identity already has an effect for this request returns it;
   * everything else is persisted as a refused effect (one transaction, identity and nonce left free).
   */
  private EffectResult refused(OrganizationId organizationId, EffectAuthorization authorization,
      EffectId effectId, String requestDigest, AuthorizationRefusalReason reason) {
    if (reason == AuthorizationRefusalReason.REPLAYED) {
      Optional<EffectRecord> existing = store.getEffectByIdempotency(organizationId, authorization.connectionId(),
          authorization.connectorRevision(), authorization.operationId(), authorization.idempotencyKey());
      if (existing.isPresent()) {
        if (existing.get().requestDigest().equals(requestDigest)) {
          return new EffectResult(existing.get().state(), existing.get().effectId(), null);
        }
        reason = AuthorizationRefusalReason.REQUEST_DIGEST_MISMATCH;
      }
    }
    EffectRecord created = created(organizationId, authorization, effectId, requestDigest, timestamps.next());
    EffectRecord refused = created.transitionTo(EffectState.REFUSED, timestamps.next(created.createdAt()));
    EffectReceipt receipt = EffectReceipt.refusal(effectId, organizationId, authorization.connectionId(),
        new NormalizedError(NormalizedErrorCode.REQUEST_REFUSED, "authorization refused: " + reason.name()),
        refused.updatedAt());
    List<EffectRecord> snapshots = List.of(created, refused);
    store.recordRefusal(organizationId, snapshots, receipt);
    Optional<EffectRecord> stored = store.getEffect(organizationId, effectId);
    if (stored.isEmpty() || stored.get().state() != EffectState.REFUSED) {
      // the effect id names another effect: nothing was recorded for this refusal
      return new EffectResult(EffectState.REFUSED, null, reason);
    }
    if (stored.get().equals(refused)) {
      listeners.chain(snapshots);
      listeners.receipt(receipt);
    }
    return new EffectResult(EffectState.REFUSED, effectId, reason);
  }

  /** This orchestrator's preflight rejections, with the reference's phrases. */
  private static final ConnectorPreflight.Rejections REJECTIONS = new ConnectorPreflight.Rejections() {
    @Override
    public RuntimeException rejected(PreflightCode code) {
      return new EffectPreflightException(code, switch (code) {
        case CONNECTION_NOT_ACTIVE -> "connection is not active in organization";
        case CONNECTION_REVISION_MISMATCH -> "connection revision does not match authorization";
        case CONNECTOR_REVISION_UNAVAILABLE -> "connector revision is unavailable";
        case REQUEST_TOO_LARGE -> "request exceeds connector revision size limit";
        case OPERATION_NOT_EXPOSED -> "business operation is not exposed";
        case READ_ONLY_OPERATION -> "read-only operations do not use effect orchestration";
        case ADMISSION_REFUSED, EFFECTFUL_OPERATION, BUSINESS_RESOURCE_NOT_SELECTED ->
            throw new IllegalArgumentException("not an effect preflight rejection: " + code);
      });
    }

    @Override
    public RuntimeException admissionRefused(AdmissionException cause) {
      return new EffectPreflightException("connector admission refused execution", cause);
    }
  };

  private ConnectorPreflight.Passed preflight(OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, byte[] body) {
    ConnectorPreflight.Passed passed = ConnectorPreflight.check(store, organizationId, connectionId,
        connectorRevision, operationId, body, REJECTIONS);
    checkEffectKind(passed);
    return passed;
  }

  private static void checkEffectKind(ConnectorPreflight.Passed passed) {
    if (passed.operation().effect() == EffectKind.READ) {
      throw REJECTIONS.rejected(PreflightCode.READ_ONLY_OPERATION);
    }
  }

  private static void require(Object value, String name) {
    if (value == null) {
      throw new IllegalArgumentException(name + " is required");
    }
  }
}
