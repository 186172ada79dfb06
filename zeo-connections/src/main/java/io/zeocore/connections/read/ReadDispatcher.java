package io.zeocore.connections.read;

/**
 * Performs one read at the provider. Called at most once per claimed read. Any exception (or a {@code null}
 * return) becomes a {@code FAILED_SAFE} receipt with code {@code PROVIDER_UNAVAILABLE}: reads have no ambiguity and no
 * reconciler. Exception text is discarded.
 */
@FunctionalInterface
public interface ReadDispatcher {

  ReadDispatchResult read(ReadDispatchRequest request) throws Exception;
}
