package io.zeocore.classpath;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every package of every module's main code is {@code @NullMarked} (its {@code package-info.java} says so): a
 * parameter, component or return value that may be {@code null} says so with {@code @Nullable}.
 */
class EveryPackageIsNullMarkedTest {

  /** The repository, from this module's directory ({@code classpath-checks/checks}). */
  private static final Path REPOSITORY = Path.of("..", "..").toAbsolutePath().normalize();

  @Test
  void everyMainPackageOfEveryModuleIsNullMarked() throws IOException {
    List<Path> packages;
    try (Stream<Path> files = Files.walk(REPOSITORY)) {
      packages = files.filter(file -> file.toString().endsWith(".java"))
          .filter(file -> file.toString().contains("/src/main/java/") && !file.toString().contains("/target/"))
          .map(Path::getParent).distinct().toList();
    }

    assertThat(packages).as("main packages found").hasSizeGreaterThan(30);
    assertThat(packages).allSatisfy(directory -> {
      Path info = directory.resolve("package-info.java");
      assertThat(info).as("%s has a package-info.java", REPOSITORY.relativize(directory)).exists();
      assertThat(Files.readString(info)).as("%s is @NullMarked", REPOSITORY.relativize(directory))
          .contains("@NullMarked");
    });
  }
}
