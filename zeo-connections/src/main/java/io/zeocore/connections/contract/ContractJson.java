package io.zeocore.connections.contract;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zeocore.EffectKind;
import io.zeocore.connections.internal.JsonValues;
import java.time.Instant;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.LogicalType;

/**
 * The Jackson 3 mappers of the connection contracts. Both are immutable, thread-safe and shared.
 *
 * <p>Wire format: snake_case field names (bound on each record, so any mapper uses them), identifiers as
 * {@code {"value":"..."}}, enum constants by exact name except {@code EffectKind} by its lowercase wire value,
 * instants as ISO-8601 UTC with exactly six fractional digits, {@code null} fields omitted, properties and map
 * entries sorted by name.
 *
 * <p>Reading is strict: unknown fields, duplicate keys, trailing content, {@code NaN}/{@code Infinity}, numbers for
 * enums, scalar coercions (a number for a string, a string for a boolean or number, a fraction for an integer) and nulls for primitives are all refused;
 * every contract's own validation runs in its constructor.
 *
 * <p>The rules that matter for safety do not depend on these mappers: every contract record refuses a field it does
 * not declare (its own {@code @JsonAnySetter}, which Jackson applies whatever {@code FAIL_ON_UNKNOWN_PROPERTIES} says),
 * and every contract enum writes and reads its own wire value ({@code @JsonValue}/{@code @JsonCreator}). A plain
 * {@code JsonMapper} or Spring Boot's {@code JsonMapper} bean therefore cannot drop an extra field such as
 * {@code callback_url} or misspell an enum.
 */
public final class ContractJson {

  private static final JsonMapper MAPPER = build(false);
  private static final JsonMapper STORE_DOCUMENT_MAPPER = build(true);

  private ContractJson() {}

  /**
   * The mapper for every channel that is not the store: APIs, events, logs, diagnostics. It writes every
   * {@link SecretRef} as {@code {"handle":"<redacted>"}}.
   */
  public static JsonMapper mapper() {
    return MAPPER;
  }

  /**
   * The store's document mapper: identical to {@link #mapper()} except that it writes the <em>raw</em>
   * {@link SecretRef} handle, so that a stored {@link Connection} reads back with its real handle. Use it only to
   * write store documents; never for logs, events, API responses or exception messages.
   */
  public static JsonMapper storeDocumentMapper() {
    return STORE_DOCUMENT_MAPPER;
  }

  /**
   * Reads one contract of {@code type} from {@code json} with {@link #mapper()}. Unlike a plain {@code readValue}, the
   * JSON literal {@code null} is refused: a contract is never absent by accident.
   *
   * @throws IllegalArgumentException for {@code null} JSON, naming the type
   * @throws tools.jackson.core.JacksonException for JSON that is not a valid {@code type} (unknown fields, nesting
   *     deeper than {@link JsonValues#MAX_DEPTH}, a broken rule of the record)
   */
  public static <T> T read(String json, Class<T> type) {
    T value = MAPPER.readValue(json, type);
    if (value == null) {
      throw new IllegalArgumentException(type.getSimpleName() + " JSON must be an object, not null");
    }
    return value;
  }

  private static JsonMapper build(boolean rawSecretHandles) {
    SimpleModule instants = new SimpleModule("zeocore-contract-instants");
    instants.addSerializer(Instant.class, new InstantJson.Writer());
    instants.addDeserializer(Instant.class, new InstantJson.Reader());
    JsonMapper.Builder builder = JsonMapper.builder(JsonFactory.builder()
            .streamReadConstraints(JsonValues.readConstraints()).build())
        .addModule(instants)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES,
            DeserializationFeature.FAIL_ON_TRAILING_TOKENS, DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .enable(EnumFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
        .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
        .withCoercionConfig(LogicalType.Textual, config -> config
            .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
        .changeDefaultPropertyInclusion(inclusion -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL)
            .withContentInclusion(JsonInclude.Include.ALWAYS));
    if (rawSecretHandles) {
      builder.addMixIn(SecretRef.class, SecretRefJson.RawMixIn.class);
    }
    return builder.build();
  }
}
