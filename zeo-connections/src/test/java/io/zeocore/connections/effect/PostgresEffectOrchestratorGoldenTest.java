package io.zeocore.connections.effect;

import io.zeocore.connections.store.Dialect;
import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.connections.store.PostgresTestSchema;
import io.zeocore.connections.store.SequentialUuids;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The same scenario table on PostgreSQL: the orchestrator writes through one store instance, and every assertion reads
 * through a second instance on its own data source, as another application instance would.
 */
class PostgresEffectOrchestratorGoldenTest extends EffectOrchestratorGoldenTest {

  @RegisterExtension
  static final PostgresTestSchema schema = PostgresTestSchema.migrated();

  private JdbcConnectionStore otherInstance;

  static JdbcConnectionStore instance() {
    return JdbcConnectionStore.builder().dataSource(PostgresTestSchema.newDataSource(), Dialect.POSTGRESQL)
        .schema(schema.name()).evidenceIds(new SequentialUuids()).migrate(false).build();
  }

  @Override
  EffectWorld openWorld() {
    return new EffectWorld(instance());
  }

  @Override
  JdbcConnectionStore reader() {
    if (otherInstance == null) {
      otherInstance = instance();
    }
    return otherInstance;
  }

  @AfterEach
  void closeOtherInstance() {
    if (otherInstance != null) {
      otherInstance.close();
    }
  }
}
