package io.zeocore.connections.effect;

import io.zeocore.connections.store.Dialect;
import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.connections.store.PostgresTestSchema;
import io.zeocore.connections.store.SequentialUuids;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The same recovery scenarios on PostgreSQL, staleness judged by the server's clock. */
class PostgresEffectRecoveryTest extends EffectRecoveryTest {

  @RegisterExtension
  static final PostgresTestSchema schema = PostgresTestSchema.migrated();

  @Override
  EffectWorld openWorld() {
    return new EffectWorld(JdbcConnectionStore.builder()
        .dataSource(PostgresTestSchema.newDataSource(), Dialect.POSTGRESQL).schema(schema.name())
        .evidenceIds(new SequentialUuids()).migrate(false).build());
  }
}
