package io.zeocore.connections.effect;

import io.zeocore.connections.contract.ContractFixtures;
import io.zeocore.connections.contract.Digests;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectReceipt;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.contract.IdempotencyKey;
import static io.zeocore.connections.contract.ContractFixtures.AUTHORIZATION;
import static io.zeocore.connections.contract.ContractFixtures.BODY;
import static io.zeocore.connections.contract.ContractFixtures.CONNECTION;
import static io.zeocore.connections.contract.ContractFixtures.CREATE_REFUND;
import static io.zeocore.connections.contract.ContractFixtures.KEY;
import static io.zeocore.connections.contract.ContractFixtures.ORG;
import static io.zeocore.connections.contract.ContractFixtures.REVISION;
import static io.zeocore.connections.contract.ContractFixtures.T;

import io.zeocore.connections.authorization.AuthorizationSigner;
import io.zeocore.connections.authorization.Ed25519Keys;
import io.zeocore.connections.authorization.Ed25519SignatureVerifier;
import io.zeocore.connections.authorization.ExactAuthorizationVerifier;
import io.zeocore.connections.store.JdbcConnectionStore;
import io.zeocore.connections.store.SequentialUuids;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

/**
 * A real store in a temp directory with the fixture connection and revision saved, a real Ed25519-signing authority
 * ({@code zeo-go}, audience {@code zeocore}) and a verifier trusting it.
 */
public final class EffectWorld implements AutoCloseable {

  public static final String ISSUER = "zeo-go";
  public static final String AUDIENCE = "zeocore";
  static final KeyPair KEYS = Ed25519Keys.generate();

  /** The SQLite file, or {@code null} for a world on another database. */
  public final Path file;
  public final JdbcConnectionStore store;
  public final AuthorizationSigner signer = new AuthorizationSigner(ISSUER, KEYS.getPrivate());
  public final ExactAuthorizationVerifier verifier = verifier(KEYS.getPublic());

  /** A world on a new SQLite file {@code zeocore.db} in {@code directory}. */
  public EffectWorld(Path directory) {
    this(directory.resolve("zeocore.db"), null);
  }

  /** A world on {@code store} (for example PostgreSQL), which it closes. */
  public EffectWorld(JdbcConnectionStore store) {
    this(null, store);
  }

  private EffectWorld(Path file, JdbcConnectionStore store) {
    this.file = file;
    this.store = store != null ? store
        : JdbcConnectionStore.builder().sqliteFile(file).evidenceIds(new SequentialUuids()).build();
    this.store.saveConnectorRevision(ORG, ContractFixtures.revision());
    this.store.saveConnection(ORG, ContractFixtures.connection());
  }

  public static ExactAuthorizationVerifier verifier(PublicKey key) {
    return new ExactAuthorizationVerifier(Ed25519SignatureVerifier.of(ISSUER, key), AUDIENCE, Set.of(ISSUER));
  }

  public static Clock fixedClock() {
    return Clock.fixed(T, ZoneOffset.UTC);
  }

  /** A listener that adds the {@code toString()} of every recorded transition and receipt to {@code seen}. */
  public static EffectListener recordingInto(List<String> seen) {
    return new EffectListener() {
      @Override
      public void transitionRecorded(EffectRecord effect, EffectState previousState) {
        seen.add(effect.toString());
      }

      @Override
      public void receiptRecorded(EffectReceipt receipt) {
        seen.add(receipt.toString());
      }
    };
  }

  /** A signed authorization for the refund operation over {@code body}. */
  public EffectAuthorization authorization(String nonce, IdempotencyKey key, byte[] body) {
    return signer.sign(unsigned(nonce, key, Digests.requestDigest(body), T.plusSeconds(300)));
  }

  public EffectAuthorization authorization(String nonce) {
    return authorization(nonce, KEY, BODY);
  }

  public static EffectAuthorization unsigned(String nonce, IdempotencyKey key, String argumentDigest,
      Instant expiresAt) {
    return unsigned(nonce, key, argumentDigest, expiresAt.isAfter(T) ? T : expiresAt.minusSeconds(60), expiresAt);
  }

  public static EffectAuthorization unsigned(String nonce, IdempotencyKey key, String argumentDigest,
      Instant issuedAt, Instant expiresAt) {
    return new EffectAuthorization(AUTHORIZATION, ORG, "seat-1", "binding-1", "packet-1", "attempt-1", CONNECTION,
        REVISION, CREATE_REFUND, argumentDigest, key, List.of("approval-1"), issuedAt, expiresAt, nonce, AUDIENCE,
        ISSUER, "unsigned");
  }

  @Override
  public void close() {
    store.close();
  }
}
