package io.zeocore.connections.store;

import io.zeocore.connections.contract.ContractJson;
import tools.jackson.core.JacksonException;

/** JSON the store keeps in text columns: connection and connector revision documents, inline observation results. */
final class StoreDocuments {

  private StoreDocuments() {}

  /** {@code document} as stored JSON; "{@code <kind>} document could not be written" on failure. */
  static String write(Object document, String kind) {
    try {
      return ContractJson.storeDocumentMapper().writeValueAsString(document);
    } catch (JacksonException e) {
      throw new ConnectionStoreException(kind + " document could not be written", e);
    }
  }

  /** An inline observation result as JSON, written with the contract mapper. */
  static String writeInlineResult(Object value) {
    try {
      return ContractJson.mapper().writeValueAsString(value);
    } catch (JacksonException e) {
      throw new ConnectionStoreException("inline result could not be written", e);
    }
  }

  /** A stored document read back; "stored {@code <kind>} document is unreadable" on failure. */
  static <T> T parse(String document, Class<T> type, String kind) {
    try {
      return ContractJson.storeDocumentMapper().readValue(document, type);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new ConnectionStoreException("stored " + kind + " document is unreadable", e);
    }
  }
}
