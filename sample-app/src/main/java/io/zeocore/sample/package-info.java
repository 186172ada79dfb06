/** The sample application: the starter, its YAML and the two services it runs. */
@NullMarked
package io.zeocore.sample;

import org.jspecify.annotations.NullMarked;
