package io.zeocore.connections.contract;

import io.zeocore.connections.internal.ContractRules;
import io.zeocore.connections.internal.ShortestDecimal;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import tools.jackson.databind.JsonNode;

/**
 * The canonical JSON of an {@link EffectAuthorization}, the exact bytes that are signed and digested: byte-exact
 * RFC 8785, the JSON Canonicalization Scheme (JCS) that issuers in other languages implement.
 *
 * <p>Form: the authorization's contract JSON ({@link ContractJson#mapper()}: snake_case names, identifiers as
 * {@code {"value":"..."}}, instants as ISO-8601 UTC with exactly six fractional digits, e.g.
 * {@code 2026-01-02T03:04:05.000000Z}, {@code approval_refs} as an array, always present), canonicalized by
 * {@link #canonicalize(JsonNode)}. The result does not depend on the order in which fields were set.
 *
 * <p>The bytes are written straight from the record's fields, without building that JSON: the members in their
 * canonical order (sorted by name), strings escaped as {@link #canonicalize(JsonNode)} escapes them, instants as the
 * contract mapper writes them. They equal {@code canonicalize(ContractJson.mapper().valueToTree(authorization))}
 * byte for byte, with {@code signature} removed from the tree for {@link #signingPayload}.
 *
 * <p>{@link #signingPayload} omits {@code signature} (what the issuer signs); {@link #document} includes it (what the
 * authorization digest covers).
 */
public final class AuthorizationCanonicalForm {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private AuthorizationCanonicalForm() {}

  /** Canonical UTF-8 JSON of every field except {@code signature}. */
  public static byte[] signingPayload(EffectAuthorization authorization) {
    return write(authorization, false);
  }

  /** Canonical UTF-8 JSON of every field, {@code signature} included. */
  public static byte[] document(EffectAuthorization authorization) {
    return write(authorization, true);
  }

  /**
   * The RFC 8785 (JCS) canonical UTF-8 bytes of a JSON value, as an issuer in any language computes them:
   * <ul>
   *   <li>object members sorted by the UTF-16 code units of their names, recursively; array order kept; no
   *       whitespace;</li>
   *   <li>strings as ECMAScript's {@code JSON.stringify}: quote and backslash escaped as {@code \"} and
   *       {@code \\}, the short escapes for backspace, form feed, line feed, carriage return and tab, every other
   *       control character below U+0020 as {@code \}{@code u00xx} in <em>lowercase</em> hex,
   *       everything else (non-ASCII, U+007F, U+2028, characters outside the BMP) as raw UTF-8;</li>
   *   <li>numbers as IEEE-754 doubles written by ECMAScript's {@code Number.prototype.toString}: the shortest digits
   *       that read back as the same double (the nearest such, even on a tie), plain notation from 1e-6 up to below
   *       1e21 ({@code 0.000001}, {@code 1e+21}, {@code 4.5}, {@code 100}), exponent form {@code 1e-7},
   *       {@code 1.5e+300} otherwise; {@code -0} as {@code 0}; integers beyond 2<sup>53</sup> lose precision as
   *       doubles do;</li>
   *   <li>{@code true}, {@code false}, {@code null} as literals.</li>
   * </ul>
   *
   * @throws IllegalArgumentException for what I-JSON (RFC 7493) excludes and JCS therefore cannot represent: NaN,
   *     infinities, strings with a lone surrogate, and non-JSON nodes (binary, POJO, missing)
   */
  public static byte[] canonicalize(JsonNode value) {
    ContractRules.required(value, "value");
    StringBuilder out = new StringBuilder(256);
    write(value, out);
    return out.toString().getBytes(StandardCharsets.UTF_8); // exact: lone surrogates were refused
  }

  /**
   * The members of an authorization's contract JSON, one per record component, each with its wire name and how its
   * value is written. This is the one place that pairs a field with its name; {@link #CANONICAL_ORDER} is computed
   * from the names.
   */
  private enum Member {
    AUTHORIZATION_ID("authorization_id", (a, out) -> identifier(a.authorizationId().value(), out)),
    ORGANIZATION_ID("organization_id", (a, out) -> identifier(a.organizationId().value(), out)),
    SEAT_ID("seat_id", (a, out) -> string(a.seatId(), out)),
    RUNTIME_BINDING_ID("runtime_binding_id", (a, out) -> string(a.runtimeBindingId(), out)),
    PACKET_ID("packet_id", (a, out) -> string(a.packetId(), out)),
    ATTEMPT_ID("attempt_id", (a, out) -> string(a.attemptId(), out)),
    CONNECTION_ID("connection_id", (a, out) -> identifier(a.connectionId().value(), out)),
    CONNECTOR_REVISION("connector_revision", (a, out) -> identifier(a.connectorRevision().value(), out)),
    OPERATION_ID("operation_id", (a, out) -> identifier(a.operationId().value(), out)),
    ARGUMENT_DIGEST("argument_digest", (a, out) -> string(a.argumentDigest(), out)),
    IDEMPOTENCY_KEY("idempotency_key", (a, out) -> identifier(a.idempotencyKey().value(), out)),
    APPROVAL_REFS("approval_refs", (a, out) -> array(a.approvalRefs(), AuthorizationCanonicalForm::string, out)),
    ISSUED_AT("issued_at", (a, out) -> instant(a.issuedAt(), out)),
    EXPIRES_AT("expires_at", (a, out) -> instant(a.expiresAt(), out)),
    NONCE("nonce", (a, out) -> string(a.nonce(), out)),
    AUDIENCE("audience", (a, out) -> string(a.audience(), out)),
    ISSUER("issuer", (a, out) -> string(a.issuer(), out)),
    SIGNATURE("signature", (a, out) -> string(a.signature(), out));

    /** The canonical order: by the UTF-16 code units of the names ({@link String#compareTo}), as objects are sorted. */
    static final Member[] CANONICAL_ORDER = canonicalOrder();

    /** The snake_case name the contract JSON uses. */
    final String name;

    /** The name as a canonical JSON string followed by the colon: what precedes the value. */
    final String prefix;

    /** Appends the member's canonical value. */
    final BiConsumer<EffectAuthorization, StringBuilder> value;

    Member(String name, BiConsumer<EffectAuthorization, StringBuilder> value) {
      this.name = name;
      StringBuilder prefix = new StringBuilder(name.length() + 3);
      string(name, prefix);
      this.prefix = prefix.append(':').toString();
      this.value = value;
    }

    private static Member[] canonicalOrder() {
      Member[] members = values();
      Arrays.sort(members, Comparator.comparing(member -> member.name));
      return members;
    }
  }

  /** The canonical UTF-8 JSON object of {@code authorization}'s members, {@code signature} only when asked. */
  private static byte[] write(EffectAuthorization authorization, boolean withSignature) {
    ContractRules.required(authorization, "authorization");
    StringBuilder out = new StringBuilder(768);
    out.append('{');
    for (Member member : Member.CANONICAL_ORDER) {
      if (member == Member.SIGNATURE && !withSignature) {
        continue;
      }
      if (out.length() > 1) {
        out.append(',');
      }
      out.append(member.prefix);
      member.value.accept(authorization, out);
    }
    out.append('}');
    return out.toString().getBytes(StandardCharsets.UTF_8); // exact: lone surrogates were refused
  }

  /** An identifier's contract JSON, {@code {"value":"..."}}: a one-member object, already canonical. */
  private static void identifier(String value, StringBuilder out) {
    out.append("{\"value\":");
    string(value, out);
    out.append('}');
  }

  /** A JSON array of {@code values} in their order, each written by {@code element}. */
  private static <T> void array(Iterable<T> values, BiConsumer<T, StringBuilder> element, StringBuilder out) {
    out.append('[');
    boolean first = true;
    for (T value : values) {
      if (!first) {
        out.append(',');
      }
      first = false;
      element.accept(value, out);
    }
    out.append(']');
  }

  /** An instant as the contract mapper writes it; its characters never need escaping. */
  private static void instant(Instant instant, StringBuilder out) {
    out.append('"');
    InstantJson.appendTo(instant, out);
    out.append('"');
  }

  private static void write(JsonNode node, StringBuilder out) {
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> members = new ArrayList<>(node.properties());
      members.sort(Map.Entry.comparingByKey()); // String.compareTo compares UTF-16 code units, as RFC 8785 sorts
      out.append('{');
      for (int i = 0; i < members.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        string(members.get(i).getKey(), out);
        out.append(':');
        write(members.get(i).getValue(), out);
      }
      out.append('}');
    } else if (node.isArray()) {
      array(node.values(), AuthorizationCanonicalForm::write, out);
    } else if (node.isString()) {
      string(node.asString(), out);
    } else if (node.isNumber()) {
      out.append(number(node.isFloatingPointNumber() && !node.isBigDecimal() ? node.doubleValue()
          : Double.parseDouble(node.numberValue().toString())));
    } else if (node.isBoolean()) {
      out.append(node.booleanValue() ? "true" : "false");
    } else if (node.isNull()) {
      out.append("null");
    } else {
      throw new IllegalArgumentException("not a JSON value: " + node.getNodeType());
    }
  }

  private static void string(String text, StringBuilder out) {
    out.append('"');
    int verbatim = verbatimPrefix(text);
    if (verbatim == text.length()) {
      out.append(text).append('"');
      return;
    }
    out.append(text, 0, verbatim);
    for (int i = verbatim; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
          } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
              && Character.isLowSurrogate(text.charAt(i + 1))) {
            out.append(c).append(text.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            throw new IllegalArgumentException("string holds a lone surrogate at index " + i + "; not I-JSON");
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * The length of {@code text}'s longest prefix that is written as is, in one append: no quote, backslash, control
   * character below U+0020 or surrogate. (A surrogate pair is written as is too, but a lone surrogate is refused, so
   * surrogates are left to the character-by-character loop.)
   */
  private static int verbatimPrefix(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c)) {
        return i;
      }
    }
    return text.length();
  }

  /** ECMAScript's {@code Number.prototype.toString(d)}, as RFC 8785 section 3.2.2.3 requires. */
  static String number(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalArgumentException("NaN and Infinity are not I-JSON");
    }
    if (d == 0) {
      return "0"; // -0 too
    }
    if (d < 0) {
      return "-" + number(-d);
    }
    BigDecimal shortest = ShortestDecimal.of(d);
    String digits = shortest.unscaledValue().toString(); // s, k digits, no trailing zero
    int k = digits.length();
    int n = k - shortest.scale(); // d = 0.s * 10^n
    if (k <= n && n <= 21) {
      return digits + "0".repeat(n - k);
    }
    if (0 < n && n <= 21) {
      return digits.substring(0, n) + "." + digits.substring(n);
    }
    if (-6 < n && n <= 0) {
      return "0." + "0".repeat(-n) + digits;
    }
    int exponent = n - 1;
    String mantissa = k == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    return mantissa + "e" + (exponent < 0 ? "-" : "+") + Math.abs(exponent);
  }
}
