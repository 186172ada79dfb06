package io.zeocore.autoconfigure.validation;

import io.zeocore.autoconfigure.internal.Suggestions;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.Resource;
import org.springframework.util.ClassUtils;
import org.springframework.util.unit.DataSize;

/**
 * What ZeoCore's configuration keys are: the groups and properties of every configuration-metadata file on the class
 * path whose names start with {@code zeocore.}, and, below a group backed by a properties class, that class's
 * JavaBean properties, followed through nested classes, map values and list elements. It answers whether a key
 * exists and, when it does not, which existing key at the same place is the nearest spelling.
 */
final class ConfigurationKeyModel {

  static final String ROOT = "zeocore";

  /** Root groups (backed by a {@code @ConfigurationProperties} class) by name. */
  private final Map<String, Class<?>> groups;
  /** Every property and group name the metadata lists. */
  private final TreeSet<String> names;

  private ConfigurationKeyModel(Map<String, Class<?>> groups, TreeSet<String> names) {
    this.groups = groups;
    this.names = names;
  }

  /** The model being read on a background thread, for one class loader, until a start-up takes it. */
  private static final AtomicReference<Preloaded> PRELOADED = new AtomicReference<>();

  private record Preloaded(ClassLoader classLoader, FutureTask<ConfigurationKeyModel> model) {}

  /**
   * Starts reading the model {@code classLoader} sees on a new daemon thread, for the next
   * {@link #forClassLoader} call to take instead of reading it then. A later call replaces an earlier one that was not
   * taken.
   */
  static void preload(ClassLoader classLoader) {
    FutureTask<ConfigurationKeyModel> model = new FutureTask<>(() -> load(classLoader));
    PRELOADED.set(new Preloaded(classLoader, model));
    Thread thread = new Thread(model, "zeocore-configuration-keys-preload");
    thread.setDaemon(true);
    thread.start();
  }

  /** Whether a preloaded model waits to be taken. */
  static boolean preloadWaiting() {
    return PRELOADED.get() != null;
  }

  /**
   * The model of the metadata files {@code classLoader} sees: the one {@linkplain #preload preloaded} for it (waiting
   * for it to be read, and taking it, so that it serves one start-up), or else read now.
   */
  static ConfigurationKeyModel forClassLoader(ClassLoader classLoader) {
    Preloaded preloaded = PRELOADED.getAndSet(null);
    if (preloaded != null && preloaded.classLoader() == classLoader) {
      try {
        return preloaded.model().get();
      } catch (ExecutionException failed) {
        // read it here instead; load() itself reports nothing
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    return load(classLoader);
  }

  /** The model of the metadata files {@code classLoader} sees. */
  static ConfigurationKeyModel load(ClassLoader classLoader) {
    Map<String, Class<?>> groups = new LinkedHashMap<>();
    TreeSet<String> names = new TreeSet<>();
    for (String file : List.of("META-INF/spring-configuration-metadata.json",
        "META-INF/additional-spring-configuration-metadata.json")) {
      Enumeration<URL> urls;
      try {
        urls = classLoader.getResources(file);
      } catch (IOException unreadable) {
        continue;
      }
      while (urls.hasMoreElements()) {
        read(urls.nextElement(), classLoader, groups, names);
      }
    }
    return new ConfigurationKeyModel(groups, names);
  }

  /**
   * Reads one metadata file. Most files on a class path (Spring Boot's own are large) name no {@code zeocore.} key:
   * they are recognized by a text search and not parsed at all; the rest are read by
   * {@link ConfigurationMetadataReader}, keeping only the names and types of groups and properties.
   */
  private static void read(URL url, ClassLoader classLoader, Map<String, Class<?>> groups, TreeSet<String> names) {
    try (InputStream in = url.openStream()) {
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      if (!json.contains("\"" + ROOT + ".")) {
        return;
      }
      ConfigurationMetadataReader.read(json,
          (section, entry) -> add(entry, section.equals("groups"), classLoader, groups, names));
    } catch (IOException | RuntimeException unreadable) {
      // a file that cannot be read or parsed adds no keys (entries read before the fault stay)
    }
  }

  private static void add(Map<String, String> entry, boolean group, ClassLoader classLoader,
      Map<String, Class<?>> groups, TreeSet<String> names) {
    String name = entry.getOrDefault("name", "");
    if (!name.startsWith(ROOT + ".")) {
      return;
    }
    names.add(name);
    String type = entry.getOrDefault("type", "");
    if (group && type.equals(entry.get("sourceType")) && ClassUtils.isPresent(type, classLoader)) {
      groups.put(name, ClassUtils.resolveClassName(type, classLoader));
    }
  }

  /**
   * Checks one key.
   *
   * @param key a {@code zeocore.*} key in canonical form
   * @return {@code null} when the key exists, else what is wrong with it
   */
  @Nullable Unknown check(ConfigurationPropertyName key) {
    String text = key.toString();
    if (names.contains(text)) {
      return null;
    }
    for (Map.Entry<String, Class<?>> group : groups.entrySet()) {
      ConfigurationPropertyName prefix = ConfigurationPropertyName.of(group.getKey());
      if (prefix.isAncestorOf(key)) {
        return walk(group.getValue(), key, prefix.getNumberOfElements(), group.getKey());
      }
    }
    // not under any properties class: a misspelled section or a property the metadata does not list
    String section = key.getNumberOfElements() > 1
        ? ROOT + "." + key.getElement(1, ConfigurationPropertyName.Form.DASHED) : text;
    List<String> candidates = new ArrayList<>();
    for (String name : names) {
      ConfigurationPropertyName known = ConfigurationPropertyName.of(name);
      if (known.getNumberOfElements() > 1) {
        candidates.add(ROOT + "." + known.getElement(1, ConfigurationPropertyName.Form.DASHED));
      }
    }
    boolean knownSection = candidates.contains(section);
    if (knownSection) {
      return new Unknown(text, Suggestions.nearest(text, names));
    }
    return new Unknown(section, Suggestions.nearest(section, candidates));
  }

  /** Follows {@code key} from element {@code index} through {@code type}'s properties. */
  private @Nullable Unknown walk(Class<?> type, ConfigurationPropertyName key, int index, String path) {
    ResolvableType current = ResolvableType.forClass(type);
    String at = path;
    int i = index;
    while (i < key.getNumberOfElements()) {
      Class<?> resolved = current.resolve(Object.class);
      if (Map.class.isAssignableFrom(resolved)) {
        ResolvableType value = current.asMap().getGeneric(1);
        if (isScalar(value) || isCollectionOfScalars(value)) {
          return null; // the rest of the key is the map key (it may hold dots)
        }
        at = at + "." + key.getElement(i, ConfigurationPropertyName.Form.ORIGINAL);
        current = value;
        i++;
        continue;
      }
      if (Collection.class.isAssignableFrom(resolved) || resolved.isArray()) {
        if (!key.isNumericIndex(i)) {
          return new Unknown(at + "." + key.getElement(i, ConfigurationPropertyName.Form.DASHED), null);
        }
        current = resolved.isArray() ? current.getComponentType() : current.asCollection().getGeneric(0);
        at = at + "[" + key.getElement(i, ConfigurationPropertyName.Form.ORIGINAL) + "]";
        i++;
        continue;
      }
      if (isScalar(current)) {
        return new Unknown(key.toString(), null);
      }
      String element = key.getElement(i, ConfigurationPropertyName.Form.DASHED);
      Map<String, ResolvableType> properties = properties(resolved);
      if (properties.isEmpty()) {
        return null; // nothing to check against (for example a type bound by constructor)
      }
      ResolvableType next = properties.get(element);
      if (next == null) { // the binder ignores dashes: totaltimeout binds total-timeout
        next = properties.entrySet().stream().filter(entry -> uniform(entry.getKey()).equals(uniform(element)))
            .map(Map.Entry::getValue).findFirst().orElse(null);
      }
      if (next == null) {
        String unknown = at + "." + element;
        String parent = at;
        List<String> siblings = properties.keySet().stream().map(name -> parent + "." + name).toList();
        return new Unknown(unknown, Suggestions.nearest(unknown, siblings));
      }
      at = at + "." + element;
      current = next;
      i++;
    }
    return null;
  }

  /** The JavaBean properties of {@code type} that the binder can set, by their dashed names. */
  private static Map<String, ResolvableType> properties(Class<?> type) {
    Map<String, ResolvableType> properties = new LinkedHashMap<>();
    for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
      if (descriptor.getReadMethod() == null || descriptor.getName().equals("class")) {
        continue;
      }
      String dashed = descriptor.getName().replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT);
      properties.put(dashed, ResolvableType.forMethodReturnType(descriptor.getReadMethod(), type));
    }
    return properties;
  }

  private static String uniform(String element) {
    return element.replace("-", "");
  }

  private static boolean isCollectionOfScalars(ResolvableType type) {
    Class<?> resolved = type.resolve(Object.class);
    return Collection.class.isAssignableFrom(resolved) && isScalar(type.asCollection().getGeneric(0));
  }

  private static boolean isScalar(ResolvableType type) {
    Class<?> resolved = type.resolve(Object.class);
    return resolved == Object.class || ClassUtils.isPrimitiveOrWrapper(resolved) || resolved.isEnum()
        || CharSequence.class.isAssignableFrom(resolved) || Number.class.isAssignableFrom(resolved)
        || resolved == Duration.class || Temporal.class.isAssignableFrom(resolved) || resolved == DataSize.class
        || Resource.class.isAssignableFrom(resolved) || resolved == Path.class || resolved == java.net.URI.class
        || resolved == java.net.URL.class || resolved == Class.class || resolved == java.io.File.class
        || resolved == java.nio.charset.Charset.class || resolved == java.util.Locale.class;
  }

  /**
   * A key that does not exist.
   *
   * @param key the unknown key (or, for an unknown section, the section)
   * @param suggestion the nearest existing key at that place, when one is near
   */
  record Unknown(String key, @Nullable String suggestion) {}
}
