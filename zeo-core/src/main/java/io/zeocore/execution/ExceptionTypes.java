package io.zeocore.execution;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Looks exceptions up in a type-to-kind map: subclasses match, the most specific type wins, causes are tried next. */
final class ExceptionTypes {

  /** Bounds the walk down a cause chain: cycles and pathological chains end here. */
  static final int MAX_CAUSES = 16;

  private ExceptionTypes() {}

  /** The kind of the first link of {@code thrown}'s cause chain that has a mapped type, or {@code null}. */
  static @Nullable FailureKind find(Map<Class<? extends Throwable>, FailureKind> kinds, Throwable thrown) {
    if (kinds.isEmpty()) {
      return null;
    }
    Throwable link = thrown;
    for (int depth = 0; link != null && depth < MAX_CAUSES; depth++) {
      for (Class<?> type = link.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
        FailureKind kind = kinds.get(type);
        if (kind != null) {
          return kind; // walking up from the concrete class: the first hit is the most specific
        }
      }
      Throwable cause = link.getCause();
      link = cause == link ? null : cause;
    }
    return null;
  }
}
