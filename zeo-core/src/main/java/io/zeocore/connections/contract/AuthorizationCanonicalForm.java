package io.zeocore.connections.contract;

import io.zeocore.internal.ContractRules;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The canonical JSON of an {@link EffectAuthorization}, the exact bytes that are signed and digested.
 *
 * <p>Form: the authorization's contract JSON ({@link ContractJson#mapper()}: snake_case names, identifiers as
 * {@code {"value":"..."}}, instants as ISO-8601 UTC with exactly six fractional digits, e.g.
 * {@code 2026-01-02T03:04:05.000000Z}, {@code approval_refs} as an array, always present) with the keys of every object
 * sorted by UTF-16 code units (as RFC 8785), no whitespace, strings with JSON's mandatory escapes only (quote,
 * backslash, control characters as {@code \\uXXXX} or short escapes) and other characters as raw UTF-8, encoded as
 * UTF-8. The result does not depend on the order in which fields were set.
 *
 * <p>{@link #signingPayload} omits {@code signature} (what the issuer signs); {@link #document} includes it (what the
 * authorization digest covers).
 */
public final class AuthorizationCanonicalForm {

  private AuthorizationCanonicalForm() {}

  /** Canonical UTF-8 JSON of every field except {@code signature}. */
  public static byte[] signingPayload(EffectAuthorization authorization) {
    ObjectNode tree = tree(authorization);
    tree.remove("signature");
    return write(tree);
  }

  /** Canonical UTF-8 JSON of every field, {@code signature} included. */
  public static byte[] document(EffectAuthorization authorization) {
    return write(tree(authorization));
  }

  private static ObjectNode tree(EffectAuthorization authorization) {
    ContractRules.required(authorization, "authorization");
    return (ObjectNode) ContractJson.mapper().valueToTree(authorization);
  }

  private static byte[] write(ObjectNode tree) {
    JsonMapper mapper = ContractJson.mapper();
    return mapper.writeValueAsBytes(sorted(tree, mapper));
  }

  private static JsonNode sorted(JsonNode node, JsonMapper mapper) {
    if (node instanceof ObjectNode object) {
      List<String> names = new ArrayList<>(object.propertyNames());
      names.sort(String::compareTo);
      ObjectNode copy = mapper.createObjectNode();
      for (String name : names) {
        copy.set(name, sorted(object.get(name), mapper));
      }
      return copy;
    }
    if (node instanceof ArrayNode array) {
      ArrayNode copy = mapper.createArrayNode();
      for (Iterator<JsonNode> it = array.values().iterator(); it.hasNext(); ) {
        copy.add(sorted(it.next(), mapper));
      }
      return copy;
    }
    return node;
  }
}
