package io.zeocore.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ResilientExecutionResult;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.io.support.SpringFactoriesLoader;

/** The runtime hints every application with the starter gets for Spring AOT and native images. */
class ZeoCoreRuntimeHintsTests {

  private static RuntimeHints hints(ClassLoader classLoader) {
    RuntimeHints hints = new RuntimeHints();
    new ZeoCoreRuntimeHints().registerHints(hints, classLoader);
    return hints;
  }

  @Test
  void theRegistrarIsDeclaredForAotProcessing() {
    assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
        .load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(ZeoCoreRuntimeHints.class);
  }

  @Test
  void theStoresMigrationsTheirIndexTheKeyModelAndTheSqliteLibraryAreResources() {
    RuntimeHints hints = hints(getClass().getClassLoader());

    assertThat(RuntimeHintsPredicates.resource().forResource("db/zeocore/sqlite/V1__connections.sql")).accepts(hints);
    assertThat(RuntimeHintsPredicates.resource().forResource("db/zeocore/postgresql/migrations.txt"))
        .accepts(hints);
    assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/spring-configuration-metadata.json"))
        .accepts(hints);
    assertThat(RuntimeHintsPredicates.resource().forResource("org/sqlite/native/Linux/x86_64/libsqlitejdbc.so"))
        .accepts(hints);
  }

  @Test
  void theContractsAndTheRunnersEvidenceAreBoundByJackson() {
    RuntimeHints hints = hints(getClass().getClassLoader());

    for (Class<?> type : new Class<?>[] {EffectAuthorization.class, EffectRecord.class, ResilientExecutionResult.class,
        AttemptRecord.class}) {
      assertThat(RuntimeHintsPredicates.reflection().onType(type)
          .withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)).as(type.getName()).accepts(hints);
    }
  }

  @Test
  void aRunnerOnlyApplicationGetsNoHintsForConnections() {
    RuntimeHints hints = hints(new FilteredClassLoader("io.zeocore.connections."));

    assertThat(RuntimeHintsPredicates.resource().forResource("db/zeocore/sqlite/V1__connections.sql"))
        .rejects(hints);
    assertThat(RuntimeHintsPredicates.reflection().onType(EffectRecord.class)).rejects(hints);
    assertThat(RuntimeHintsPredicates.reflection().onType(AttemptRecord.class)).accepts(hints);
  }
}
