/** The minimal Spring Boot application that item 6 starts with and without the starter. */
@NullMarked
package io.zeocore.benchmarks.startup;

import org.jspecify.annotations.NullMarked;
