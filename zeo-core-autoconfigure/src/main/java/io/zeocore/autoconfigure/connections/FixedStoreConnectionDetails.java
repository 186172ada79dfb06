package io.zeocore.autoconfigure.connections;

import org.jspecify.annotations.Nullable;

/**
 * {@link ZeoCoreStoreConnectionDetails} of a fixed URL and credentials. Its string form names neither the URL (which
 * may carry credentials) nor the password.
 */
final class FixedStoreConnectionDetails implements ZeoCoreStoreConnectionDetails {

  private final String jdbcUrl;
  private final @Nullable String username;
  private final @Nullable String password;

  FixedStoreConnectionDetails(String jdbcUrl, @Nullable String username, @Nullable String password) {
    if (jdbcUrl == null || jdbcUrl.isBlank()) {
      throw new IllegalArgumentException("the store's JDBC URL must not be blank");
    }
    this.jdbcUrl = jdbcUrl;
    this.username = username;
    this.password = password;
  }

  @Override
  public String getJdbcUrl() {
    return jdbcUrl;
  }

  @Override
  public @Nullable String getUsername() {
    return username;
  }

  @Override
  public @Nullable String getPassword() {
    return password;
  }

  @Override
  public String toString() {
    return "ZeoCoreStoreConnectionDetails[user=" + username + "]";
  }
}
