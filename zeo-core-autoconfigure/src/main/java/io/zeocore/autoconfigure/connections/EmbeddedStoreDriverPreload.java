package io.zeocore.autoconfigure.connections;

import io.zeocore.connections.store.SqliteDatabase;
import java.sql.SQLException;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * Starts loading the embedded store's SQLite driver — its classes and its native library — and
 * {@linkplain SqliteDatabase#warmUp() warming up} the store's opening path (a connection to a private in-memory
 * database, the shipped migrations' checksums) on a background thread as soon as
 * the environment is known, so that the context is created and refreshed meanwhile and the store, opened later on the
 * main thread, does not wait for it. Only when the store will be ZeoCore's own SQLite file (some
 * {@code zeocore.connections} setting other than an off-switch, as for the store itself, and no {@code store.url}, no
 * {@code store.datasource: application}). It opens no file and decides nothing: a failure here is ignored, and
 * opening the store still happens, and still stops start-up when it fails, on the main thread.
 */
public final class EmbeddedStoreDriverPreload implements EnvironmentPostProcessor {

  private static final String DRIVER = "org.sqlite.JDBC";
  /** zeo-connections' SQLite database: absent from an application of the runner alone. */
  private static final String STORE_CLASS = "io.zeocore.connections.store.SqliteDatabase";
  private static final String STORE = "zeocore.connections.store.";

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
    ClassLoader loader = application.getClassLoader();
    if (!embeddedStore(environment) || !ClassUtils.isPresent(DRIVER, loader)
        || !ClassUtils.isPresent(STORE_CLASS, loader)) {
      return;
    }
    Thread preload = new Thread(() -> {
      try {
        Class.forName(DRIVER, true, loader);
        SqliteDatabase.warmUp();
      } catch (ReflectiveOperationException | SQLException | LinkageError | RuntimeException ignored) {
        // opening the store reports whatever is wrong
      }
    }, "zeocore-sqlite-preload");
    preload.setDaemon(true);
    preload.start();
  }

  /** Whether the environment configures ZeoCore's own SQLite store. */
  static boolean embeddedStore(ConfigurableEnvironment environment) {
    boolean enabled = environment.getProperty("zeocore.connections.enabled", Boolean.class, true);
    return enabled && ConfiguredCondition.isConfigured(environment, "zeocore.connections")
        && environment.getProperty(STORE + "url") == null
        && environment.getProperty(STORE + "datasource", "embedded").equalsIgnoreCase("embedded");
  }
}
