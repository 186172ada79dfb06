package io.zeocore.connections.store;

import static io.zeocore.connections.contract.ContractFixtures.EXECUTION;
import static io.zeocore.connections.contract.ContractFixtures.KEY;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.contract.EffectRecord;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store on the embedded SQLite file: the shared scenarios plus what only a file-backed store has. */
class JdbcConnectionStoreTest extends AbstractJdbcConnectionStoreTest {

  @TempDir
  Path temp;

  @Override
  JdbcConnectionStore openStore() {
    return JdbcConnectionStore.builder().sqliteFile(temp.resolve("zeocore.db"))
        .evidenceIds(new SequentialUuids()).build();
  }

  @Test
  void reportsTheDatabaseFileItsModesAndAClosedDatabase() {
    StoreInfo info = store.info();
    assertThat(info.reachable()).isTrue();
    assertThat(info.dialect()).isEqualTo(Dialect.SQLITE);
    assertThat(info.schema()).isNull();
    assertThat(info.schemaVersion()).isEqualTo("10");
    assertThat(info.databaseFile()).isEqualTo(temp.resolve("zeocore.db").toAbsolutePath());
    assertThat(info.fileModes()).containsEntry("zeocore.db", "rw-------");
    assertThat(info.failure()).isNull();

    store.close();
    StoreInfo closed = store.info();
    assertThat(closed.reachable()).isFalse();
    assertThat(closed.failure()).contains("closed");
  }

  @Test
  void opensTheSameFileThroughAJdbcUrlAndTheSchemaIsNotMigratedTwice() {
    store.claimEffect(ORG, "n1", toDispatchStarted(EXECUTION, KEY));
    try (JdbcConnectionStore second = JdbcConnectionStore.forJdbcUrl(
        "jdbc:sqlite:" + temp.resolve("zeocore.db"), null, null)) {
      assertThat(second.getEffect(ORG, EXECUTION)).isPresent();
      assertThat(second.info().schemaVersion()).isEqualTo("10");
    }
    assertThatThrownBy(() -> JdbcConnectionStore.forJdbcUrl("jdbc:sqlite::memory:", null, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("plain file path");
    assertThatThrownBy(() -> JdbcConnectionStore.forJdbcUrl("jdbc:mysql://db/secret-password", null, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("secret-password");
  }

  @Test
  void worksOnAnApplicationDataSource() throws Exception {
    org.sqlite.SQLiteDataSource dataSource = new org.sqlite.SQLiteDataSource();
    dataSource.setUrl("jdbc:sqlite:" + temp.resolve("app.db"));
    dataSource.setEnforceForeignKeys(true);
    try (JdbcConnectionStore appStore = JdbcConnectionStore.forDataSource(dataSource)) {
      assertThat(appStore.dialect()).isEqualTo(Dialect.SQLITE);
      assertThat(appStore.databaseFile()).isEmpty();
      List<EffectRecord> snapshots = toDispatchStarted(EXECUTION, KEY);
      assertThat(appStore.claimEffect(ORG, "n1", snapshots).claimed()).isTrue();
      assertThat(appStore.claimEffect(ORG, "n1", snapshots).claimed()).isFalse();
      assertThat(appStore.getEffectHistory(ORG, EXECUTION)).containsExactlyElementsOf(snapshots);
      assertThat(appStore.info().fileModes()).isEmpty();
    }
  }

  @Test
  void aSchemaNameIsRefusedForSqlite() {
    assertThatThrownBy(() -> JdbcConnectionStore.builder().sqliteFile(temp.resolve("other.db")).schema("zeocore")
        .build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PostgreSQL only");
  }
}
