package io.zeocore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.connections.contract.ConnectorRevision;
import io.zeocore.connections.contract.ContractJson;
import io.zeocore.connections.contract.EffectAuthorization;
import io.zeocore.connections.contract.EffectId;
import io.zeocore.connections.contract.EffectState;
import io.zeocore.connections.effect.EffectDispatchResult;
import io.zeocore.connections.effect.EffectOrchestrator;
import io.zeocore.connections.effect.EffectPreflightException;
import io.zeocore.connections.effect.EffectResult;
import io.zeocore.connections.store.JdbcConnectionStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.JacksonException;

/**
 * Fuzzed input, seeded (reproducible): mutated contract JSON (authorizations, connector revisions) through
 * {@link ContractJson}, and mutated request bodies, validly signed, through the effect orchestrator. A failure: an
 * {@link Error} or an exception other than the documented ones (a {@link JacksonException} or
 * {@link IllegalArgumentException} for JSON; {@link EffectPreflightException} for a body), or a body that is not valid
 * against the operation's closed schema yet dispatched. Nesting stays within 100 levels here (deeper nesting is issue
 * 19 item 2, bounded where it is fixed).
 */
class FuzzTest {

  static final String SECTION = "Fuzzed input";

  @TempDir
  Path temp;

  @Test
  void mutatedContractJsonIsRefusedWithTheDocumentedExceptionsOnly() throws Exception {
    World.Authority authority = new World.Authority();
    String authorization = ContractJson.mapper().writeValueAsString(authority.sign("fz", "k", World.body(1)));
    String revision = ContractJson.mapper().writeValueAsString(World.revision());
    int cases = Figures.scaled(1_500);
    Random random = new Random(19);
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < cases; i++) {
      boolean isAuthorization = i % 2 == 0;
      String json = mutate(isAuthorization ? authorization : revision, random);
      try {
        Class<?> type = isAuthorization ? EffectAuthorization.class : ConnectorRevision.class;
        ContractJson.mapper().readValue(json, type);
      } catch (JacksonException | IllegalArgumentException documented) {
        // refused as documented
      } catch (RuntimeException | Error other) {
        failures.add(other.getClass().getName() + " for " + abbreviate(json));
      }
    }
    Figures.record(SECTION, "mutated authorization and connector revision JSON (seed 19)", cases, failures.size(),
        "an Error or an exception other than JacksonException/IllegalArgumentException");
    assertThat(failures).isEmpty();
  }

  @Test
  void mutatedRequestBodiesAreAdmittedOrRefusedButNeverCrashTheOrchestrator() throws Exception {
    int cases = Figures.scaled(300);
    Random random = new Random(1919);
    List<String> failures = new ArrayList<>();
    AtomicInteger dispatched = new AtomicInteger();
    try (JdbcConnectionStore store = World.seed(JdbcConnectionStore.openSqlite(temp.resolve("fuzz/zeocore.db")))) {
      World.Authority authority = new World.Authority();
      EffectOrchestrator orchestrator = authority.orchestrator(store);
      String valid = new String(World.body(1), StandardCharsets.UTF_8);
      for (int i = 0; i < cases; i++) {
        String mutated = mutate(valid, random);
        byte[] body = mutated.getBytes(StandardCharsets.UTF_8);
        EffectAuthorization signed = authority.signer.sign(World.unsigned("fb-" + i, "k-" + i, body));
        try {
          EffectResult result = orchestrator.execute(World.ORG, World.CONNECTION, World.REVISION,
              World.REFUND, signed, new EffectId("fb-" + i), body, request -> {
                dispatched.incrementAndGet();
                return EffectDispatchResult.confirmed("c".repeat(64));
              }, request -> null);
          if (result.state() == EffectState.SUCCEEDED && !schemaValid(mutated)) {
            failures.add("dispatched an invalid body: " + abbreviate(mutated));
          }
        } catch (EffectPreflightException refused) {
          // refused by admission, nothing persisted
        } catch (RuntimeException | Error other) {
          failures.add(other.getClass().getName() + " for " + abbreviate(mutated));
        }
      }
    }
    Figures.record(SECTION, "mutated request bodies, validly signed, through the orchestrator (seed 1919)", cases,
        failures.size(), "an Error or an exception other than EffectPreflightException, or an invalid body"
        + " dispatched");
    assertThat(failures).isEmpty();
  }

  private static final tools.jackson.databind.json.JsonMapper EXACT = tools.jackson.databind.json.JsonMapper.builder()
      .enable(tools.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  /**
   * Whether {@code json} is an object with at most an integer amount and a string charge (the closed schema), with
   * JSON Schema's meaning of integer: any number without a fractional part, so {@code 1e999999101} is one.
   */
  private static boolean schemaValid(String json) {
    try {
      var node = EXACT.readTree(json);
      return node.isObject() && node.size() <= 2 && node.propertyNames().stream()
          .allMatch(name -> name.equals("amount") || name.equals("charge"))
          && (!node.has("amount") || integral(node.get("amount")))
          && (!node.has("charge") || node.get("charge").isString());
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static boolean integral(tools.jackson.databind.JsonNode number) {
    if (!number.isNumber()) {
      return false;
    }
    java.math.BigDecimal value = number.decimalValue();
    return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
  }

  static final String ALPHABET = "{}[]\",:0-eE.\\ntfu\u0000\u202e\uffff";

  static String mutate(String json, Random random) {
    StringBuilder text = new StringBuilder(json);
    int edits = 1 + random.nextInt(4);
    for (int e = 0; e < edits && text.length() > 0; e++) {
      int at = random.nextInt(text.length());
      switch (random.nextInt(9)) {
        case 0 -> text.deleteCharAt(at);
        case 1 -> text.insert(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        case 2 -> text.setLength(at);
        case 3 -> text.insert(at, "\"" + "x".repeat(random.nextInt(5)) + "\":1,");
        case 4 -> text.insert(at, "[".repeat(1 + random.nextInt(99)));
        case 5 -> text.replace(at, Math.min(text.length(), at + 4), "NaN");
        case 6 -> text.insert(at, "1e999999");
        case 7 -> text.insert(at, ",\"amount\":2");
        default -> text.setCharAt(at, (char) random.nextInt(0x80));
      }
    }
    return text.toString();
  }

  private static String abbreviate(String text) {
    return text.length() > 160 ? text.substring(0, 160) + "…" : text;
  }
}
