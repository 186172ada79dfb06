package io.zeocore.execution;

import java.util.LinkedHashMap;
import java.util.Map;

/** The runner tests' target maps, sync or async alike: each target under its own id, in the order given. */
final class TargetMaps {

  private TargetMaps() {}

  @SafeVarargs
  static <E extends ExecutionTarget<?>> Map<String, E> targets(E... targets) {
    Map<String, E> map = new LinkedHashMap<>();
    for (E target : targets) {
      map.put(target.targetId(), target);
    }
    return map;
  }
}
