package io.zeocore.execution;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw loopback HTTP/1.1 server that accepts each connection, reads the whole request (head and
 * {@code Content-Length} body) and then breaks the exchange the way {@link Failure} says. It counts the requests it
 * read, so a test can tell that the request really reached the server (dispatch started).
 */
public final class ClosingHttpServer implements AutoCloseable {

  /** How the exchange is broken after the request was read. */
  public enum Failure {
    /** Close the connection without a byte of response (FIN). */
    CLOSE_WITHOUT_ANSWER,
    /** Reset the connection without a byte of response (RST: linger 0). */
    RESET_WITHOUT_ANSWER,
    /** A 200 head announcing 100 bytes, 10 bytes of body, then close. */
    PREMATURE_END_OF_BODY,
    /** A 200 head with a chunked body whose first chunk is cut short, then close. */
    BROKEN_CHUNKED_BODY
  }

  private final ServerSocket socket;
  private final Failure failure;
  private final AtomicInteger requestsRead = new AtomicInteger();
  private final Thread acceptor;

  public ClosingHttpServer(Failure failure) throws IOException {
    this.failure = failure;
    this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::acceptLoop, "closing-http-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** {@code http://127.0.0.1:<port>}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  /** How many complete requests the server read before breaking their exchange. */
  public int requestsRead() {
    return requestsRead.get();
  }

  private void acceptLoop() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        Thread handler = new Thread(() -> handle(connection), "closing-http-server-connection");
        handler.setDaemon(true);
        handler.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void handle(Socket connection) {
    try (connection) {
      connection.setSoTimeout(10_000);
      InputStream in = connection.getInputStream();
      String head = readHead(in);
      if (head == null) {
        return;
      }
      long length = contentLength(head);
      in.readNBytes((int) length);
      requestsRead.incrementAndGet();
      OutputStream out = connection.getOutputStream();
      switch (failure) {
        case CLOSE_WITHOUT_ANSWER -> { }
        case RESET_WITHOUT_ANSWER -> connection.setSoLinger(true, 0);
        case PREMATURE_END_OF_BODY -> {
          out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n0123456789")
              .getBytes(StandardCharsets.US_ASCII));
          out.flush();
        }
        case BROKEN_CHUNKED_BODY -> {
          out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
              + "20\r\n0123456789").getBytes(StandardCharsets.US_ASCII));
          out.flush();
        }
      }
    } catch (IOException ignored) {
      // the client went away first: nothing to break
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < end.length) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.US_ASCII);
  }

  private static long contentLength(String head) {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals("content-length")) {
        return Long.parseLong(line.substring(colon + 1).trim());
      }
    }
    return 0;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
