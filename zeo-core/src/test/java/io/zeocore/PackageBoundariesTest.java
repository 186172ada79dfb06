package io.zeocore;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The package structure of DESIGN.md §2, checked on the compiled classes of zeo-core (the runner). */
class PackageBoundariesTest {

  private static JavaClasses core;

  @BeforeAll
  static void importCore() {
    core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.zeocore");
  }

  @Test
  void theRunnerDependsOnNoSpringNoDatabaseAndNoCryptography() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("org.springframework..", "org.flywaydb..", "org.sqlite..", "org.postgresql..",
            "org.bouncycastle..", "java.sql..")
        .check(core);
  }

  @Test
  void runnerKnowsNothingOfItsTargetsOrOfEffects() {
    dependsOnNoneOf("io.zeocore.execution",
        "io.zeocore.subprocess..", "io.zeocore.llm..", "io.zeocore.capability..");
  }

  @Test
  void topLevelPackagesAreFreeOfCycles() {
    slices().matching("io.zeocore.(*)..").should().beFreeOfCycles().check(core);
  }

  @Test
  void internalHelpersDependOnNothingElseOfZeoCore() {
    dependsOnNoneOf("io.zeocore.internal",
        "io.zeocore.execution..", "io.zeocore.subprocess..", "io.zeocore.llm..", "io.zeocore.capability..");
  }

  @Test
  void noGrabBagClasses() {
    noClasses().should().haveSimpleNameEndingWith("Util").orShould().haveSimpleNameEndingWith("Utils")
        .orShould().haveSimpleNameEndingWith("Helper").orShould().haveSimpleNameEndingWith("Helpers")
        .check(core);
  }

  /** No class in {@code packageName} (an ArchUnit package pattern) depends on a class in any of {@code packages}. */
  private static void dependsOnNoneOf(String packageName, String... packages) {
    noClasses().that().resideInAPackage(packageName).should().dependOnClassesThat().resideInAnyPackage(packages)
        .check(core);
  }
}
