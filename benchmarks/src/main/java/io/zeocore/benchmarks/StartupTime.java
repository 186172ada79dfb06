package io.zeocore.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Item 6, a plain measurement: start-up of {@link io.zeocore.benchmarks.startup.MinimalBootApp} in fresh JVMs, without
 * ZeoCore (Spring Boot's own starter only) and with ZeoCore's starter and its SQLite store switched on
 * ({@code zeocore.connections.store.path}), once on a fresh database file (created and migrated during start-up) and
 * once on the file an earlier start left (the usual restart). Variants take turns, rotating which goes first, after
 * one unmeasured start of each. Every start must report whether the store exists, as expected for its variant.
 *
 * <p>Time is the app's own reading: milliseconds from the JVM's start (its {@code RuntimeMXBean} start time) to
 * {@code SpringApplication.run} returning. Both variants run with the same JVM and flags, banner off and logging at WARN.
 * Prints one JSON object.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.zeocore.benchmarks.StartupTime <classpath-without-starter file>
 * <classpath-with-starter file> <app classes directory> <work directory> [starts per variant]}
 */
public final class StartupTime {

  private static final Pattern READY = Pattern.compile("\\{\"readyMs\":(\\d+),\"beanDefinitions\":(\\d+),"
      + "\"zeocoreStore\":(true|false)}");
  private static final String APP = "io.zeocore.benchmarks.startup.MinimalBootApp";

  private final String java = ProcessHandle.current().info().command().orElse("java");
  private final String withoutStarter;
  private final String withStarter;
  private final Path work;

  private StartupTime(String withoutStarter, String withStarter, Path work) {
    this.withoutStarter = withoutStarter;
    this.withStarter = withStarter;
    this.work = work;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 4) {
      throw new IllegalArgumentException("usage: StartupTime <classpath-without-starter file> "
          + "<classpath-with-starter file> <app classes directory> <work directory> [starts per variant]");
    }
    String classes = Path.of(args[2]).toAbsolutePath().toString();
    String without = classes + ":" + Files.readString(Path.of(args[0])).trim();
    String with = classes + ":" + Files.readString(Path.of(args[1])).trim();
    Path work = Files.createDirectories(Path.of(args[3]));
    int starts = args.length > 4 ? Integer.parseInt(args[4]) : 10;
    System.out.println(new StartupTime(without, with, work).measure(starts));
  }

  private String measure(int starts) throws IOException, InterruptedException {
    List<String> variants = List.of("withoutStarter", "withStarterFreshStore", "withStarterExistingStore");
    Map<String, List<Long>> ready = new LinkedHashMap<>();
    Map<String, Long> beans = new LinkedHashMap<>();
    for (String variant : variants) {
      ready.put(variant, new ArrayList<>());
      start(variant, beans); // unmeasured: warms the file cache; leaves a store for the "existing" variant
    }
    for (int i = 0; i < starts; i++) {
      for (int turn = 0; turn < variants.size(); turn++) {
        String variant = variants.get((i + turn) % variants.size());
        ready.get(variant).add(start(variant, beans));
      }
    }
    String lists = ready.entrySet().stream()
        .map(e -> "\"" + e.getKey() + "Ms\":" + e.getValue())
        .collect(Collectors.joining(","));
    String medians = ready.entrySet().stream()
        .map(e -> String.format(Locale.ROOT, "\"%sMedianMs\":%.0f", e.getKey(), median(e.getValue())))
        .collect(Collectors.joining(","));
    String counts = beans.entrySet().stream()
        .map(e -> "\"" + e.getKey() + "BeanDefinitions\":" + e.getValue())
        .collect(Collectors.joining(","));
    double base = median(ready.get("withoutStarter"));
    return String.format(Locale.ROOT, "{\"starts\":%d,%s,%s,%s,\"freshStoreRatio\":%.3f,\"existingStoreRatio\":%.3f,"
            + "\"java\":\"%s\"}", starts, lists, medians, counts, median(ready.get("withStarterFreshStore")) / base,
        median(ready.get("withStarterExistingStore")) / base, System.getProperty("java.version"));
  }

  /** One start of {@code variant}; returns its milliseconds to ready. */
  private long start(String variant, Map<String, Long> beans) throws IOException, InterruptedException {
    boolean starter = !variant.equals("withoutStarter");
    Path store = work.resolve("store").resolve("zeocore.db");
    if (variant.equals("withStarterFreshStore")) {
      deleteTree(work.resolve("store"));
    }
    List<String> command = new ArrayList<>(List.of(java, "-Xms256m", "-Xmx256m", "-cp",
        starter ? withStarter : withoutStarter, APP, "--spring.main.banner-mode=off", "--logging.level.root=WARN"));
    if (starter) {
      command.add("--zeocore.connections.store.path=" + store);
    }
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output;
    try (InputStream out = process.getInputStream()) {
      output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
    }
    int exit = process.waitFor();
    Matcher line = READY.matcher(output);
    if (exit != 0 || !line.find()) {
      throw new IllegalStateException(variant + ": the app did not start (exit " + exit + "):\n" + output);
    }
    if (Boolean.parseBoolean(line.group(3)) != starter) {
      throw new IllegalStateException(variant + ": ZeoCore's store " + (starter ? "missing" : "present"));
    }
    beans.put(variant, Long.parseLong(line.group(2)));
    return Long.parseLong(line.group(1));
  }

  private static void deleteTree(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toArray(Path[]::new)) {
        Files.delete(path);
      }
    }
  }

  private static double median(List<Long> values) {
    long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
  }
}
