/**
 * ZeoCore's test kit: {@link io.zeocore.test.VirtualTime}, {@link io.zeocore.test.ScriptedTarget},
 * {@link io.zeocore.test.ScriptedHttpServer} and {@link io.zeocore.test.ZeoCoreAssertions}. Add
 * {@code io.zeocore:zeo-core-test} in the test scope.
 */
@NullMarked
package io.zeocore.test;

import org.jspecify.annotations.NullMarked;
