package io.zeocore.connections.contract;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;

/** JSON of {@link EffectKind} as its exact lowercase wire value ({@code read}, {@code financial}, ...). */
final class EffectKindJson {

  private EffectKindJson() {}

  static final class Writer extends ValueSerializer<EffectKind> {
    @Override
    public void serialize(EffectKind value, JsonGenerator gen, SerializationContext ctxt) {
      gen.writeString(value.wireValue());
    }
  }

  static final class Reader extends ValueDeserializer<EffectKind> {
    @Override
    public EffectKind deserialize(JsonParser p, DeserializationContext ctxt) {
      if (p.currentToken() != JsonToken.VALUE_STRING) {
        return (EffectKind) ctxt.handleUnexpectedToken(EffectKind.class, p);
      }
      String text = p.getString();
      for (EffectKind kind : EffectKind.values()) {
        if (kind.wireValue().equals(text)) {
          return kind;
        }
      }
      return (EffectKind) ctxt.handleWeirdStringValue(EffectKind.class, text,
          "effect must be one of read, write, delete, external_communication, financial, security_sensitive");
    }
  }
}
