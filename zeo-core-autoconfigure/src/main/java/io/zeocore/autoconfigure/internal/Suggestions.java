package io.zeocore.autoconfigure.internal;

import java.util.Collection;
import org.jspecify.annotations.Nullable;

/**
 * "Did you mean": the candidate nearest to a misspelled key or name, when it is near enough to be the intended one.
 * Used for configuration keys and for target ids.
 */
public final class Suggestions {

  private Suggestions() {}

  /**
   * The candidate with the smallest edit distance from {@code key}, if that distance is at most a third of the key's
   * last segment (at least 2); ties go to the first candidate.
   */
  public static @Nullable String nearest(String key, Collection<String> candidates) {
    String last = key.substring(key.lastIndexOf('.') + 1);
    int allowed = Math.max(2, last.length() / 3);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      if (candidate.equals(key)) {
        continue;
      }
      int distance = distance(key, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return bestDistance <= allowed ? best : null;
  }

  /** Levenshtein distance. */
  public static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
