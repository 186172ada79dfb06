package io.zeocore.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zeocore.autoconfigure.connections.EffectFixtures;
import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsAutoConfiguration;
import io.zeocore.autoconfigure.execution.DrainingSubscriber;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionAutoConfiguration;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectReconciler;
import io.zeocore.connections.effect.EffectRecovery;
import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.execution.AttemptError;
import io.zeocore.execution.FailureKind;
import io.zeocore.execution.MachineCodes;
import io.zeocore.execution.StreamExecution;
import io.zeocore.execution.StreamExecutionTarget;
import io.zeocore.execution.SyncExecutionTarget;
import io.zeocore.execution.ZeoCoreExecutions;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class ZeoCoreMetricsAutoConfigurationTests {

  private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
          CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
          ZeoCoreExecutionAutoConfiguration.class, ZeoCoreMetricsAutoConfiguration.class))
      .withPropertyValues("zeocore.execution.policies.lookup.total-timeout=10s",
          "zeocore.execution.policies.lookup.attempt-timeout=5s",
          "zeocore.execution.policies.lookup.attempt-targets=primary,primary,backup",
          "zeocore.execution.policies.lookup.targets=call-time");

  /** Emits {@code chunks} as they are asked for, then ends with {@code end} (an error) or completes when it is null. */
  private static Flow.Publisher<String> chunks(@Nullable Throwable end, String... chunks) {
    return subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
      private int next;
      private boolean over;

      @Override
      public void request(long n) {
        for (long i = 0; i < n && next < chunks.length && !over; i++) {
          subscriber.onNext(chunks[next++]);
        }
        if (next == chunks.length && !over) {
          over = true;
          if (end != null) {
            subscriber.onError(end);
          } else {
            subscriber.onComplete();
          }
        }
      }

      @Override
      public void cancel() {
        over = true;
      }
    });
  }

  @Test
  void metersStreamedAttemptsTimeToFirstChunkChunksAndInterruptions() throws Exception {
    contextRunner.run(context -> {
      ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);
      StreamExecutionTarget<String> primary = StreamExecutionTarget.of("primary", String.class,
          attempt -> chunks(new AttemptError(FailureKind.TRANSIENT)));
      StreamExecutionTarget<String> backup = StreamExecutionTarget.of("backup", String.class,
          attempt -> chunks(null, "a", "b", "c"));
      StreamExecution<String> answered = executions.runStream("lookup", List.of(primary, backup));
      answered.subscribe(new DrainingSubscriber<>());
      assertThat(answered.result().get(10, TimeUnit.SECONDS).succeeded()).isTrue();
      StreamExecutionTarget<String> cut = StreamExecutionTarget.of("primary", String.class,
          attempt -> chunks(new AttemptError(FailureKind.TRANSIENT), "partial"));
      StreamExecution<String> interrupted = executions.runStream("lookup", List.of(cut, backup));
      interrupted.subscribe(new DrainingSubscriber<>());
      assertThat(interrupted.result().get(10, TimeUnit.SECONDS).machineCode())
          .isEqualTo(MachineCodes.STREAM_INTERRUPTED);

      MeterRegistry registry = context.getBean(MeterRegistry.class);
      assertThat(registry.get(ZeoCoreExecutionMetrics.STREAM_FIRST_CHUNK).tags("policy", "lookup", "target", "backup")
          .timer().count()).isEqualTo(1);
      assertThat(registry.get(ZeoCoreExecutionMetrics.STREAM_CHUNKS).tags("policy", "lookup", "target", "backup",
          "outcome", "succeeded").summary().totalAmount()).isEqualTo(3.0);
      assertThat(registry.get(ZeoCoreExecutionMetrics.STREAM_CHUNKS).tags("policy", "lookup", "target", "primary",
          "outcome", "failed").summary().count()).isEqualTo(3); // two before any chunk, one after one chunk
      assertThat(registry.get(ZeoCoreExecutionMetrics.STREAM_INTERRUPTED).tags("policy", "lookup", "target",
          "primary", "failure.kind", "transient").counter().count()).isEqualTo(1.0);
      assertThat(registry.get(ZeoCoreExecutionMetrics.DURATION).tags("policy", "lookup", "outcome", "failed_safe")
          .timer().count()).isEqualTo(1);
    });
  }

  @Test
  void countsEveryAttemptAndTimesEveryRunByPolicyTargetOutcomeAndFailureKind() {
    contextRunner.run(context -> {
      SyncExecutionTarget<String> primary = SyncExecutionTarget.of("primary", String.class, attempt -> {
        throw new AttemptError(FailureKind.RATE_LIMIT);
      });
      SyncExecutionTarget<String> backup = SyncExecutionTarget.of("backup", String.class, attempt -> "found");
      ZeoCoreExecutions executions = context.getBean(ZeoCoreExecutions.class);

      executions.run("lookup", List.of(primary, backup));
      executions.run("lookup", List.of(primary, backup));

      MeterRegistry registry = context.getBean(MeterRegistry.class);
      assertThat(registry.get(ZeoCoreExecutionMetrics.ATTEMPTS).tags("policy", "lookup", "target", "primary",
          "outcome", "failed", "failure.kind", "rate_limit").counter().count()).isEqualTo(4.0);
      assertThat(registry.get(ZeoCoreExecutionMetrics.ATTEMPTS).tags("policy", "lookup", "target", "backup",
          "outcome", "succeeded", "failure.kind", "none").counter().count()).isEqualTo(2.0);
      Timer duration = registry.get(ZeoCoreExecutionMetrics.DURATION).tags("policy", "lookup",
          "outcome", "succeeded").timer();
      assertThat(duration.count()).isEqualTo(2);
      assertThat(registry.find(ZeoCoreExecutionMetrics.DURATION).tag("outcome", "exhausted").timer()).isNull();
      assertThat(registry.get(ZeoCoreExecutionMetrics.CALLS).tags("policy", "lookup", "kind", "successful_with_retry")
          .counter().count()).isEqualTo(2.0);
      assertThat(registry.get(ZeoCoreExecutionMetrics.FALLBACKS).tags("policy", "lookup", "from", "primary", "to",
          "backup").counter().count()).isEqualTo(2.0);
    });
  }

  @Test
  void countsEffectTransitionsAndRecoverySweepsAndGaugesEffectsByState(@TempDir Path temp) throws Exception {
    contextRunner.withConfiguration(AutoConfigurations.of(ZeoCoreConnectionsAutoConfiguration.class))
        .withBean(EffectFixtures.STRATEGY, EffectReconciler.class, EffectFixtures::confirming)
        .withPropertyValues("zeocore.connections.store.path=" + temp.resolve("zeocore.db"),
            "zeocore.connections.recovery.enabled=false", "zeocore.connections.recovery.initial-backoff=1ms")
        .withPropertyValues(EffectFixtures.authorizationProperties(EffectFixtures.writePublicKey(temp)))
        .run(context -> {
          EffectFixtures.saveConnection(context.getBean(JdbcConnectionStore.class));
          EffectOrchestrator orchestrator = context.getBean(EffectOrchestrator.class);
          EffectFixtures.refund(orchestrator, "exec-1");
          EffectFixtures.ambiguousRefund(orchestrator, "exec-2");

          MeterRegistry registry = context.getBean(MeterRegistry.class);
          assertThat(registry.get(ZeoCoreEffectMetrics.EFFECTS).tags("operation", "create_refund",
              "state", "dispatch_started").counter().count()).isEqualTo(2.0);
          assertThat(registry.get(ZeoCoreEffectMetrics.EFFECTS).tags("operation", "create_refund",
              "state", "succeeded").counter().count()).isEqualTo(1.0);
          assertThat(registry.get(ZeoCoreEffectMetrics.AMBIGUOUS).gauge().value()).isEqualTo(1.0);
          assertThat(registry.get(ZeoCoreEffectMetrics.STATES).tag("state", "succeeded").gauge().value())
              .isEqualTo(1.0);
          assertThat(registry.get(ZeoCoreEffectMetrics.STATES).gauges()).hasSize(EffectState.values().length);
          assertThat(registry.find(ZeoCoreEffectMetrics.POOL + ".max").gauge()).as("the embedded file has no pool")
              .isNull();
          Thread.sleep(5);

          context.getBean(EffectRecovery.class).recoverOnce();

          assertThat(registry.get(ZeoCoreEffectMetrics.SWEEPS).counter().count()).isEqualTo(1.0);
          assertThat(registry.get(ZeoCoreEffectMetrics.RECOVERED).tag("outcome", "succeeded").counter().count())
              .isEqualTo(1.0);
          assertThat(registry.get(ZeoCoreEffectMetrics.RECOVERED).tag("outcome", "failed").counter().count())
              .isZero();
          Thread.sleep(1_100); // the gauges read the store at most once a second
          assertThat(registry.get(ZeoCoreEffectMetrics.STATES).tag("state", "succeeded").gauge().value())
              .isEqualTo(2.0);
          assertThat(registry.get(ZeoCoreEffectMetrics.AMBIGUOUS).gauge().value()).isZero();
        });
  }

  @Test
  void springBootsDistributionPropertiesConfigureTheRunTimersPercentilesAndBuckets() {
    contextRunner.withPropertyValues(
        "management.metrics.distribution.percentiles[zeocore.execution.duration]=0.5,0.99",
        "management.metrics.distribution.slo[zeocore.execution.duration]=100ms,1s")
        .run(context -> {
          SyncExecutionTarget<String> primary = SyncExecutionTarget.of("primary", String.class, attempt -> "found");
          context.getBean(ZeoCoreExecutions.class).run("lookup", List.of(primary));

          Timer duration = context.getBean(MeterRegistry.class).get(ZeoCoreExecutionMetrics.DURATION).timer();
          HistogramSnapshot snapshot = duration.takeSnapshot();
          assertThat(snapshot.percentileValues()).as(snapshot.toString()).extracting(ValueAtPercentile::percentile)
              .containsExactly(0.5, 0.99);
          assertThat(snapshot.histogramCounts()).as(snapshot.toString()).hasSize(2)
              .allSatisfy(bucket -> assertThat(bucket.count()).isEqualTo(1.0));
        });
  }

  @Test
  void backsOffWithoutMicrometerWithoutARegistryOrWhenDisabled() {
    contextRunner.withClassLoader(new FilteredClassLoader("io.micrometer.core"))
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ZeoCoreExecutionMetrics.class));
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ZeoCoreExecutionAutoConfiguration.class,
            ZeoCoreMetricsAutoConfiguration.class))
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ZeoCoreExecutionMetrics.class));
    contextRunner.withPropertyValues("zeocore.metrics.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ZeoCoreExecutionMetrics.class));
  }

  @Test
  void userMetricsBeanWins() {
    ZeoCoreExecutionMetrics mine = new ZeoCoreExecutionMetrics(new SimpleMeterRegistry());
    contextRunner.withBean(ZeoCoreExecutionMetrics.class, () -> mine)
        .run(context -> assertThat(context.getBean(ZeoCoreExecutionMetrics.class)).isSameAs(mine));
  }
}
