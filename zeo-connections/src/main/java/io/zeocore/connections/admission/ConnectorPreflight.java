package io.zeocore.connections.admission;

import io.zeocore.connections.contract.BusinessOperation;
import io.zeocore.connections.contract.Connection;
import io.zeocore.connections.contract.ConnectionId;
import io.zeocore.connections.contract.ConnectionStatus;
import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ConnectorRevisionId;
import io.zeocore.connections.contract.OperationId;
import io.zeocore.connections.contract.OrganizationId;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.read.ReadOrchestrator;
import io.zeocore.connections.store.ConnectionStore;
import org.jspecify.annotations.Nullable;

/**
 * The preflight checks that {@link EffectOrchestrator} and {@link ReadOrchestrator} share, in the order they
 * run: the connection is active, it pins the requested revision, the revision is stored, the body is within the
 * revision's request size limit, the connector admission rules pass for the connection and the operation request, and
 * the operation exists and is exposed by the connection. Each orchestrator then checks the operation's effect kind
 * (and reads the business resource) itself.
 *
 * <p>Every rejection is thrown as the orchestrator's own exception type with the orchestrator's own phrase, through
 * its {@link Rejections}. Nothing is persisted and nothing but the two store reads happens here.
 */
public final class ConnectorPreflight {

  /** How one orchestrator rejects: its exception type and its phrase for each code. */
  public interface Rejections {

    /** The rejection for {@code code} (never {@link PreflightCode#ADMISSION_REFUSED}). */
    RuntimeException rejected(PreflightCode code);

    /** The {@link PreflightCode#ADMISSION_REFUSED} rejection, keeping {@code cause}. */
    RuntimeException admissionRefused(AdmissionException cause);
  }

  /** What passed the shared checks. */
  public record Passed(Connection connection, ConnectorRevision revision, BusinessOperation operation,
      AdmittedRequest admitted) {}

  /**
   * The last (connection, revision) pair that passed {@link ConnectorAdmission#validateConnectionAdmission}, by identity.
   * Both are immutable records and the check is a pure function of them, so the same two instances (which the store's
   * parse cache hands out while neither changes) need not be checked again; any other pair is checked.
   */
  private record Admitted(Connection connection, ConnectorRevision revision) {}

  private static volatile @Nullable Admitted lastAdmitted;

  private ConnectorPreflight() {}

  /**
   * Runs the shared checks.
   *
   * @throws RuntimeException the first failing check's rejection from {@code rejections}
   */
  public static Passed check(ConnectionStore store, OrganizationId organizationId, ConnectionId connectionId,
      ConnectorRevisionId connectorRevision, OperationId operationId, byte[] body, Rejections rejections) {
    return check(store.getConnection(organizationId, connectionId).orElse(null), store, organizationId,
        connectorRevision, operationId, body, rejections);
  }

  /**
   * Runs the shared checks on {@code connection} as given (read by the caller earlier, or {@code null} for none
   * stored) instead of reading it; the revision is still read from {@code store}. A caller that passes a connection
   * it read earlier must make sure it is still the stored one when it acts on the result (the effect orchestrator
   * claims with {@code EffectStore.claimEffect(..., connection)}, which refuses a changed one).
   *
   * @throws RuntimeException the first failing check's rejection from {@code rejections}
   */
  public static Passed check(@Nullable Connection connection, ConnectionStore store, OrganizationId organizationId,
      ConnectorRevisionId connectorRevision, OperationId operationId, byte[] body, Rejections rejections) {
    if (connection == null || connection.status() != ConnectionStatus.ACTIVE) {
      throw rejections.rejected(PreflightCode.CONNECTION_NOT_ACTIVE);
    }
    if (!connection.connectorRevision().equals(connectorRevision)) {
      throw rejections.rejected(PreflightCode.CONNECTION_REVISION_MISMATCH);
    }
    ConnectorRevision revision = store.getConnectorRevision(organizationId, connectorRevision)
        .orElseThrow(() -> rejections.rejected(PreflightCode.CONNECTOR_REVISION_UNAVAILABLE));
    if (body.length > revision.requestSizeLimitBytes()) {
      throw rejections.rejected(PreflightCode.REQUEST_TOO_LARGE);
    }
    AdmittedRequest admitted;
    try {
      Admitted last = lastAdmitted;
      if (last == null || last.connection() != connection || last.revision() != revision) {
        ConnectorAdmission.validateConnectionAdmission(connection, revision);
        lastAdmitted = new Admitted(connection, revision);
      }
      admitted = ConnectorAdmission.validateOperationRequest(revision, operationId, body);
    } catch (AdmissionException e) {
      throw rejections.admissionRefused(e);
    }
    BusinessOperation operation = revision.findOperation(operationId)
        .filter(op -> connection.exposes(operationId))
        .orElseThrow(() -> rejections.rejected(PreflightCode.OPERATION_NOT_EXPOSED));
    return new Passed(connection, revision, operation, admitted);
  }
}
