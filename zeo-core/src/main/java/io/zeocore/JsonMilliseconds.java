package io.zeocore;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import io.zeocore.internal.MillisecondsJson;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * ZeoCore's JSON form of a {@link java.time.Duration}, used by every ZeoCore type that Jackson writes (results,
 * attempt records, events, the actuator endpoint): a number of milliseconds, whole ({@code 200}) or a plain decimal
 * down to the nanosecond ({@code 0.032919}), read back exactly. It is what a bare number means in
 * {@code application.yml}. Any Jackson 3 mapper honours it; nothing needs registering. Put it on a {@code Duration}
 * field, record component or accessor of your own types to write them the same way.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.ANNOTATION_TYPE, ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
@JacksonAnnotationsInside
@JsonSerialize(using = MillisecondsJson.Writer.class)
@JsonDeserialize(using = MillisecondsJson.Reader.class)
public @interface JsonMilliseconds {}
