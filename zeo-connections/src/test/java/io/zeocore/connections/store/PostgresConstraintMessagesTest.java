package io.zeocore.connections.store;

import static io.zeocore.connections.store.RawSchemaSql.strings;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The PostgreSQL strategy's constraint-name → message map against the migrated schema's catalogue: every unique or
 * primary-key constraint and every unique index that an insert by the store can violate has its words, and every
 * entry of the map names a constraint or unique index that exists (no stale entries).
 */
class PostgresConstraintMessagesTest {

  /**
   * Keys no store insert can collide on, so they need no words: surrogate {@code sequence} keys, the fixed transition
   * table, and connections (saved by upsert on their key).
   */
  private static final List<String> WITHOUT_WORDS = List.of("evidence_references_pkey", "receipts_pkey",
      "execution_transitions_pkey", "connections_pkey",
      "target_health_pkey"); // written only by upsert and conditional update: never a conflict to explain

  @RegisterExtension
  static final PostgresTestSchema schema = PostgresTestSchema.migrated();

  @Test
  void everyUniqueConstraintAndIndexHasItsMessageAndEveryMessageItsConstraint() throws Exception {
    try (Connection raw = schema.connect()) {
      List<String> constraints = strings(raw, "SELECT c.conname FROM pg_catalog.pg_constraint c"
          + " JOIN pg_catalog.pg_namespace n ON n.oid = c.connamespace"
          + " WHERE n.nspname = '" + schema.name() + "' AND c.contype IN ('p', 'u') ORDER BY c.conname");
      List<String> uniqueIndexes = strings(raw, "SELECT i.relname FROM pg_catalog.pg_index x"
          + " JOIN pg_catalog.pg_class i ON i.oid = x.indexrelid"
          + " JOIN pg_catalog.pg_namespace n ON n.oid = i.relnamespace"
          + " WHERE n.nspname = '" + schema.name() + "' AND x.indisunique"
          + " AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint c WHERE c.conindid = x.indexrelid)"
          + " ORDER BY i.relname");
      List<String> catalogue = new java.util.ArrayList<>(constraints);
      catalogue.addAll(uniqueIndexes);
      catalogue.remove("zeocore_schema_history_pk");

      assertThat(constraints).contains("executions_pkey", "observations_idempotency_identity");
      assertThat(uniqueIndexes).contains("executions_idempotency_identity", "receipts_one_outcome");
      assertThat(catalogue).containsAll(WITHOUT_WORDS);
      assertThat(catalogue).as("every entry of the map names an existing constraint or unique index")
          .containsAll(PostgresDialect.INSTANCE.constraintMessages().keySet());
      List<String> needingWords = catalogue.stream().filter(name -> !WITHOUT_WORDS.contains(name)).toList();
      assertThat(PostgresDialect.INSTANCE.constraintMessages().keySet())
          .as("every unique constraint and unique index has its words")
          .containsExactlyInAnyOrderElementsOf(needingWords);
      assertThat(PostgresDialect.INSTANCE.constraintMessages().values()).allSatisfy(words ->
          assertThat(words).isNotBlank().doesNotContain("?").doesNotContain("%"));
    }
  }
}
