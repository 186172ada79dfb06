package io.zeocore.connections.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * New physical connections to a JDBC URL through {@link DriverManager}, one per {@link #getConnection()} call, each
 * closed for good by its caller. The store migrates its schema through these (so that a migration never leaves session
 * settings on a pooled connection) and its {@link UrlSessionPool} opens its connections with them. The password is
 * kept only in the driver's properties: {@link #toString()} and every message name neither it nor the URL.
 */
final class UrlSessions implements OwnedDataSource {

  private final String url;
  private final Dialect dialect;
  private final Properties credentials = new Properties();

  UrlSessions(String url, @Nullable String user, @Nullable String password) {
    this.url = url;
    this.dialect = Dialect.fromJdbcUrl(url);
    if (user != null) {
      credentials.setProperty("user", user);
    }
    if (password != null) {
      credentials.setProperty("password", password);
    }
  }

  @Override
  public Connection getConnection() throws SQLException {
    return DriverManager.getConnection(url, credentials);
  }

  @Override
  public String toString() {
    return "UrlSessions[" + dialect + "]";
  }
}
