/**
 * The test kit's Spring part: {@link io.zeocore.test.spring.ZeoCoreTest} and the beans it puts in a test's context.
 */
@NullMarked
package io.zeocore.test.spring;

import org.jspecify.annotations.NullMarked;
