package io.zeocore.connections;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The package structure of DESIGN.md §2, checked on the compiled classes of zeo-connections. */
class ConnectionsPackageBoundariesTest {

  private static JavaClasses core;

  @BeforeAll
  static void importCore() {
    core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.zeocore.connections");
  }

  @Test
  void connectionsDependOnNoSpring() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("org.springframework..").check(core);
  }

  @Test
  void effectOrchestrationNeverUsesTheReadOnlyRunnerOrItsTargets() {
    noClasses().that().resideInAPackage("io.zeocore.connections..")
        .and().doNotHaveFullyQualifiedName("io.zeocore.connections.store.TargetHealthRows")
        .and().doNotHaveFullyQualifiedName("io.zeocore.connections.store.JdbcConnectionStore")
        .should().dependOnClassesThat().resideInAnyPackage(
            "io.zeocore.execution..", "io.zeocore.subprocess..", "io.zeocore.llm..", "io.zeocore.capability..")
        .check(core);
  }

  @Test
  void theStoreServesTheRunnersTargetHealthThroughItsPortOnly() {
    classes().that().haveFullyQualifiedName("io.zeocore.connections.store.TargetHealthRows")
        .or().haveFullyQualifiedName("io.zeocore.connections.store.JdbcConnectionStore")
        .should().onlyDependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.not(
            com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage("io.zeocore.execution..",
                "io.zeocore.subprocess..", "io.zeocore.llm..", "io.zeocore.capability..")
        ).or(com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf(
            io.zeocore.execution.TargetHealthStore.class, io.zeocore.execution.FailureKind.class)))
        .check(core);
  }

  @Test
  void connectionsPackagesAreFreeOfCycles() {
    slices().matching("io.zeocore.connections.(*)..").should().beFreeOfCycles().check(core);
  }

  @Test
  void theContractDependsOnNoMachinery() {
    dependsOnNoneOf("io.zeocore.connections.contract",
        "io.zeocore.connections.effect..", "io.zeocore.connections.read..", "io.zeocore.connections.store..",
        "io.zeocore.connections.admission..", "io.zeocore.connections.authorization..",
        "io.zeocore.connections.custody..");
  }

  @Test
  void internalHelpersDependOnNoOtherConnectionsPackage() {
    dependsOnNoneOf("io.zeocore.connections.internal",
        "io.zeocore.connections.contract..", "io.zeocore.connections.effect..", "io.zeocore.connections.read..",
        "io.zeocore.connections.store..", "io.zeocore.connections.admission..",
        "io.zeocore.connections.authorization..", "io.zeocore.connections.custody..");
  }

  @Test
  void noGrabBagClasses() {
    noClasses().should().haveSimpleNameEndingWith("Util").orShould().haveSimpleNameEndingWith("Utils")
        .orShould().haveSimpleNameEndingWith("Helper").orShould().haveSimpleNameEndingWith("Helpers")
        .check(core);
  }

  @Test
  void storeExposesItsPortsAndEntryPointsOnly() {
    classes().that().resideInAPackage("io.zeocore.connections.store").and().areTopLevelClasses()
        .and().arePublic()
        .should().haveSimpleName("ConnectionStore").orShould().haveSimpleName("EffectStore")
        .orShould().haveSimpleName("EffectRecoveryStore").orShould().haveSimpleName("ReadStore")
        .orShould().haveSimpleName("EffectClaim").orShould().haveSimpleName("ReadClaim")
        .orShould().haveSimpleName("RecoveryCandidate").orShould().haveSimpleName("ConnectionStoreException")
        .orShould().haveSimpleName("ConnectionChangedException")
        .orShould().haveSimpleName("StoreIntrospection").orShould().haveSimpleName("StoreInfo")
        .orShould().haveSimpleName("SessionPoolStats")
        .orShould().haveSimpleName("JdbcConnectionStore").orShould().haveSimpleName("SqliteDatabase")
        .orShould().haveSimpleName("ZeoCoreSchema").orShould().haveSimpleName("Dialect")
        .check(core);
  }

  /** No class in {@code packageName} (an ArchUnit package pattern) depends on a class in any of {@code packages}. */
  private static void dependsOnNoneOf(String packageName, String... packages) {
    noClasses().that().resideInAPackage(packageName).should().dependOnClassesThat().resideInAnyPackage(packages)
        .check(core);
  }
}
