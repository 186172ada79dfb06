package io.zeocore.reliability;

import io.zeocore.connections.contract.ContractJson;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.ReconciliationResult;
import io.zeocore.connections.store.EffectStore;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A child JVM of the crash and race tests. Runs effects {@code 0..count-1} on their own threads, each with the
 * authorization the parent wrote to {@code auth-<i>.json}, records every dispatcher entry in {@code dispatches.log}
 * (appended and synced before the provider would be called), and, for a crash point, holds every effect at that point,
 * creates {@code ready} once all of them are there and waits to be SIGKILLed. Mode {@code RACE} holds nothing and exits
 * 0 when every effect returned.
 *
 * <p>Arguments: {@code sqlite:<file>} or {@code pg:<schema>}, point, count, work directory, public key PEM file.
 */
public final class CrashChild {

  /** Where the effects are held when the parent kills the JVM. */
  public enum Point {
    /** Before the claim transaction (nothing of the effect is stored yet). */
    BEFORE_CLAIM,
    /** After the claim committed {@code DISPATCH_STARTED}, before the provider is entered. */
    AFTER_CLAIM,
    /** Inside the provider call, after the dispatch was logged. */
    IN_PROVIDER,
    /** After the provider threw and {@code AMBIGUOUS} was committed, inside the reconciler. */
    AFTER_AMBIGUOUS,
    /** After the outcome ({@code SUCCEEDED} with its receipt) committed. */
    AFTER_OUTCOME,
    /** No crash: every effect runs to its end (process races). */
    RACE
  }

  static final String CONFIRMATION = "c".repeat(64);

  private CrashChild() {}

  public static void main(String[] args) throws Exception {
    String target = args[0];
    Point point = Point.valueOf(args[1]);
    int count = Integer.parseInt(args[2]);
    Path work = Path.of(args[3]);
    var verifier = World.verifier(io.zeocore.connections.authorization.Ed25519Keys.parsePublicKeyPem(
        Files.readString(Path.of(args[4]))));
    JdbcConnectionStore real = target.startsWith("sqlite:") ? JdbcConnectionStore.openSqlite(Path.of(
        target.substring(7))) : Pg.store(target.substring(3));
    World.seed(real);
    CountDownLatch arrived = new CountDownLatch(count);
    Path ready = work.resolve("ready");
    Runnable hold = () -> {
      arrived.countDown();
      if (arrived.getCount() == 0) {
        try {
          Files.createFile(ready);
        } catch (java.nio.file.FileAlreadyExistsException ignored) {
          // another thread was last at the same time
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
      try {
        Thread.sleep(120_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("the parent should have killed this process");
    };
    EffectStore store = (EffectStore) Proxy.newProxyInstance(CrashChild.class.getClassLoader(),
        new Class<?>[] {EffectStore.class}, (proxy, method, methodArgs) -> {
          if (point == Point.BEFORE_CLAIM && method.getName().equals("claimEffect")) {
            hold.run();
          }
          Object result;
          try {
            result = method.invoke(real, methodArgs);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if ((point == Point.AFTER_CLAIM && method.getName().equals("claimEffect"))
              || (point == Point.AFTER_OUTCOME && method.getName().equals("commitOutcome"))) {
            hold.run();
          }
          return result;
        });
    EffectOrchestrator orchestrator = new EffectOrchestrator(store, verifier);
    Path log = work.resolve("dispatches.log");
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int effect = i;
      EffectAuthorization authorization = ContractJson.mapper().readValue(
          Files.readString(work.resolve("auth-" + i + ".json")), EffectAuthorization.class);
      Thread thread = new Thread(() -> World.execute(orchestrator, authorization, effect, request -> {
        Files.writeString(log, effect + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND, StandardOpenOption.SYNC);
        if (point == Point.IN_PROVIDER) {
          hold.run();
        }
        if (point == Point.AFTER_AMBIGUOUS) {
          throw new IllegalStateException("connection reset");
        }
        return EffectDispatchResult.confirmed(CONFIRMATION);
      }, request -> {
        if (point == Point.AFTER_AMBIGUOUS) {
          hold.run();
        }
        return ReconciliationResult.unresolved("e".repeat(64));
      }), "effect-" + i);
      threads.add(thread);
    }
    threads.forEach(Thread::start);
    for (Thread thread : threads) {
      thread.join();
    }
    real.close();
    System.exit(point == Point.RACE ? 0 : 3);
  }
}
