package io.zeocore.execution;

/**
 * Says truthfully what kind of target produced a value. {@link #NONE} appears only on results that carry no value; a
 * target is always {@link #LIVE} or {@link #SIMULATED}.
 */
public enum ExecutionMode {
  LIVE("live"),
  SIMULATED("simulated"),
  NONE("none");

  private final String wireValue;

  ExecutionMode(String wireValue) {
    this.wireValue = wireValue;
  }

  /** The reference's lowercase wire value. */
  public String wireValue() {
    return wireValue;
  }
}
