package io.zeocore.autoconfigure.internal;

import java.util.function.Predicate;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when a property that counts is set under a prefix (see {@link ConfiguredProperties#anySetUnder}): that part
 * of the configuration is "configured". Not API: the base of ZeoCore's "configured" conditions only.
 */
public abstract class PropertiesSetUnderCondition extends SpringBootCondition {

  private final String prefix;
  private final Predicate<ConfigurationPropertyName> counts;

  /**
   * @param prefix a canonical property name, e.g. {@code zeocore.connections}
   * @param counts which names set under {@code prefix} make it configured
   */
  protected PropertiesSetUnderCondition(String prefix, Predicate<ConfigurationPropertyName> counts) {
    this.prefix = prefix;
    this.counts = counts;
  }

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    return ConfiguredProperties.anySetUnder(context.getEnvironment(), prefix, counts)
        ? ConditionOutcome.match("properties are set under " + prefix)
        : ConditionOutcome.noMatch("no property is set under " + prefix);
  }
}
