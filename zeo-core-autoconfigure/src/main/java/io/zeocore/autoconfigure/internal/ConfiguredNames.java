package io.zeocore.autoconfigure.internal;

import java.util.Collection;

/**
 * How failures name the entries of a configured map (execution policies, configs, subprocess providers): lookups of
 * an entry that is not configured list the ones that are. Not API: shared by ZeoCore's auto-configurations only.
 */
public final class ConfiguredNames {

  private ConfiguredNames() {}

  /** The names in iteration order, separated by {@code ", "}; {@code none} when there are none. */
  public static String list(Collection<String> names) {
    return names.isEmpty() ? "none" : String.join(", ", names);
  }

  /**
   * The failure of a lookup of {@code name}, which is not among {@code configured}:
   * {@code no <entry> named '<name>'; configured: <list> (define it under <prefix>.<name>)}.
   *
   * @param entry what the entries are, e.g. {@code execution policy}
   * @param prefix the map property the entries are bound from, e.g. {@code zeocore.execution.policies}
   */
  public static IllegalArgumentException notConfigured(String entry, String name, Collection<String> configured,
      String prefix) {
    return new IllegalArgumentException("no " + entry + " named '" + name + "'; configured: " + list(configured)
        + " (define it under " + prefix + "." + name + ")");
  }
}
