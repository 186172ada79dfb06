package io.zeocore.connections.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SecretMaterialTest {

  @Test
  void closingZeroesTheBytesAndEveryCharViewAndForbidsFurtherReads() {
    byte[] owned = "pässwörd-€".getBytes(StandardCharsets.UTF_8);
    SecretMaterial material = new SecretMaterial(owned);
    char[] first = material.chars();
    char[] second = material.chars();
    assertThat(new String(first)).isEqualTo("pässwörd-€");
    assertThat(material.length()).isEqualTo(owned.length);
    assertThat(material.bytes()).isSameAs(owned);

    material.close();
    material.close();

    assertThat(owned).containsOnly(0);
    assertThat(first).containsOnly('\0');
    assertThat(second).containsOnly('\0');
    assertThatThrownBy(material::bytes).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("readable only inside the custody callback");
    assertThatThrownBy(material::chars).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void textFormIsRedactedAndTheTypeIsNeitherSerializableNorCloneable() {
    SecretMaterial material = new SecretMaterial("canary-material".getBytes(StandardCharsets.UTF_8));

    assertThat(material.toString()).isEqualTo("SecretMaterial[<redacted>]");
    assertThat(material).isNotInstanceOf(Serializable.class).isNotInstanceOf(Cloneable.class);
  }

  @Test
  void invalidUtf8CannotBeReadAsCharsAndTheMessageDoesNotEchoIt() {
    SecretMaterial material = new SecretMaterial(new byte[] {(byte) 0xff, 'a', 'b'});

    assertThatThrownBy(material::chars).isInstanceOf(IllegalStateException.class)
        .hasMessage("secret material is not valid UTF-8");
  }

  @Test
  void charMaterialIsEncodedAsUtf8AndLoneSurrogatesAreRefused() {
    assertThat(SecretMaterial.encode("ключ🔑".toCharArray()))
        .isEqualTo("ключ🔑".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> SecretMaterial.encode(new char[] {'a', '\ud800'}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void appearsInFindsTheMaterialInsideTextButIgnoresVeryShortMaterial() {
    SecretMaterial material = new SecretMaterial("sk_live_123".getBytes(StandardCharsets.UTF_8));
    SecretMaterial tiny = new SecretMaterial("abc".getBytes(StandardCharsets.UTF_8));

    assertThat(material.appearsIn("auth failed for sk_live_123 at provider", 8)).isTrue();
    assertThat(material.appearsIn("auth failed for sk_live_12", 8)).isFalse();
    assertThat(material.appearsIn(null, 8)).isFalse();
    assertThat(tiny.appearsIn("abcdef", 8)).isFalse();
  }
}
