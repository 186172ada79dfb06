package io.zeocore.autoconfigure.connections;

import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Explains a missing {@code EffectOrchestrator}, {@code ReadOrchestrator} or {@code ExactAuthorizationVerifier}:
 * ZeoCore creates them only when {@code zeocore.connections.authorization} is configured, because an orchestrator
 * without exact authorization would be a permissive default.
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 100)
class MissingOrchestratorFailureAnalyzer implements FailureAnalyzer {

  /** By name: an application without zeo-connections loads this analyzer too, and must not load those types. */
  private static final Set<String> TYPES = Set.of("io.zeocore.connections.effect.EffectOrchestrator",
      "io.zeocore.connections.read.ReadOrchestrator",
      "io.zeocore.connections.authorization.ExactAuthorizationVerifier");

  @Override
  public @Nullable FailureAnalysis analyze(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof NoSuchBeanDefinitionException missing && missing.getBeanType() != null
          && TYPES.contains(missing.getBeanType().getName())) {
        String type = missing.getBeanType().getSimpleName();
        return new FailureAnalysis("No " + type + " bean exists. ZeoCore creates its orchestrators and their "
            + "ExactAuthorizationVerifier only when effect authorization is configured: every effect must be "
            + "authorized exactly, and there is no permissive default.",
            "Configure zeocore.connections.authorization.audience, zeocore.connections.authorization.trusted-issuers "
                + "and zeocore.connections.authorization.trust-roots.<issuer> (Ed25519 public keys in PEM form), or "
                + "define an ExactAuthorizationVerifier bean.", missing);
      }
    }
    return null;
  }
}
