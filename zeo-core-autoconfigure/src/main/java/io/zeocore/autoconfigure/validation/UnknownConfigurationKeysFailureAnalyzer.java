package io.zeocore.autoconfigure.validation;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports {@link UnknownConfigurationKeysException}: each unknown key, where it was set and what was probably meant. */
class UnknownConfigurationKeysFailureAnalyzer extends AbstractFailureAnalyzer<UnknownConfigurationKeysException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, UnknownConfigurationKeysException cause) {
    StringBuilder description = new StringBuilder("ZeoCore does not know these configuration keys:\n");
    for (UnknownConfigurationKeysException.UnknownKey key : cause.keys()) {
      description.append("\n    Property: ").append(key.key());
      if (key.origin() != null) {
        description.append("\n    Origin: ").append(key.origin());
      }
      description.append("\n    Reason: ").append(key.suggestion() != null
          ? "no such key; did you mean " + key.suggestion() + "?" : "no such key").append('\n');
    }
    description.append("\nzeocore.* is ZeoCore's namespace: a key it does not know is refused rather than ignored, "
        + "so that a misspelling never leaves a default in place.");
    return new FailureAnalysis(description.toString(),
        "Correct or remove the keys above. The known keys are listed in ZeoCore's configuration metadata "
            + "(your IDE completes them) and in the README's configuration reference.", cause);
  }
}
