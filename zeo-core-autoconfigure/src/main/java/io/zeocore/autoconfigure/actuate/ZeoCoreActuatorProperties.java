package io.zeocore.autoconfigure.actuate;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** Configuration of what ZeoCore's actuator endpoint keeps in memory. */
@ConfigurationProperties("zeocore.actuator")
public class ZeoCoreActuatorProperties {

  /**
   * How many recent runs and effect transitions the zeocore endpoint keeps for /actuator/zeocore/events and
   * /actuator/zeocore/{policy}, 1 to 100000; the oldest is dropped when the ring is full.
   */
  private int recentEvents = 100;

  public int getRecentEvents() {
    return this.recentEvents;
  }

  public void setRecentEvents(int recentEvents) {
    this.recentEvents = recentEvents;
  }
}
