package io.zeocore.connections.store;

import io.zeocore.connections.contract.EffectState;
import java.util.Map;
import java.util.Optional;

/**
 * What operators may ask of a store, across organizations and read-only: whether it is reachable, its schema
 * version, how many effects are in each state, and how busy its own connection pool is. Health indicators,
 * endpoints and metrics use this port, so a store of the application's own that implements it gets them too.
 *
 * <p>Answers carry identifiers of the store (dialect, schema, file, modes) and counts, never stored values.
 */
public interface StoreIntrospection {

  /**
   * Reachability, schema version and, for an embedded file, its modes. Never throws for an unreachable database:
   * the answer says it is unreachable.
   */
  StoreInfo info();

  /**
   * How many effects are in each state, across organizations; every state is present (zero when none).
   *
   * @throws ConnectionStoreException if the database cannot be read
   */
  Map<EffectState, Long> effectCountsByState();

  /**
   * The connection pool the store owns, when it owns one (ZeoCore's store on a PostgreSQL URL); empty otherwise: an
   * embedded file has one writer connection, and an application's data source reports its own pool (HikariCP's
   * metrics, for example). Counts only, read without touching the database.
   */
  default Optional<SessionPoolStats> sessionPool() {
    return Optional.empty();
  }
}
