package io.zeocore.autoconfigure.execution;

import io.zeocore.execution.ExecutionMode;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a bean method as a ZeoCore target: the starter registers a {@link io.zeocore.execution.NamedTarget} under
 * {@link #value()}, so that a policy's {@code attempt-targets} plan it like any other target, and
 * {@code ZeoCoreExecutions.run(policy, input, type)} calls it with the run's input.
 *
 * <pre>{@code
 * @Service
 * class Inventory {
 *
 *   @ZeoCoreTarget("inventory")
 *   Stock lookUp(Sku sku) { ... }                                  // sync: one call per attempt
 *
 *   @ZeoCoreTarget("inventory-cache")
 *   Mono<Stock> cached(Sku sku, AttemptContext attempt) { ... }     // async: cancelled at the attempt's timeout
 * }
 * }</pre>
 *
 * <p>The method takes exactly one input parameter (the run's input; a primitive is boxed) and may take an
 * {@link io.zeocore.execution.AttemptContext} besides, in either position. It returns the response:
 * <ul>
 *   <li>a value: a synchronous target, called on the run's thread; it must apply {@code context.timeout()} to its own
 *       I/O (Spring's {@code RestClient}/{@code WebClient} from Boot's builders do it for you) unless the policy's
 *       {@code deadline} is {@code enforced};</li>
 *   <li>a {@link java.util.concurrent.CompletionStage} or a Reactor {@code Mono} (when reactor-core is on the class
 *       path): an asynchronous target ({@link io.zeocore.execution.NamedTarget#ofAsync}) whose timeout is always
 *       enforced: the stage is cancelled (the {@code Mono}'s subscription disposed) when the attempt's timeout
 *       expires. The {@code Mono} is subscribed with the attempt in its Reactor context, so a {@code WebClient}
 *       call inside it is bounded by the attempt as well.</li>
 * </ul>
 * The response type is the return type (its type argument for a stage or a {@code Mono}); a run asks for it by class.
 * Each call is exactly one call of the method: the target must not retry internally.
 *
 * <p>Discovered at start-up on every bean's type (the class of a component, the declared return type of a
 * {@code @Bean} method), also on private methods; the bean itself is looked up at the first call, so a bean may both
 * declare targets and inject {@code ZeoCoreExecutions}. A method with another shape, or two targets with one id, stop
 * start-up naming the method.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ZeoCoreTarget {

  /** The target id policies plan it under (the target-id rule applies: letters, digits, {@code _.:/-}). */
  String value();

  /** {@code LIVE}, or {@code SIMULATED} for a stand-in that policies must allow ({@code allow-simulated}). */
  ExecutionMode executionMode() default ExecutionMode.LIVE;
}
