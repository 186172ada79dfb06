package io.zeocore.connections.contract;

import static io.zeocore.connections.contract.ContractFixtures.authorization;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zeocore.connections.internal.ContractRules;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The canonical form is written straight from the record's fields; these tests hold it to the definition it replaces:
 * the contract mapper's tree of the authorization, canonicalized, with {@code signature} removed for the signing
 * payload. Generated authorizations (fixed seed, so a failure reproduces) cover what the record accepts: escapes,
 * non-ASCII, surrogate pairs, line separators, empty and several approval references, and instants from year 0 to
 * the formatter's limits, with and without digits below the microsecond.
 */
class AuthorizationCanonicalFormMatchesContractTreeTest {

  private static final int CASES = 4_000;

  /** Characters an identifier may hold: no control, format or separator characters. */
  private static final String[] IDENTIFIER_PIECES = {
      "a", "Z", "0", "9", "-", "_", ".", ":", "/", " ", "\"", "\\", "'", "{", "}", "é", "ß", "ÿ", "\u00a0", "Ω",
      "中", "\u20ac", "\uffee", "\ud83d\ude00", "\udbff\udfff", "\ud800\udc00", "~"};

  /** Everything a text field may hold: identifier characters plus every escape and separator case. */
  private static final String[] TEXT_PIECES = {
      "\u0000", "\u0001", "\u001f", "\u007f", "\b", "\f", "\n", "\r", "\t", "\u000b", "\u2028", "\u2029", "\u200b",
      "\u202e", "\ufeff", "\u0085", "\u00ad", "\"\"", "\\\\", "\\u0041", "</script>"};

  private final Random random = new Random(20_2026L);

  @Test
  void signingPayloadAndDocumentEqualTheCanonicalizedContractTreeForGeneratedAuthorizations() {
    for (int i = 0; i < CASES; i++) {
      EffectAuthorization authorization = generated();
      ObjectNode tree = (ObjectNode) ContractJson.mapper().valueToTree(authorization);
      byte[] document = AuthorizationCanonicalForm.canonicalize(tree);
      tree.remove("signature");
      byte[] signingPayload = AuthorizationCanonicalForm.canonicalize(tree);

      assertThat(AuthorizationCanonicalForm.document(authorization))
          .as("document of case %d: %s", i, authorization)
          .isEqualTo(document);
      assertThat(AuthorizationCanonicalForm.signingPayload(authorization))
          .as("signing payload of case %d: %s", i, authorization)
          .isEqualTo(signingPayload);
    }
  }

  @Test
  void theFixtureAuthorizationEqualsItsCanonicalizedContractTree() {
    EffectAuthorization authorization = authorization();
    ObjectNode tree = (ObjectNode) ContractJson.mapper().valueToTree(authorization);

    assertThat(AuthorizationCanonicalForm.document(authorization))
        .isEqualTo(AuthorizationCanonicalForm.canonicalize(tree));
    tree.remove("signature");
    assertThat(AuthorizationCanonicalForm.signingPayload(authorization))
        .isEqualTo(AuthorizationCanonicalForm.canonicalize(tree));
  }

  @Test
  void instantsAreWrittenExactlyAsTheContractMapperWritesThem() {
    List<Instant> instants = new ArrayList<>(List.of(
        Instant.EPOCH, Instant.ofEpochSecond(-1, 999_999_999), Instant.ofEpochSecond(0, 999),
        Instant.parse("0000-01-01T00:00:00Z"), Instant.parse("-0001-12-31T23:59:59.999999999Z"),
        Instant.parse("9999-12-31T23:59:59.999999999Z"), Instant.parse("+10000-01-01T00:00:00Z"),
        Instant.parse("1972-02-29T12:00:00.5Z"), Instant.parse("2000-02-29T23:59:59.000001Z"),
        Instant.parse("2100-03-01T00:00:00Z"), farthestPast(), farthestFuture()));
    for (int i = 0; i < CASES; i++) {
      instants.add(instant());
    }

    for (Instant instant : instants) {
      StringBuilder written = new StringBuilder();
      InstantJson.appendTo(instant, written);

      assertThat(written.toString()).as("%s", instant).isEqualTo(InstantJson.format(instant))
          .isEqualTo(ContractJson.mapper().valueToTree(instant).asString());
    }
  }

  @Test
  void aLoneSurrogateIsRefusedAsTheCanonicalizedTreeRefusesIt() {
    EffectAuthorization a = authorization();
    EffectAuthorization lone = new EffectAuthorization(a.authorizationId(), a.organizationId(), "seat-\ud800",
        a.runtimeBindingId(), a.packetId(), a.attemptId(), a.connectionId(), a.connectorRevision(), a.operationId(),
        a.argumentDigest(), a.idempotencyKey(), List.of("ref-\udc00-x"), a.issuedAt(), a.expiresAt(), a.nonce(),
        a.audience(), a.issuer(), a.signature());

    assertThatThrownBy(() -> AuthorizationCanonicalForm.canonicalize(ContractJson.mapper().valueToTree(lone)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lone surrogate");
    assertThatThrownBy(() -> AuthorizationCanonicalForm.signingPayload(lone))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lone surrogate");
    assertThatThrownBy(() -> AuthorizationCanonicalForm.document(lone))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lone surrogate");
  }

  /**
   * The tree and the direct form share the string writer, so the comparisons above cannot see its mistakes; this
   * holds it to a character-by-character statement of the escaping, whichever character needs an escape first.
   */
  @Test
  void stringsAreEscapedWhereverTheFirstCharacterThatNeedsItFalls() {
    assertThat(canonicalString("a\\b")).isEqualTo("\"a\\\\b\"");
    assertThat(canonicalString("\"q\"")).isEqualTo("\"\\\"q\\\"\"");
    assertThat(canonicalString("tab\t")).isEqualTo("\"tab\\t\"");
    assertThat(canonicalString("x\u001fy")).isEqualTo("\"x\\u001fy\"");
    assertThat(canonicalString("smile \ud83d\ude00 and \\")).isEqualTo("\"smile \ud83d\ude00 and \\\\\"");
    assertThat(canonicalString("plain \u2028\u007f\u00e9")).isEqualTo("\"plain \u2028\u007f\u00e9\"");
    for (int i = 0; i < CASES; i++) {
      String text = text(TEXT_PIECES);
      assertThat(canonicalString(text)).as("%s", text).isEqualTo(escapedOneByOne(text));
    }
  }

  @Test
  void writesTheMembersOnceEachInTheirSortedOrder() {
    String document = new String(AuthorizationCanonicalForm.document(authorization()), StandardCharsets.UTF_8);
    List<String> names = new ArrayList<>();
    ContractJson.mapper().readTree(document).propertyNames().forEach(names::add);

    assertThat(names).hasSize(EffectAuthorization.class.getRecordComponents().length).isSorted()
        .startsWith("approval_refs", "argument_digest").endsWith("seat_id", "signature");
  }

  private static String canonicalString(String text) {
    return new String(AuthorizationCanonicalForm.canonicalize(ContractJson.mapper().getNodeFactory().stringNode(text)),
        StandardCharsets.UTF_8);
  }

  /** RFC 8785's short escapes (ECMAScript's {@code JSON.stringify}), as a table. */
  private static final Map<Character, String> SHORT_ESCAPES = Map.of('"', "\\\"", '\\', "\\\\", '\b', "\\b",
      '\f', "\\f", '\n', "\\n", '\r', "\\r", '\t', "\\t");

  /** The escaping as stated: the short escapes, other controls below U+0020 as lowercase hex escapes, the rest raw. */
  private static String escapedOneByOne(String text) {
    StringBuilder out = new StringBuilder("\"");
    text.chars().forEach(c -> out.append(SHORT_ESCAPES.getOrDefault((char) c,
        c < 0x20 ? String.format("\\u%04x", c) : String.valueOf((char) c))));
    return out.append('"').toString();
  }

  private EffectAuthorization generated() {
    Instant issuedAt = instant();
    Instant expiresAt = later(issuedAt);
    List<String> approvalRefs = new ArrayList<>();
    int refs = random.nextInt(5);
    for (int i = 0; i < refs; i++) {
      approvalRefs.add(random.nextInt(6) == 0 ? "" : text(TEXT_PIECES));
    }
    return new EffectAuthorization(new AuthorizationId(identifier()), new OrganizationId(identifier()), text(),
        text(), text(), text(), new ConnectionId(identifier()), new ConnectorRevisionId(identifier()),
        new OperationId(identifier()), text(), new IdempotencyKey(identifier()), approvalRefs, issuedAt, expiresAt,
        text(), text(), text(), text());
  }

  private String identifier() {
    return nonBlank(() -> text(new String[0]));
  }

  private String text() {
    return nonBlank(() -> text(TEXT_PIECES));
  }

  /** The first candidate the record's text rule accepts. */
  private static String nonBlank(Supplier<String> candidates) {
    while (true) {
      String candidate = candidates.get();
      if (!ContractRules.isBlank(candidate)) {
        return candidate;
      }
    }
  }

  /** Up to 24 pieces, each an identifier character or, when {@code extra} has any, sometimes one of those. */
  private String text(String[] extra) {
    StringBuilder text = new StringBuilder();
    int pieces = 1 + random.nextInt(24);
    for (int i = 0; i < pieces; i++) {
      if (extra.length > 0 && random.nextInt(4) == 0) {
        text.append(extra[random.nextInt(extra.length)]);
      } else if (random.nextInt(3) == 0) {
        text.append(IDENTIFIER_PIECES[random.nextInt(IDENTIFIER_PIECES.length)]);
      } else {
        text.append((char) ('a' + random.nextInt(26)));
      }
    }
    return text.toString();
  }

  /** Mostly recent instants, some anywhere in years 0 to 9999, some as far as the formatter reaches either way. */
  private Instant instant() {
    long seconds = switch (random.nextInt(4)) {
      case 0 -> 1_700_000_000L + random.nextInt(200_000_000);
      case 1 -> between(startOfYear(0), startOfYear(10_000));
      case 2 -> between(startOfYear(-999), startOfYear(11_000));
      default -> between(farthestPast().getEpochSecond(), farthestFuture().getEpochSecond() - 86_400L * 366);
    };
    int nanos = switch (random.nextInt(3)) {
      case 0 -> 0;
      case 1 -> random.nextInt(1_000_000) * 1_000; // whole microseconds
      default -> random.nextInt(1_000_000_000); // digits below the microsecond, which the record truncates
    };
    return Instant.ofEpochSecond(seconds, nanos);
  }

  /** Strictly after {@code instant}, by a microsecond up to about a year. */
  private Instant later(Instant instant) {
    long micros = random.nextInt(3) == 0 ? 1 + random.nextInt(1_000) : 1 + (long) random.nextInt(1 << 30) * 30;
    return instant.plusNanos(micros * 1_000);
  }

  private long between(long from, long until) {
    return from + Math.floorMod(random.nextLong(), until - from);
  }

  private static long startOfYear(int year) {
    return LocalDate.of(year, 1, 1).toEpochDay() * 86_400L;
  }

  /** The first instant whose date {@code LocalDate} (and so the formatter) still holds. */
  private static Instant farthestPast() {
    return Instant.ofEpochSecond(LocalDate.MIN.toEpochDay() * 86_400L);
  }

  /** The last microsecond whose date {@code LocalDate} (and so the formatter) still holds. */
  private static Instant farthestFuture() {
    return Instant.ofEpochSecond(LocalDate.MAX.toEpochDay() * 86_400L + 86_399L, 999_999_000);
  }
}
