package io.zeocore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.execution.AttemptOutcome;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.execution.TargetCooldown;
import io.zeocore.execution.TargetHealth;
import io.zeocore.llm.ChatMessage;
import io.zeocore.llm.LlmTargets;
import io.zeocore.llm.OllamaClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Target health shared across instances (issue 38), counted at a real loopback provider. Child JVMs (three on one
 * SQLite file, two on one PostgreSQL schema) run {@code primary → fallback} one run after another while the primary
 * answers every request {@code 429} with {@code Retry-After: 2}:
 *
 * <ul>
 *   <li>without target health, the primary receives one request per run per instance, and each run waits the
 *       Retry-After before it falls back;</li>
 *   <li>with it, after the first 429 (and at most one request per other instance while the cooldown reaches it, a
 *       refresh interval), the primary receives at most one request per cooldown period across all instances: the
 *       probes, each at least the Retry-After after the one before; every run falls back at once (no backoff);</li>
 *   <li>once the primary answers again, one probe reopens it and every instance's runs go back to it.</li>
 * </ul>
 * In one JVM: a cooldown survives a restart on the shared store, and repeated timeouts on one instance cool the target
 * for the other until one probe reopens it.
 */
class TargetHealthAcrossInstancesTest {

  static final String SECTION = "Target health across instances";
  private static final String OK = "{\"model\":\"m\",\"done\":true,\"message\":{\"role\":\"assistant\",\"content\":\"ok\"}}";

  @TempDir
  Path temp;

  private final List<HttpServer> servers = new ArrayList<>();

  @AfterEach
  void stopServers() {
    servers.forEach(server -> server.stop(0));
  }

  /** A loopback provider: records each request's arrival (System.nanoTime) and answers with {@code answer}. */
  private final class Provider {

    final List<Long> requests = new CopyOnWriteArrayList<>();
    volatile Function<Integer, Answer> answer;
    /** When the test made it answer again (System.nanoTime), or {@link Long#MAX_VALUE}. */
    volatile long recoveredAt = Long.MAX_VALUE;
    final int port;

    Provider(Function<Integer, Answer> answer) throws IOException {
      this.answer = answer;
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
      server.createContext("/", this::handle);
      server.setExecutor(Executors.newCachedThreadPool());
      server.start();
      servers.add(server);
      port = server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
      exchange.getRequestBody().readAllBytes();
      requests.add(System.nanoTime());
      Answer reply = answer.apply(requests.size());
      if (reply.delayMillis > 0) {
        try {
          Thread.sleep(reply.delayMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (reply.retryAfter != null) {
        exchange.getResponseHeaders().add("Retry-After", reply.retryAfter);
      }
      byte[] body = reply.body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      try {
        exchange.sendResponseHeaders(reply.status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      } catch (IOException clientGone) {
        // a timed-out client closed the connection
      }
    }
  }

  private record Answer(int status, String body, String retryAfter, long delayMillis) {}

  private static Answer rateLimited() {
    return new Answer(429, "{\"error\":\"slow down\"}", "2", 0);
  }

  private static Answer ok() {
    return new Answer(200, OK, null, 0);
  }

  /** The lines one child wrote, one per run. */
  private record Runs(List<String[]> lines) {

    long count() {
      return lines.size();
    }
  }

  private List<Runs> runChildren(int instances, String store, Provider primary, Provider fallback,
      Duration limitedFor, Duration okFor) throws Exception {
    Path dir = Files.createTempDirectory(temp, "run");
    Path stop = dir.resolve("stop");
    List<Process> children = new ArrayList<>();
    List<Path> results = new ArrayList<>();
    List<Path> reopened = new ArrayList<>();
    try {
      for (int i = 0; i < instances; i++) {
        Path started = dir.resolve("started-" + i);
        Path log = dir.resolve("child-" + i + ".log");
        Path result = dir.resolve("result-" + i);
        results.add(result);
        reopened.add(dir.resolve("reopened-" + i));
        Process child = Children.start(log, TargetHealthChild.class, store, String.valueOf(primary.port),
            String.valueOf(fallback.port), "instance-" + i, started.toString(), stop.toString(), result.toString(),
            reopened.get(i).toString());
        children.add(child);
        Children.awaitFile(child, started, log, 120);
      }
      Thread.sleep(limitedFor.toMillis());
      primary.recoveredAt = System.nanoTime();
      int before = primary.requests.size();
      primary.answer = n -> ok();
      if (!okFor.isZero()) {
        // the first request after the recovery is the probe that reopens the primary (within a cooldown); then each
        // instance reads the reopening from the store (its view says so), however slow this machine is, and runs
        // okFor more
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (primary.requests.size() == before && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        for (Path seen : reopened) {
          while (!Files.exists(seen) && System.nanoTime() < deadline) {
            Thread.sleep(20);
          }
          assertThat(seen).as("an instance saw the primary reopen within a minute of the recovery").exists();
        }
      }
      Thread.sleep(okFor.toMillis());
      Files.writeString(stop, "stop");
      List<Runs> runs = new ArrayList<>();
      for (int i = 0; i < instances; i++) {
        Children.awaitFile(children.get(i), results.get(i), dir.resolve("child-" + i + ".log"), 120);
        assertThat(children.get(i).waitFor(60, TimeUnit.SECONDS)).isTrue();
        runs.add(new Runs(Files.readAllLines(results.get(i)).stream().map(line -> line.split(" ")).toList()));
      }
      return runs;
    } finally {
      children.forEach(Process::destroyForcibly);
    }
  }

  private void sharesTheCooldown(int instances, String store, String where) throws Exception {
    // without target health: every run calls the rate-limited primary and waits its Retry-After
    Provider primary = new Provider(n -> rateLimited());
    Provider fallback = new Provider(n -> ok());
    List<Runs> without = runChildren(instances, "off", primary, fallback, Duration.ofSeconds(5), Duration.ZERO);
    long runsWithout = without.stream().mapToLong(Runs::count).sum();
    assertThat(primary.requests).as("one request per run per instance").hasSize((int) runsWithout);
    assertThat(without.stream().flatMap(r -> r.lines().stream()))
        .allSatisfy(line -> assertThat(Long.parseLong(line[4])).as("waited the Retry-After").isGreaterThanOrEqualTo(2000));

    // with target health on the shared store
    primary = new Provider(n -> rateLimited());
    fallback = new Provider(n -> ok());
    Provider limited = primary;
    List<Runs> with = runChildren(instances, store, primary, fallback, Duration.ofSeconds(9), Duration.ofSeconds(1));
    long runsWith = with.stream().mapToLong(Runs::count).sum();
    List<String[]> all = with.stream().flatMap(r -> r.lines().stream()).toList();
    assertThat(all).allSatisfy(line -> {
      assertThat(line[0]).isEqualTo("succeeded");
      assertThat(Long.parseLong(line[4])).as("no run waits before its fallback").isZero();
    });
    long skipped = all.stream().filter(line -> line[2].equals(AttemptOutcome.SKIPPED.wireValue())).count();
    assertThat(skipped).as("runs that skipped the cooling primary").isGreaterThan(runsWith / 2);
    assertThat(all).filteredOn(line -> line[2].equals("skipped")).allSatisfy(line -> {
      assertThat(line[3]).isEqualTo(FailureKind.RATE_LIMIT.wireValue());
      assertThat(line[1]).isEqualTo("fallback");
    });

    // counted at the server: after the first 429 and the staleness window, one request per cooldown period
    List<Long> limitedRequests = new ArrayList<>();
    List<Long> arrivals = limited.requests;
    long first = arrivals.get(0);
    long onset = first + TimeUnit.MILLISECONDS.toNanos(1_000); // the refresh interval (500 ms) and a read, generously
    long previous = -1;
    int inOnset = 0;
    int probes = 0;
    for (int i = 0; i < arrivals.size(); i++) {
      long at = arrivals.get(i);
      if (previous > limited.recoveredAt) {
        break; // the probe after the recovery reopened the primary: what follows is ordinary traffic
      }
      if (at < onset) {
        inOnset++;
        continue;
      }
      limitedRequests.add(at);
      if (previous > 0) {
        assertThat(TimeUnit.NANOSECONDS.toMillis(at - previous))
            .as("probe %d came at least a cooldown after the one before", i).isGreaterThanOrEqualTo(1_500);
      }
      previous = at;
      probes++;
    }
    assertThat(inOnset).as("the first 429, and at most one request per other instance before it saw the cooldown")
        .isLessThanOrEqualTo(instances);
    // the primary answered again after 9 s: one probe reopened it and every instance went back to it
    for (Runs child : with) {
      String[] last = child.lines().get(child.lines().size() - 1);
      assertThat(last[1]).as("an instance's last run, after the reopen").isEqualTo("primary");
    }
    Figures.record(SECTION, String.format(java.util.Locale.ROOT, "%s, 429 Retry-After: 2: without target health %d"
        + " requests for %d runs; with it %d requests for %d runs (%d in the first second, then one per cooldown)",
        where, runsWithout, runsWithout, inOnset + probes, runsWith,
        inOnset), runsWith, 0, "a run that waited before its fallback, or a provider request within a cooldown of"
        + " the one before");
  }

  @Test
  void threeJvmsOnOneSqliteFileSendTheRateLimitedProviderOneRequestPerCooldown() throws Exception {
    Path file = temp.resolve("shared/zeocore.db");
    JdbcConnectionStore.openSqlite(file).close(); // migrated once, before the instances start
    sharesTheCooldown(3, "sqlite:" + file, "SQLite, 3 JVMs");
  }

  @Test
  void twoJvmsOnOnePostgresSchemaSendTheRateLimitedProviderOneRequestPerCooldown() throws Exception {
    Pg.require(SECTION + " on PostgreSQL");
    String schema = Pg.newSchema();
    try {
      Pg.store(schema).close();
      sharesTheCooldown(2, "pg:" + schema, "PostgreSQL, 2 JVMs");
    } finally {
      Pg.drop(schema);
    }
  }

  private static Map<String, SyncExecutionTarget<String>> targets(Provider primary, Provider fallback,
      Duration timeout) {
    Map<String, SyncExecutionTarget<String>> targets = new LinkedHashMap<>();
    for (var entry : Map.of("primary", primary, "fallback", fallback).entrySet()) {
      OllamaClient client = OllamaClient.builder().baseUrl(URI.create("http://127.0.0.1:" + entry.getValue().port))
          .timeout(timeout).build();
      targets.put(entry.getKey(), LlmTargets.chatTarget(entry.getKey(), client, List.of(ChatMessage.user("hi"))));
    }
    return targets;
  }

  private static final ExecutionPolicy PLAN = ExecutionPolicy.builder().name("answer")
      .totalTimeout(Duration.ofSeconds(20)).attemptTimeout(Duration.ofMillis(300))
      .attemptTargets("primary", "fallback").build();

  /** Attempts long enough for a cold JVM's first HTTP call on a busy machine. */
  private static final ExecutionPolicy PATIENT_PLAN = PLAN.toBuilder().attemptTimeout(Duration.ofSeconds(10)).build();

  @Test
  void aCooldownSurvivesARestartOfEveryInstanceOnTheSharedStore() throws Exception {
    Provider primary = new Provider(n -> new Answer(429, "{}", "60", 0));
    Provider fallback = new Provider(n -> ok());
    Path file = temp.resolve("restart/zeocore.db");
    try (JdbcConnectionStore store = JdbcConnectionStore.openSqlite(file);
        TargetHealth health = TargetHealth.builder().store(store.targetHealth()).build()) {
      ResilientExecutionResult<String> run = ResilientRunner.builder().targetHealth(health).build()
          .runSync(PATIENT_PLAN, targets(primary, fallback, Duration.ofSeconds(5)));
      assertThat(run.attempts().get(0).failureKind()).isEqualTo(FailureKind.RATE_LIMIT);
    } // every instance stops; the writes were flushed on close
    try (JdbcConnectionStore store = JdbcConnectionStore.openSqlite(file);
        TargetHealth health = TargetHealth.builder().store(store.targetHealth()).build()) {
      assertThat(health.states()).singleElement().satisfies(state -> {
        assertThat(state.status()).isEqualTo(TargetHealth.Status.COOLING);
        assertThat(state.coolingLeft()).isGreaterThan(Duration.ofSeconds(30));
      });
      ResilientExecutionResult<String> run = ResilientRunner.builder().targetHealth(health).build()
          .runSync(PATIENT_PLAN, targets(primary, fallback, Duration.ofSeconds(5)));
      assertThat(run.attempts().get(0).outcome()).isEqualTo(AttemptOutcome.SKIPPED);
      assertThat(run.selectedTargetId()).isEqualTo("fallback");
    }
    assertThat(primary.requests).hasSize(1);
  }

  @Test
  void repeatedTimeoutsOnOneInstanceCoolTheTargetForTheOtherUntilOneProbeReopensIt() throws Exception {
    Provider primary = new Provider(n -> new Answer(200, OK, null, 2_000)); // answers too late for the 300 ms attempt
    Provider fallback = new Provider(n -> ok());
    Path file = temp.resolve("timeouts/zeocore.db");
    TargetCooldown threeTimeouts = TargetCooldown.DEFAULT.withFailures(3, Duration.ofSeconds(30),
        Duration.ofSeconds(2));
    try (JdbcConnectionStore storeA = JdbcConnectionStore.openSqlite(file);
        JdbcConnectionStore storeB = JdbcConnectionStore.openSqlite(file);
        TargetHealth a = TargetHealth.builder().store(storeA.targetHealth()).cooldown("primary", threeTimeouts)
            .build();
        TargetHealth b = TargetHealth.builder().store(storeB.targetHealth()).cooldown("primary", threeTimeouts)
            .build()) {
      ResilientRunner runnerA = ResilientRunner.builder().targetHealth(a).build();
      ResilientRunner runnerB = ResilientRunner.builder().targetHealth(b).build();
      Map<String, SyncExecutionTarget<String>> targets = targets(primary, fallback, Duration.ofSeconds(5));
      for (int i = 0; i < 3; i++) {
        ResilientExecutionResult<String> run = runnerA.runSync(PLAN, targets);
        assertThat(run.attempts().get(0).failureKind()).isEqualTo(FailureKind.TIMEOUT);
      }
      awaitStatus(b, TargetHealth.Status.COOLING); // within a refresh interval
      ResilientExecutionResult<String> skipped = runnerB.runSync(PLAN, targets);
      assertThat(skipped.attempts().get(0).outcome()).isEqualTo(AttemptOutcome.SKIPPED);
      assertThat(skipped.attempts().get(0).failureKind()).isEqualTo(FailureKind.TIMEOUT);
      assertThat(primary.requests).hasSize(3);

      primary.answer = n -> ok();
      awaitStatus(b, TargetHealth.Status.PROBE_DUE);
      ResilientExecutionResult<String> probe = runnerB.runSync(PATIENT_PLAN, targets);
      assertThat(probe.selectedTargetId()).isEqualTo("primary");
      assertThat(b.states()).isEmpty();
      awaitEmpty(a);
      assertThat(runnerA.runSync(PATIENT_PLAN, targets).selectedTargetId()).isEqualTo("primary");
      assertThat(primary.requests).hasSize(5);
    }
  }

  private static void awaitStatus(TargetHealth health, TargetHealth.Status status) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (health.states().stream().noneMatch(state -> state.status() == status)) {
      assertThat(System.nanoTime()).as("target reached %s: %s", status, health.states()).isLessThan(until);
      Thread.sleep(20);
    }
  }

  private static void awaitEmpty(TargetHealth health) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!health.states().isEmpty()) {
      assertThat(System.nanoTime()).as("target reopened: %s", health.states()).isLessThan(until);
      Thread.sleep(20);
    }
  }
}
