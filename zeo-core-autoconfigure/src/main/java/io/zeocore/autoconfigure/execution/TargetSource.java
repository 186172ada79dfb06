package io.zeocore.autoconfigure.execution;

/**
 * Where the targets a policy plans come from, set by {@code zeocore.execution.policies.<name>.targets}: this decides
 * whether the planned ids are checked at start-up.
 */
public enum TargetSource {

  /**
   * Every planned id is a target the application registers: a {@link io.zeocore.execution.NamedTarget} bean
   * (including Spring AI chat targets) or a subprocess provider of {@code zeocore.subprocess.providers}. An id that
   * none of them has stops start-up, naming the property and the nearest known id. The default.
   */
  REGISTERED,

  /**
   * The targets are passed to each run ({@code ZeoCoreExecutions.run(name, targets)} with a map or list, or the
   * runner's own methods), so the planned ids cannot be known at start-up and are not checked then; a run whose
   * targets lack a planned id is refused with {@code ZEO_EXEC_TARGET_UNAVAILABLE}.
   */
  CALL_TIME
}
