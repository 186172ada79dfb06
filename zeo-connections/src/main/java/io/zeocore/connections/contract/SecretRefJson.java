package io.zeocore.connections.contract;

import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.annotation.JsonSerialize;

/** The two JSON writers of {@link SecretRef}: the redacting default and the store's raw one. */
final class SecretRefJson {

  private SecretRefJson() {}

  /** Writes {@code {"handle":"<redacted>"}}: the field shape is kept, the value never. */
  static final class Redacting extends ValueSerializer<SecretRef> {
    @Override
    public void serialize(SecretRef value, JsonGenerator gen, SerializationContext ctxt) {
      gen.writeStartObject();
      gen.writeStringProperty("handle", SecretRef.REDACTED);
      gen.writeEndObject();
    }
  }

  /** Writes {@code {"handle":"<raw handle>"}}. Installed only on {@link ContractJson#storeDocumentMapper()}. */
  static final class Raw extends ValueSerializer<SecretRef> {
    @Override
    public void serialize(SecretRef value, JsonGenerator gen, SerializationContext ctxt) {
      gen.writeStartObject();
      gen.writeStringProperty("handle", value.handle());
      gen.writeEndObject();
    }
  }

  /** Mix-in that replaces the redacting serializer for the store's documents. */
  @JsonSerialize(using = Raw.class)
  abstract static class RawMixIn {}
}
