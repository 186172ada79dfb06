package io.zeocore.connections.contract;

import io.zeocore.EffectKind;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
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

  static final class Reader extends JsonStringReader<EffectKind> {

    Reader() {
      super(EffectKind.class,
          "effect must be one of read, write, delete, external_communication, financial, security_sensitive");
    }

    @Override
    @Nullable EffectKind parse(String text) {
      for (EffectKind kind : EffectKind.values()) {
        if (kind.wireValue().equals(text)) {
          return kind;
        }
      }
      return null;
    }
  }
}
