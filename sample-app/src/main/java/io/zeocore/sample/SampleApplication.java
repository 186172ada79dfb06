package io.zeocore.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The ZeoCore sample application. It uses only the starter and {@code application.yml}, the way a user would:
 * a read-only policy with an explicit fallback plan ({@code /api/summaries}) and a durable effect flow with a demo
 * ledger provider ({@code /api/payments}).
 */
@SpringBootApplication
public class SampleApplication {

  public static void main(String[] args) {
    SpringApplication.run(SampleApplication.class, args);
  }
}
