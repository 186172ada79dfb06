package io.zeocore.autoconfigure.validation;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Start-up was stopped because {@code zeocore.*} keys were set that ZeoCore does not have: a misspelled key would
 * otherwise be ignored silently and a default used in its place. Each entry names the key, where it was set and, when
 * one is near, the key that was probably meant. Values are never included.
 */
public class UnknownConfigurationKeysException extends IllegalStateException {

  private final List<UnknownKey> keys;

  UnknownConfigurationKeysException(List<UnknownKey> keys) {
    super("unknown ZeoCore configuration keys: "
        + keys.stream().map(UnknownKey::key).toList());
    this.keys = List.copyOf(keys);
  }

  /** The unknown keys, in the order the property sources list them. */
  public List<UnknownKey> keys() {
    return keys;
  }

  /**
   * One unknown key.
   *
   * @param key the key as set (for a misspelled section, the section, e.g. {@code zeocore.executon})
   * @param origin where it was set (file and line), or {@code null} when unknown
   * @param suggestion the existing key probably meant, or {@code null}
   */
  public record UnknownKey(String key, @Nullable String origin, @Nullable String suggestion) {}
}
