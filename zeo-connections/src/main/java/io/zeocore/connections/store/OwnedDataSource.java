package io.zeocore.connections.store;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DataSource} the store builds for itself from a JDBC URL and never hands out: only
 * {@link #getConnection()} is meant to be used; the rest of the interface is answered the same way by both kinds.
 */
sealed interface OwnedDataSource extends DataSource permits UrlSessions, UrlSessionPool {

  /** Credentials belong to the URL's configuration; connecting as someone else is not supported. */
  @Override
  default java.sql.Connection getConnection(String username, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException("the ZeoCore store connects with its configured credentials only");
  }

  @Override
  default @Nullable PrintWriter getLogWriter() {
    return null;
  }

  @Override
  default void setLogWriter(@Nullable PrintWriter out) {}

  /** The driver's connect timeout comes from the URL (for PostgreSQL {@code connectTimeout}, in seconds). */
  @Override
  default void setLoginTimeout(int seconds) {}

  @Override
  default int getLoginTimeout() {
    return 0;
  }

  @Override
  default Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("no java.util.logging logger");
  }

  @Override
  default <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("not a wrapper for " + iface.getName());
  }

  @Override
  default boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
