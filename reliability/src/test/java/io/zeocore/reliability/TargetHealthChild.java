package io.zeocore.reliability;

import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.execution.ResilientRunner;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.execution.TargetHealth;
import io.zeocore.llm.ChatMessage;
import io.zeocore.llm.LlmTargets;
import io.zeocore.llm.OllamaClient;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One application instance of {@link TargetHealthAcrossInstancesTest}: runs the plan {@code primary → fallback}
 * against the two loopback providers, one run after another, until the stop file appears, with target health on the
 * shared store ({@code sqlite:<file>} or {@code pg:<schema>}) or, for {@code off}, without it. Then writes one line per
 * run: outcome, answering target, the first position's outcome and failure kind, its backoff in milliseconds.
 *
 * <p>Arguments: store, primary port, fallback port, instance id, started file, stop file, result file, reopened file
 * (written when this instance's view sees the primary reopen, by its own probe or from the store).
 */
public final class TargetHealthChild {

  private TargetHealthChild() {}

  public static void main(String[] args) throws Exception {
    String store = args[0];
    int primaryPort = Integer.parseInt(args[1]);
    int fallbackPort = Integer.parseInt(args[2]);
    String instance = args[3];
    Path started = Path.of(args[4]);
    Path stop = Path.of(args[5]);
    Path result = Path.of(args[6]);
    Path reopened = Path.of(args[7]);

    JdbcConnectionStore shared = store.startsWith("sqlite:")
        ? JdbcConnectionStore.openSqlite(Path.of(store.substring("sqlite:".length())))
        : store.startsWith("pg:") ? Pg.store(store.substring("pg:".length()))
        : null;
    TargetHealth health = shared == null ? null
        : TargetHealth.builder().store(shared.targetHealth()).instanceId(instance).listener(change -> {
          if (change.targetId().equals("primary") && change.transition() == TargetHealth.Transition.COOLING_ENDED) {
            try {
              Files.writeString(reopened, instance);
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
        }).build();
    ResilientRunner runner = ResilientRunner.builder().targetHealth(health).build();
    ExecutionPolicy policy = ExecutionPolicy.builder().name("answer").totalTimeout(Duration.ofSeconds(20))
        .attemptTimeout(Duration.ofSeconds(5)).attemptTargets("primary", "fallback").build();
    Map<String, SyncExecutionTarget<String>> targets = new LinkedHashMap<>();
    targets.put("primary", target("primary", primaryPort));
    targets.put("fallback", target("fallback", fallbackPort));

    List<String> lines = new ArrayList<>();
    Files.writeString(started, instance);
    while (!Files.exists(stop)) {
      ResilientExecutionResult<String> run = runner.runSync(policy, targets);
      AttemptRecord first = run.attempts().get(0);
      lines.add(run.outcome().wireValue() + " " + run.selectedTargetId() + " " + first.outcome().wireValue() + " "
          + (first.failureKind() == null ? "none" : first.failureKind().wireValue()) + " "
          + first.backoffBeforeNext().toMillis());
      Thread.sleep(20);
    }
    if (health != null) {
      health.close();
    }
    if (shared != null) {
      shared.close();
    }
    Path partial = result.resolveSibling(result.getFileName() + ".partial");
    Files.write(partial, lines);
    Files.move(partial, result);
  }

  private static SyncExecutionTarget<String> target(String id, int port) {
    OllamaClient client = OllamaClient.builder().baseUrl(URI.create("http://127.0.0.1:" + port))
        .timeout(Duration.ofSeconds(5)).build();
    return LlmTargets.chatTarget(id, client, List.of(ChatMessage.user("hello")));
  }
}
