package io.zeocore.benchmarks.startup;

import java.lang.management.ManagementFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Item 6: the smallest Spring Boot application, started by {@link io.zeocore.benchmarks.StartupTime} in a fresh JVM
 * with or without ZeoCore's starter on the classpath. It declares nothing; whatever ZeoCore adds comes from its
 * auto-configuration. Prints one JSON line: milliseconds from the JVM's start to the context being ready, the number
 * of bean definitions, and whether ZeoCore's store was created; then closes the context.
 */
@SpringBootApplication
public class MinimalBootApp {

  public static void main(String[] args) {
    long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
    ConfigurableApplicationContext context = SpringApplication.run(MinimalBootApp.class, args);
    long ready = System.currentTimeMillis();
    boolean store = context.containsBean("zeoCoreConnectionStore"); // the starter's JdbcConnectionStore
    System.out.println("{\"readyMs\":" + (ready - jvmStart) + ",\"beanDefinitions\":"
        + context.getBeanDefinitionCount() + ",\"zeocoreStore\":" + store + "}");
    context.close();
  }
}
