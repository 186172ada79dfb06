package io.zeocore.connections.store;

import org.junit.jupiter.api.extension.RegisterExtension;

/** Target health rows in one PostgreSQL schema shared by two store instances (two pools). */
class PostgresTargetHealthRowsTest extends AbstractTargetHealthRowsTest {

  @RegisterExtension
  static final PostgresTestSchema schema = PostgresTestSchema.migrated();

  @Override
  JdbcConnectionStore openStore() {
    return JdbcConnectionStore.builder().dataSource(PostgresTestSchema.newDataSource(), Dialect.POSTGRESQL)
        .schema(schema.name()).migrate(false).build();
  }
}
