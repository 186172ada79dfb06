/** ZeoCore's Spring Boot auto-configuration: what spans its packages (runtime hints for AOT and native images). */
@NullMarked
package io.zeocore.autoconfigure;

import org.jspecify.annotations.NullMarked;
