package io.zeocore.connections.custody;

import static io.zeocore.connections.contract.ContractFixtures.BODY;
import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.CREATE_REFUND;
import static io.zeocore.connections.contract.ContractFixtures.EXECUTION;
import static io.zeocore.connections.contract.ContractFixtures.KEY;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.NormalizedError;
import io.zeocore.connections.contract.NormalizedErrorCode;
import io.zeocore.connections.contract.SecretRef;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.effect.EffectWorld;
import io.zeocore.connections.effect.ReconciliationResult;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An effect through the real {@link EffectOrchestrator} on a SQLite file, with the credential in a PKCS#12 keystore on
 * disk and a real HTTP provider on loopback that authenticates with it.
 */
class CustodyEndToEndTest {

  static final String SECRET = "sk_live_E2E_CANARY_4b7d0e";

  @TempDir Path temp;

  EffectWorld world;
  KeyStoreSecretStore secrets;
  SecretRef ref;
  HttpServer provider;
  final HttpClient http = HttpClient.newHttpClient();
  final List<String> bearersSeen = Collections.synchronizedList(new ArrayList<>());
  final AtomicInteger providerRequests = new AtomicInteger();
  final List<String> events = Collections.synchronizedList(new ArrayList<>());
  EffectOrchestrator orchestrator;

  @BeforeEach
  void setUp() throws IOException {
    world = new EffectWorld(temp);
    secrets = KeyStoreSecretStore.open(temp.resolve("custody/secrets.p12"), "host-password".toCharArray());
    ref = secrets.put(ORG, SECRET.toCharArray());
    world.store.saveConnection(ORG, CustodyEffectDispatcherTest.requestFor(ref).connection());

    // POST /v1/refunds fails with a 502 that echoes the credential; GET /v1/refunds finds the refund
    provider = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    provider.createContext("/v1/refunds", exchange -> {
      providerRequests.incrementAndGet();
      String bearer = exchange.getRequestHeaders().getFirst("Authorization");
      bearersSeen.add(exchange.getRequestMethod() + " " + bearer);
      exchange.getRequestBody().readAllBytes();
      boolean post = exchange.getRequestMethod().equals("POST");
      byte[] answer = (post ? "upstream rejected " + bearer : "{\"id\":\"re_1\",\"status\":\"succeeded\"}")
          .getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(post ? 502 : 200, answer.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(answer);
      }
    });
    provider.start();

    orchestrator = EffectOrchestrator.builder(world.store, world.verifier).clock(EffectWorld.fixedClock())
        .listener(EffectWorld.recordingInto(events)).build();
  }

  @AfterEach
  void tearDown() {
    provider.stop(0);
    secrets.close();
    world.close();
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://" + provider.getAddress().getHostString() + ":" + provider.getAddress().getPort()
        + pathAndQuery);
  }

  /** Sends the refund with the credential; a non-2xx answer is an unknown outcome, reported with its text. */
  CustodyEffectDispatcher dispatcher() {
    return new CustodyEffectDispatcher(secrets, (material, request) -> {
      HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri("/v1/refunds"))
          .header("Authorization", "Bearer " + new String(material.chars()))
          .header("Idempotency-Key", request.idempotencyKey().value())
          .POST(HttpRequest.BodyPublishers.ofByteArray(request.requestBody())).build(),
          HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        throw new IllegalStateException("refund failed: " + response.body());
      }
      throw new AssertionError("the provider answers POST with 502");
    });
  }

  /** Looks the refund up by idempotency key with the credential. */
  CustodyEffectReconciler reconciler() {
    return new CustodyEffectReconciler(secrets, (material, request) -> {
      HttpResponse<byte[]> response = http.send(
          HttpRequest.newBuilder(uri("/v1/refunds?idempotency_key=" + request.idempotencyKey().value()))
              .header("Authorization", "Bearer " + new String(material.chars())).GET().build(),
          HttpResponse.BodyHandlers.ofByteArray());
      String evidence = Digests.sha256Hex(response.body());
      return response.statusCode() == 200
          ? ReconciliationResult.confirmed(evidence, evidence)
          : ReconciliationResult.unresolved(evidence);
    });
  }

  List<Path> filesUnder(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void anAmbiguousEffectIsReconciledWithTheKeystoreSecretWhichNeverReachesDiskLogsEventsOrResults()
      throws Exception {
    EffectResult result;
    String log;
    try (StderrCapture stderr = new StderrCapture()) {
      result = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND, world.authorization("nonce-1"),
          EXECUTION, BODY, dispatcher(), reconciler());
      log = stderr.text();
    }

    assertThat(result.state()).isEqualTo(EffectState.SUCCEEDED);
    assertThat(bearersSeen).containsExactly("POST Bearer " + SECRET, "GET Bearer " + SECRET);
    assertThat(world.store.getEffectHistory(ORG, EXECUTION)).extracting(EffectRecord::state).containsExactly(
        EffectState.CREATED, EffectState.AUTHORIZATION_VERIFIED, EffectState.PREPARED,
        EffectState.DISPATCH_STARTED, EffectState.AMBIGUOUS, EffectState.SUCCEEDED);
    List<EffectReceipt> receipts = world.store.getReceiptsForEffect(ORG, EXECUTION);
    assertThat(receipts).extracting(EffectReceipt::finalState)
        .containsExactly(EffectState.AMBIGUOUS, EffectState.SUCCEEDED);
    assertThat(secrets.outstandingLeases()).isZero();

    assertThat(result.toString() + receipts + String.join("\n", events)).doesNotContain(SECRET);
    assertThat(log).contains("CUSTODY_PROVIDER_FAILED", "java.lang.IllegalStateException")
        .doesNotContain(SECRET).doesNotContain(ref.handle()).doesNotContain("upstream rejected");
    world.store.close();
    StringBuilder databaseText = new StringBuilder();
    for (Path file : filesUnder(temp)) {
      byte[] bytes = Files.readAllBytes(file);
      assertThat(KeyStoreSecretStoreTest.containsInAnyEncoding(bytes, SECRET)).as(file + " holds the secret").isFalse();
      assertThat(KeyStoreSecretStoreTest.containsInAnyEncoding(bytes, "upstream rejected")).as(file.toString())
          .isFalse();
      if (!file.equals(secrets.file())) {
        databaseText.append(new String(bytes, StandardCharsets.ISO_8859_1));
      }
    }
    // positive control: the database does hold its records and the raw handle in clear, so a leak would show
    assertThat(databaseText.toString()).contains("dispatch started but positive outcome is unknown", ref.handle());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets.file()))).isEqualTo("rw-------");
  }

  @Test
  void aSecretMissingFromTheKeystoreEndsTheEffectFailedSafeWithoutAnyProviderCall() {
    secrets.delete(ref, ORG);
    AtomicInteger reconciliations = new AtomicInteger();

    EffectResult result = orchestrator.execute(ORG, CONNECTION, REVISION, CREATE_REFUND,
        world.authorization("nonce-1"), EXECUTION, BODY, dispatcher(), request -> {
          reconciliations.incrementAndGet();
          return ReconciliationResult.unresolved("e".repeat(64));
        });

    assertThat(result.state()).isEqualTo(EffectState.FAILED_SAFE);
    assertThat(providerRequests).hasValue(0);
    assertThat(reconciliations).hasValue(0);
    assertThat(world.store.getEffectHistory(ORG, EXECUTION)).extracting(EffectRecord::state)
        .endsWith(EffectState.DISPATCH_STARTED, EffectState.FAILED_SAFE);
    assertThat(world.store.getReceiptsForEffect(ORG, EXECUTION)).singleElement().satisfies(receipt -> {
      assertThat(receipt.finalState()).isEqualTo(EffectState.FAILED_SAFE);
      assertThat(receipt.normalizedError()).isEqualTo(new NormalizedError(
          NormalizedErrorCode.CONNECTION_REPAIR_REQUIRED, "dispatch did not start: CUSTODY_NOT_FOUND"));
    });
  }
}
