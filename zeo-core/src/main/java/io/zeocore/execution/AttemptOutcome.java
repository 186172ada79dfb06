package io.zeocore.execution;

/** Outcome of one started attempt. */
public enum AttemptOutcome {
  SUCCEEDED("succeeded"),
  FAILED("failed");

  private final String wireValue;

  AttemptOutcome(String wireValue) {
    this.wireValue = wireValue;
  }

  /** The reference's lowercase wire value. */
  public String wireValue() {
    return wireValue;
  }
}
