/**
 * ZeoCore's Spring Boot auto-configuration, one sub-package per integration, and what it registers for Spring AOT and
 * native images ({@code ZeoCoreRuntimeHints}).
 */
@NullMarked
package io.zeocore.autoconfigure;

import org.jspecify.annotations.NullMarked;
