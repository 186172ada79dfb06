package io.zeocore.autoconfigure.actuate;

import io.zeocore.connections.store.SqliteDatabase;
import io.zeocore.connections.store.StoreInfo;
import io.zeocore.connections.store.StoreIntrospection;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of ZeoCore's effect store: {@code UP} when the database answers and its schema is migrated, {@code DOWN}
 * otherwise. Details: {@code dialect}, {@code schemaVersion}, and for the embedded SQLite store the {@code file}, the
 * {@code fileModes} of the file and its side files and {@code fileModesPrivate} (whether all are {@code rw-------}),
 * and for a store on a PostgreSQL URL its own {@code sessionPool} ({@code max}, {@code active}, {@code idle},
 * {@code pending}). Never shows a JDBC URL, user name or password.
 */
public class ZeoCoreHealthIndicator extends AbstractHealthIndicator {

  private static final String PRIVATE_MODE = PosixFilePermissions.toString(SqliteDatabase.FILE_MODE);

  private final StoreIntrospection store;

  public ZeoCoreHealthIndicator(StoreIntrospection store) {
    super("ZeoCore store health check failed");
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    StoreInfo info = store.info();
    builder.withDetail("dialect", info.dialect().name().toLowerCase(Locale.ROOT));
    if (info.schemaVersion() != null) {
      builder.withDetail("schemaVersion", info.schemaVersion());
    }
    if (info.databaseFile() != null) {
      builder.withDetail("file", info.databaseFile().toString());
    }
    if (!info.fileModes().isEmpty()) {
      builder.withDetail("fileModes", info.fileModes());
      builder.withDetail("fileModesPrivate", info.fileModes().values().stream().allMatch(PRIVATE_MODE::equals));
    }
    store.sessionPool().ifPresent(pool -> builder.withDetail("sessionPool", Map.of("max", pool.max(),
        "active", pool.active(), "idle", pool.idle(), "pending", pool.pending())));
    if (!info.reachable()) {
      builder.down().withDetail("failure", String.valueOf(info.failure()));
    } else if (info.schemaVersion() == null) {
      builder.down().withDetail("failure", "schema not migrated");
    } else {
      builder.up();
    }
  }
}
