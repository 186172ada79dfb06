package io.zeocore.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.zeocore.WireValue;
import io.zeocore.autoconfigure.actuate.RecentEvents;
import io.zeocore.autoconfigure.actuate.ZeoCoreEndpoint;
import io.zeocore.autoconfigure.connections.EffectTransitionEvent;
import io.zeocore.autoconfigure.connections.ReceiptRecordedEvent;
import io.zeocore.autoconfigure.connections.RecoverySweptEvent;
import io.zeocore.autoconfigure.connections.ZeoCoreConnectionsProperties;
import io.zeocore.autoconfigure.execution.AttemptRecordedEvent;
import io.zeocore.autoconfigure.execution.ExecutionCompletedEvent;
import io.zeocore.autoconfigure.execution.ZeoCoreExecutionProperties;
import io.zeocore.connections.contract.EffectRecord;
import io.zeocore.connections.store.Dialect;
import io.zeocore.execution.AttemptRecord;
import io.zeocore.execution.ExecutionPolicy;
import io.zeocore.execution.ResilientExecutionResult;
import io.zeocore.internal.MillisecondsJson;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ResourcePatternHint;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.type.classreading.CachingMetadataReaderFactory;
import org.springframework.core.type.classreading.MetadataReader;
import org.sqlite.util.LibraryLoaderUtil;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * What ZeoCore registers for native images ({@link ZeoCoreRuntimeHints}), checked with Spring's own hint predicates: a
 * resource or type the registrar leaves out fails here. The types that must be bound are found on the class path
 * (every ZeoCore record and enum with a Jackson annotation or a wire value, every ZeoCore Jackson (de)serializer), so a
 * new one without a hint fails too.
 */
class ZeoCoreRuntimeHintsTests {

  private static final String JACKSON_ANNOTATION = "com.fasterxml.jackson.annotation.JacksonAnnotation";

  private static RuntimeHints hintsFor(ClassLoader classLoader) {
    RuntimeHints hints = new RuntimeHints();
    new ZeoCoreRuntimeHints().registerHints(hints, classLoader);
    return hints;
  }

  private static RuntimeHints withConnections() {
    return hintsFor(ZeoCoreRuntimeHintsTests.class.getClassLoader());
  }

  /** An application of the runner alone: the connections' classes, and sqlite-jdbc, are not on its class path. */
  private static RuntimeHints runnerOnly() {
    return hintsFor(new FilteredClassLoader("io.zeocore.connections", "org.sqlite"));
  }

  private static Predicate<RuntimeHints> bound(Class<?> type) {
    Predicate<RuntimeHints> bound = RuntimeHintsPredicates.reflection().onType(type)
        .withMemberCategory(type.isEnum() ? MemberCategory.INVOKE_PUBLIC_METHODS
            : MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
    if (type.isRecord()) {
      for (RecordComponent component : type.getRecordComponents()) {
        bound = bound.and(RuntimeHintsPredicates.reflection().onMethodInvocation(component.getAccessor()));
      }
    }
    return bound;
  }

  @Test
  void everyApplicationGetsTheRegistrarThroughAotFactories() {
    assertThat(AotServices.factories(getClass().getClassLoader()).load(RuntimeHintsRegistrar.class).asList())
        .hasAtLeastOneElementOfType(ZeoCoreRuntimeHints.class);
  }

  @Test
  void keepsTheMigrationsOfBothDialectsAndTheIndexThatNamesThem() throws IOException {
    RuntimeHints hints = withConnections();
    for (Dialect dialect : Dialect.values()) {
      String location = dialect.migrationLocation().substring("classpath:".length());
      List<String> scripts = lines(location + "/migrations.txt");
      assertThat(scripts).as(dialect + " migrations").isNotEmpty();
      assertThat(RuntimeHintsPredicates.resource().forResource(location + "/migrations.txt")).accepts(hints);
      for (String script : scripts) {
        assertThat(RuntimeHintsPredicates.resource().forResource(location + "/" + script)).as(script)
            .accepts(hints);
      }
    }
  }

  @Test
  void keepsTheConfigurationMetadataAndEveryPropertiesClassTheKeyCheckWalks() throws Exception {
    for (RuntimeHints hints : List.of(withConnections(), runnerOnly())) {
      for (String file : ZeoCoreRuntimeHints.CONFIGURATION_METADATA) {
        assertThat(RuntimeHintsPredicates.resource().forResource(file)).accepts(hints);
      }
    }
    JsonNode metadata;
    try (InputStream in = getClass().getClassLoader()
        .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
      metadata = JsonMapper.builder().build().readTree(in);
    }
    // the groups the key check resolves by name and walks (ConfigurationKeyModel), and every ZeoCore type below them
    Set<Class<?>> walked = new LinkedHashSet<>();
    for (JsonNode group : metadata.path("groups")) {
      String type = group.path("type").asString();
      if (group.path("name").asString().startsWith("zeocore.") && type.equals(group.path("sourceType").asString())) {
        walk(Class.forName(type), walked);
      }
    }
    assertThat(walked).contains(ZeoCoreExecutionProperties.class, ZeoCoreExecutionProperties.Policy.class,
        ZeoCoreConnectionsProperties.class);
    RuntimeHints hints = withConnections();
    List<String> missing = walked.stream()
        .filter(type -> !RuntimeHintsPredicates.reflection().onType(type).test(hints)).map(Class::getName).toList();
    assertThat(missing).as("properties classes without a hint").isEmpty();
    assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(ZeoCoreExecutionProperties.Policy.class,
        "getAttemptTargets")).accepts(hints).accepts(runnerOnly());
  }

  /** {@code type} and the ZeoCore classes its JavaBean properties hold, followed as the key check follows them. */
  private static void walk(Class<?> type, Set<Class<?>> walked) {
    if (type.isEnum() || !type.getName().startsWith("io.zeocore.") || !walked.add(type)) {
      return;
    }
    for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
      if (property.getReadMethod() != null && !property.getName().equals("class")) {
        heldTypes(ResolvableType.forMethodReturnType(property.getReadMethod(), type))
            .forEach(held -> walk(held, walked));
      }
    }
  }

  private static List<Class<?>> heldTypes(ResolvableType type) {
    List<Class<?>> held = new ArrayList<>();
    Class<?> resolved = type.resolve();
    if (resolved != null) {
      held.add(resolved.isArray() ? resolved.getComponentType() : resolved);
    }
    for (ResolvableType generic : type.getGenerics()) {
      held.addAll(heldTypes(generic));
    }
    return held;
  }

  @Test
  void bindsEveryTypeZeoCoreWritesAsJsonWithItsSerializers() throws Exception {
    RuntimeHints hints = withConnections();
    List<Class<?>> jsonTypes = zeoCoreMainClasses(ZeoCoreRuntimeHintsTests::hasJsonForm);
    assertThat(jsonTypes).as("found on the class path")
        .contains(ResilientExecutionResult.class, AttemptRecord.class, EffectRecord.class, RecentEvents.Entry.class,
            ExecutionCompletedEvent.class, ZeoCoreEndpoint.PolicyDescriptor.class)
        .hasSizeGreaterThan(40);
    List<Class<?>> named = List.of(ExecutionPolicy.class, AttemptRecordedEvent.class,
        ZeoCoreEndpoint.ZeoCoreDescriptor.class, ZeoCoreEndpoint.EventsDescriptor.class,
        ZeoCoreEndpoint.PolicyView.class, EffectTransitionEvent.class, ReceiptRecordedEvent.class,
        RecoverySweptEvent.class);
    List<String> unbound = Stream.concat(jsonTypes.stream(), named.stream())
        .filter(type -> !bound(type).test(hints)).map(Class::getName).toList();
    assertThat(unbound).as("JSON types without binding hints").isEmpty();

    List<Class<?>> serializers = zeoCoreMainClasses(
        type -> !Modifier.isAbstract(type.getModifiers())
            && (ValueSerializer.class.isAssignableFrom(type) || ValueDeserializer.class.isAssignableFrom(type)));
    assertThat(serializers).contains(MillisecondsJson.Writer.class, MillisecondsJson.Reader.class)
        .hasSizeGreaterThanOrEqualTo(8);
    List<String> notInstantiable = serializers.stream()
        .filter(serializer -> !RuntimeHintsPredicates.reflection().onType(serializer)
            .withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS).test(hints))
        .map(Class::getName).toList();
    assertThat(notInstantiable).as("(de)serializers Jackson cannot instantiate").isEmpty();
    Class<?> rawMixIn = Class.forName("io.zeocore.connections.contract.SecretRefJson$RawMixIn");
    assertThat(RuntimeHintsPredicates.reflection().onType(rawMixIn)).as("the store's SecretRef mix-in")
        .accepts(hints);
    assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(WireValue.class, "wireValue"))
        .as("the @JsonValue of every ZeoCore enum").accepts(hints);
  }

  @Test
  void keepsTheSqliteLibraryTheEmbeddedStoreLoadsForThisPlatform() {
    String library = LibraryLoaderUtil.getNativeLibResourcePath().substring(1) + "/"
        + LibraryLoaderUtil.getNativeLibName();

    assertThat(RuntimeHintsPredicates.resource().forResource(library)).accepts(withConnections());
    assertThat(RuntimeHintsPredicates.resource().forResource(library)).rejects(
        hintsFor(new FilteredClassLoader("org.sqlite")));
  }

  @Test
  void aRunnerOnlyApplicationGetsTheRunnersHintsAndNoneOfTheConnections() {
    RuntimeHints hints = runnerOnly();

    assertThat(bound(ResilientExecutionResult.class).and(bound(AttemptRecord.class))
        .and(bound(ExecutionCompletedEvent.class)).and(bound(RecentEvents.Entry.class))
        .and(bound(ZeoCoreEndpoint.ZeoCoreDescriptor.class))).accepts(hints);
    assertThat(RuntimeHintsPredicates.reflection().onType(MillisecondsJson.Writer.class)).accepts(hints);
    assertThat(RuntimeHintsPredicates.resource().forResource("db/zeocore/sqlite/migrations.txt")).rejects(hints);
    assertThat(RuntimeHintsPredicates.resource().forResource("db/zeocore/postgresql/migrations.txt")).rejects(hints);
    assertThat(RuntimeHintsPredicates.reflection().onType(EffectRecord.class)).rejects(hints);
    assertThat(RuntimeHintsPredicates.reflection().onType(EffectTransitionEvent.class)).rejects(hints);
    assertThat(RuntimeHintsPredicates.reflection().onType(ZeoCoreConnectionsProperties.class)).rejects(hints);
    assertThat(hints.resources().resourcePatternHints()
        .flatMap(patterns -> patterns.getIncludes().stream())
        .map(ResourcePatternHint::getPattern))
        .noneMatch(pattern -> pattern.startsWith("db/") || pattern.startsWith("org/sqlite"));
  }

  @Test
  void theEndpointsDescriptorsAreBoundOnlyWithSpringBootsActuator() {
    Predicate<RuntimeHints> descriptors = bound(ZeoCoreEndpoint.ZeoCoreDescriptor.class)
        .and(bound(ZeoCoreEndpoint.PolicyDescriptor.class));

    assertThat(descriptors).accepts(withConnections()).accepts(runnerOnly());
    RuntimeHints withoutActuator = hintsFor(new FilteredClassLoader("org.springframework.boot.actuate"));
    assertThat(RuntimeHintsPredicates.reflection().onType(ZeoCoreEndpoint.ZeoCoreDescriptor.class))
        .rejects(withoutActuator);
    assertThat(bound(RecentEvents.Entry.class).and(bound(EffectRecord.class))).accepts(withoutActuator);
  }

  /** ZeoCore records and enums with a JSON form: a Jackson annotation on them or a member, or a wire value. */
  private static boolean hasJsonForm(Class<?> type) {
    if (!type.isRecord() && !type.isEnum()) {
      return false;
    }
    if (WireValue.class.isAssignableFrom(type) || jackson(type)) {
      return true;
    }
    List<AnnotatedElement> members = new ArrayList<>();
    members.addAll(List.of(type.getDeclaredFields()));
    members.addAll(List.of(type.getDeclaredMethods()));
    members.addAll(List.of(type.getDeclaredConstructors()));
    return members.stream().anyMatch(ZeoCoreRuntimeHintsTests::jackson);
  }

  private static boolean jackson(AnnotatedElement element) {
    return MergedAnnotations.from(element, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
        .isPresent(JACKSON_ANNOTATION);
  }

  /** The classes of ZeoCore's main artifacts (not their tests) that {@code filter} accepts. */
  private static List<Class<?>> zeoCoreMainClasses(Predicate<Class<?>> filter) throws IOException {
    PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();
    CachingMetadataReaderFactory readers = new CachingMetadataReaderFactory(resolver);
    List<Class<?>> found = new ArrayList<>();
    for (Resource resource : resolver.getResources("classpath*:io/zeocore/**/*.class")) {
      String location = resource.getURL().toString();
      if (location.contains("/test-classes/") || location.contains("-tests.jar")) {
        continue;
      }
      MetadataReader reader = readers.getMetadataReader(resource);
      if (reader.getClassMetadata().isInterface()) {
        continue;
      }
      Class<?> type;
      try {
        type = Class.forName(reader.getClassMetadata().getClassName(), false,
            ZeoCoreRuntimeHintsTests.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError optionalDependencyAbsent) {
        continue;
      }
      if (filter.test(type)) {
        found.add(type);
      }
    }
    return found;
  }

  private static List<String> lines(String resource) throws IOException {
    try (InputStream in = ZeoCoreRuntimeHintsTests.class.getClassLoader().getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
          .filter(line -> !line.isEmpty()).toList();
    }
  }
}
