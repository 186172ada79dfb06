package io.zeocore.sample.payments;

import io.zeocore.connections.effect.EffectReconcilers;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Tells ZeoCore's recovery which reconciler inspects each operation's provider: the demo ledger for payments. */
@Configuration(proxyBeanMethods = false)
class DemoReconcilers {

  @Bean
  EffectReconcilers effectReconcilers(DemoLedger ledger) {
    return EffectReconcilers.byOperation(Map.of(DemoLedgerConnector.POST_PAYMENT, ledger));
  }
}
