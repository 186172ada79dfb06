package io.zeocore.connections.custody;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Secret material handed to a provider callback inside the custody window. It is readable only while the callback
 * runs: when the callback returns or throws, custody {@linkplain #close() closes} it, which overwrites with zeros the
 * array returned by {@link #bytes()} and every array returned by {@link #chars()}, and makes further reads fail.
 *
 * <p>Use the arrays directly (for example to build a header) and do not keep them, or anything derived from them,
 * beyond the callback. Never turn the material into a {@link String}: strings cannot be zeroed.
 *
 * <p>The text form is {@code SecretMaterial[<redacted>]}. The type is deliberately neither {@link java.io.Serializable}
 * nor {@link Cloneable}, and its equality is identity. It is safe to read from several threads while the callback
 * runs.
 */
public final class SecretMaterial implements AutoCloseable {

  private byte[] bytes;
  private final List<char[]> charViews = new ArrayList<>(1);
  private boolean closed;

  /** Takes ownership of {@code bytes}: they are zeroed on {@link #close()}. */
  SecretMaterial(byte[] bytes) {
    this.bytes = bytes;
  }

  /**
   * The material itself (not a copy), valid until the callback returns. Zeroed afterwards.
   *
   * @throws IllegalStateException after the material was closed
   */
  public synchronized byte[] bytes() {
    requireOpen();
    return bytes;
  }

  /**
   * The material decoded as UTF-8 into a new array, valid until the callback returns; every array returned is zeroed
   * afterwards. Secrets stored with {@code put(organization, char[])} read back unchanged.
   *
   * @throws IllegalStateException after the material was closed, or when the material is not valid UTF-8
   */
  public synchronized char[] chars() {
    requireOpen();
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    char[] out = new char[bytes.length];
    CharBuffer target = CharBuffer.wrap(out);
    CoderResult result = decoder.decode(ByteBuffer.wrap(bytes), target, true);
    if (result.isError()) {
      Arrays.fill(out, '\0');
      throw new IllegalStateException("secret material is not valid UTF-8");
    }
    decoder.flush(target);
    char[] exact = Arrays.copyOf(out, target.position());
    Arrays.fill(out, '\0');
    charViews.add(exact);
    return exact;
  }

  /** The number of bytes of material. */
  public synchronized int length() {
    requireOpen();
    return bytes.length;
  }

  /** Overwrites the material and every view handed out with zeros; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    Arrays.fill(bytes, (byte) 0);
    for (char[] view : charViews) {
      Arrays.fill(view, '\0');
    }
    charViews.clear();
    bytes = new byte[0];
  }

  /**
   * Whether the UTF-8 form of {@code text} contains the material. Materials shorter than {@code minimumLength} bytes
   * never match (they would match ordinary text by chance).
   */
  synchronized boolean appearsIn(String text, int minimumLength) {
    if (closed || text == null || bytes.length < minimumLength) {
      return false;
    }
    byte[] haystack = text.getBytes(StandardCharsets.UTF_8);
    outer:
    for (int i = 0; i + bytes.length <= haystack.length; i++) {
      for (int j = 0; j < bytes.length; j++) {
        if (haystack[i + j] != bytes[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("secret material is closed: it is readable only inside the custody callback");
    }
  }

  /** Always {@code SecretMaterial[<redacted>]}. */
  @Override
  public String toString() {
    return "SecretMaterial[<redacted>]";
  }

  /** Encodes {@code chars} as UTF-8 into a new exact-length array; intermediate buffers are zeroed. */
  static byte[] encode(char[] chars) {
    ByteBuffer buffer = ByteBuffer.allocate(Math.max(1, chars.length * 3));
    try {
      CoderResult result = StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(chars), buffer, true);
      if (result.isError()) {
        result.throwException();
      }
      byte[] exact = Arrays.copyOf(buffer.array(), buffer.position());
      return exact;
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("secret material must be valid UTF-16 (no lone surrogates)");
    } finally {
      Arrays.fill(buffer.array(), (byte) 0);
    }
  }
}
