package io.zeocore.connections.store;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/** Test support: an {@link EffectStore} that runs a hook before each call and then delegates to a real store. */
public final class InterceptedEffectStore {

  /** Runs before the call of {@code method} (an {@link EffectStore} method name); may throw to fail that call. */
  @FunctionalInterface
  public interface BeforeCall {
    void before(String method) throws Exception;
  }

  private InterceptedEffectStore() {}

  /** {@code store}, with {@code hook} run before every call; a call the hook lets through reaches {@code store}. */
  public static EffectStore of(EffectStore store, BeforeCall hook) {
    return (EffectStore) Proxy.newProxyInstance(EffectStore.class.getClassLoader(),
        new Class<?>[] {EffectStore.class}, (proxy, method, arguments) -> {
          hook.before(method.getName());
          try {
            return method.invoke(store, arguments);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
