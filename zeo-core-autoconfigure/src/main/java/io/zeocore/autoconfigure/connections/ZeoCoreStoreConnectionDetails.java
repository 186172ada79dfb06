package io.zeocore.autoconfigure.connections;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Where ZeoCore's own store database is: a JDBC URL ({@code jdbc:postgresql:…} or {@code jdbc:sqlite:…}) and its
 * credentials. By default they come from {@code zeocore.connections.store.url}, {@code .username} and
 * {@code .password}; a bean of this type replaces them, which is how a service connection supplies them: a
 * Testcontainers container or a Docker Compose service declared for ZeoCore's store, e.g.
 *
 * <pre>{@code
 * @Bean
 * ZeoCoreStoreConnectionDetails zeoCoreStore(PostgreSQLContainer postgres) {
 *   return ZeoCoreStoreConnectionDetails.of(postgres.getJdbcUrl(), postgres.getUsername(), postgres.getPassword());
 * }
 * }</pre>
 *
 * A bean of this type also switches the store on by itself (no {@code zeocore.connections.*} property needed), and
 * takes precedence over {@code store.url}, {@code store.datasource} and {@code store.path}. The store then opens a pool
 * of its own on that URL as for {@code store.url} ({@code store.pool-size} applies).
 */
public interface ZeoCoreStoreConnectionDetails extends ConnectionDetails {

  /** The store's JDBC URL, never {@code null} or blank. */
  String getJdbcUrl();

  /** The user the store connects as, or {@code null} for the driver's default. */
  default @Nullable String getUsername() {
    return null;
  }

  /** The password, or {@code null}. Never logged. */
  default @Nullable String getPassword() {
    return null;
  }

  /** Details of a fixed URL and credentials. */
  static ZeoCoreStoreConnectionDetails of(String jdbcUrl, @Nullable String username, @Nullable String password) {
    return new FixedStoreConnectionDetails(jdbcUrl, username, password);
  }
}
