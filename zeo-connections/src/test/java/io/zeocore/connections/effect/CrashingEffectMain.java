package io.zeocore.connections.effect;

import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.ContractJson;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The child process of {@link EffectCrashRecoveryTest}: runs one effect against the database file and, inside the
 * dispatcher, records the call, signals "inside the dispatcher" by creating a file and then waits to be killed.
 *
 * <p>Arguments: database file, signed authorization (JSON file), trusted public key (PEM file), dispatch log file,
 * signal file.
 */
public final class CrashingEffectMain {

  private CrashingEffectMain() {}

  public static void main(String[] args) throws Exception {
    Path database = Path.of(args[0]);
    EffectAuthorization authorization = ContractJson.mapper()
        .readValue(Files.readString(Path.of(args[1])), EffectAuthorization.class);
    var verifier = EffectWorld.verifier(Ed25519Keys.parsePublicKeyPem(Files.readString(Path.of(args[2]))));
    Path dispatchLog = Path.of(args[3]);
    Path signal = Path.of(args[4]);
    JdbcConnectionStore store = JdbcConnectionStore.openSqlite(database);
    store.saveConnectorRevision(ContractFixtures.ORG, ContractFixtures.revision());
    store.saveConnection(ContractFixtures.ORG, ContractFixtures.connection());
    EffectOrchestrator orchestrator = new EffectOrchestrator(store, verifier);
    orchestrator.execute(ContractFixtures.ORG, ContractFixtures.CONNECTION, ContractFixtures.REVISION,
        ContractFixtures.CREATE_REFUND, authorization, ContractFixtures.EXECUTION, ContractFixtures.BODY, request -> {
          Files.writeString(dispatchLog, "dispatched\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
              StandardOpenOption.APPEND, StandardOpenOption.SYNC);
          Files.createFile(signal);
          Thread.sleep(60_000);
          throw new IllegalStateException("the parent should have killed this process");
        }, request -> {
          throw new IllegalStateException("the child never reconciles");
        });
    System.exit(3);
  }
}
