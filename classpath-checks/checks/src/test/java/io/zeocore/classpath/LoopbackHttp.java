package io.zeocore.classpath;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A loopback HTTP server (the JDK's own, so it needs nothing on the class path) answering {@code path} with a 500 for
 * the first {@code failures} requests and then with {@code json}.
 */
final class LoopbackHttp implements AutoCloseable {

  private final HttpServer server;

  LoopbackHttp(String path, int failures, String json) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    int[] seen = {0};
    server.createContext(path, exchange -> {
      exchange.getRequestBody().readAllBytes();
      boolean fail;
      synchronized (seen) {
        fail = seen[0]++ < failures;
      }
      byte[] body = (fail ? "{\"error\":\"busy\"}" : json).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(fail ? 500 : 200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
  }

  URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
