package io.zeocore.autoconfigure.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.ObservationConvention;

/**
 * What the conventions of orchestrator call observations (an effect's {@code execute}, a read's {@code observe}) have
 * in common: the name, the contextual name {@code <prefix> <operation id>} and the low-cardinality keys every call
 * carries ({@code operation}, {@code state}, {@code refusal.reason}, {@code error}). Each convention names the
 * high-cardinality key of its call's id itself.
 *
 * @param <C> the call's context
 */
abstract class ConnectionCallConvention<C extends ConnectionCallContext> implements ObservationConvention<C> {

  private final String name;
  private final String contextualNamePrefix;

  /**
   * @param name the observation's name
   * @param contextualNamePrefix what the contextual name starts with, before a space and the operation id
   */
  ConnectionCallConvention(String name, String contextualNamePrefix) {
    this.name = name;
    this.contextualNamePrefix = contextualNamePrefix;
  }

  @Override
  public String getName() {
    return name;
  }

  @Override
  public String getContextualName(C context) {
    return contextualNamePrefix + " " + context.getOperationId().value();
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(C context) {
    return context.callKeyValues();
  }
}
