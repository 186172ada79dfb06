package io.zeocore.connections.admission;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Rules 2-5 of revision admission for one permitted upstream origin. */
final class Origins {

  private static final Pattern URL =
      Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)([^?#]*)(\\?[^#]*)?(#.*)?", Pattern.DOTALL);
  private static final Pattern DNS_NAME =
      Pattern.compile("(?=.{1,253}\\.?$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\\.?");
  private static final Pattern DOTTED_QUAD = Pattern.compile("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}");
  private static final Pattern NUMERIC_LABEL = Pattern.compile("[0-9]+|0x[0-9a-f]*");
  private static final Pattern IPV6_TEXT = Pattern.compile("[0-9a-fA-F:.]+");

  /**
   * Special-use and local-only domains refused as origins, each with every name under it. The list is deliberate and
   * closed; a name is refused when it can only resolve on a local network, never resolves, or is reserved so that it
   * never reaches the public DNS:
   * <ul>
   *   <li>RFC 6761: {@code localhost}, {@code test}, {@code invalid}, {@code example} (the top-level domain);</li>
   *   <li>RFC 6762: {@code local} (multicast DNS); RFC 7686: {@code onion}; RFC 9476: {@code alt};</li>
   *   <li>{@code arpa}, the infrastructure domain: RFC 8375 {@code home.arpa}, the RFC 6761 reverse zones
   *       ({@code in-addr.arpa}, {@code ip6.arpa}), RFC 8880 {@code ipv4only.arpa} and the other resolver zones. No
   *       business API is served from it;</li>
   *   <li>{@code internal}, reserved by ICANN (2024) for private use;</li>
   *   <li>the local suffixes RFC 6762 Appendix G recommends against and that ICANN keeps undelegated because of name
   *       collisions: {@code intranet}, {@code private}, {@code corp}, {@code home}, {@code lan}, {@code mail}, and the
   *       ubiquitous {@code localdomain}.</li>
   * </ul>
   * The second-level documentation names {@code example.com}, {@code example.net} and {@code example.org} (also RFC
   * 6761) are <em>not</em> refused: they are ordinary names in public DNS with global addresses, and they are the
   * conventional origins of samples. A public name that resolves to a private address is not detected (admission never
   * resolves names).
   */
  static final List<String> LOCAL_SUFFIXES = List.of("localhost", "local", "test", "invalid",
      "example", "onion", "alt", "arpa", "internal", "intranet", "private", "corp", "home", "lan", "mail",
      "localdomain");

  private Origins() {}

  static void check(String origin) {
    Matcher url = URL.matcher(origin);
    String scheme = url.matches() ? url.group(1) : null;
    String authority = url.matches() ? url.group(2) : null;
    String hostPort = authority == null ? null : authority.substring(authority.lastIndexOf('@') + 1);

    // 2. a valid port, when the origin has one
    String host = hostPort;
    if (hostPort != null) {
      String port = null;
      if (hostPort.startsWith("[")) {
        int close = hostPort.indexOf(']');
        if (close > 0 && close + 1 < hostPort.length() && hostPort.charAt(close + 1) == ':') {
          port = hostPort.substring(close + 2);
          host = hostPort.substring(0, close + 1);
        } else if (close > 0 && close + 1 < hostPort.length()) {
          throw notHttpsOrigin(origin);
        }
      } else {
        int colon = hostPort.indexOf(':');
        if (colon >= 0) {
          port = hostPort.substring(colon + 1);
          host = hostPort.substring(0, colon);
        }
      }
      if (port != null && !validPort(port)) {
        throw new AdmissionException(AdmissionCode.ORIGIN_INVALID_PORT,
            "permitted origin " + origin + " has an invalid port");
      }
      if (port != null && !port.equals("443")) {
        throw notHttpsOrigin(origin);
      }
    }

    // 3. exactly https://host[:443][/]
    if (scheme == null || authority == null || host == null || !scheme.equalsIgnoreCase("https")
        || authority.contains("@") || host.isEmpty()
        || !(url.group(3).isEmpty() || url.group(3).equals("/")) || url.group(4) != null || url.group(5) != null) {
      throw notHttpsOrigin(origin);
    }
    String hostname = host.toLowerCase(Locale.ROOT);
    boolean ipv6 = hostname.startsWith("[");
    if (ipv6 ? !(hostname.endsWith("]") && IPV6_TEXT.matcher(hostname.substring(1, hostname.length() - 1)).matches())
        : !DNS_NAME.matcher(hostname).matches()) {
      throw notHttpsOrigin(origin);
    }

    // 4. not a special-use or local-only name
    String name = hostname.endsWith(".") ? hostname.substring(0, hostname.length() - 1) : hostname;
    if (!ipv6 && isLocalName(name)) {
      throw new AdmissionException(AdmissionCode.ORIGIN_LOCAL, "permitted origin " + origin + " must not be local");
    }

    // 5. IP literals must be global
    if (ipv6) {
      if (!isGlobalIpv6Literal(name.substring(1, name.length() - 1))) {
        throw notGlobal(origin);
      }
    } else if (DOTTED_QUAD.matcher(name).matches()) {
      if (!isGlobalIpv4(parseDottedQuad(name))) {
        throw notGlobal(origin);
      }
    } else if (NUMERIC_LABEL.matcher(name.substring(name.lastIndexOf('.') + 1)).matches()) {
      // 127.1, 2130706433, 0x7f.0.0.1, 010.0.0.1: resolvers read these as IPv4 addresses
      throw notGlobal(origin);
    }
  }

  /**
   * Whether {@code name} (lowercase, without a trailing dot) is a special-use or local-only name: one of
   * {@link #LOCAL_SUFFIXES} or a name under one, or a single non-numeric label (resolved through the host's search
   * domains, so local by construction; a numeric single label is an IPv4 address and rule 5's concern).
   */
  static boolean isLocalName(String name) {
    int dot = name.lastIndexOf('.');
    if (dot < 0 && !NUMERIC_LABEL.matcher(name).matches()) {
      return true;
    }
    for (String suffix : LOCAL_SUFFIXES) {
      if (name.equals(suffix) || name.endsWith("." + suffix)) {
        return true;
      }
    }
    return false;
  }

  private static boolean validPort(String port) {
    if (port.isEmpty() || port.length() > 5) {
      return false;
    }
    for (int i = 0; i < port.length(); i++) {
      if (port.charAt(i) < '0' || port.charAt(i) > '9') {
        return false;
      }
    }
    return Integer.parseInt(port) <= 65_535;
  }

  private static int[] parseDottedQuad(String text) {
    String[] parts = text.split("\\.");
    int[] octets = new int[4];
    for (int i = 0; i < 4; i++) {
      octets[i] = Integer.parseInt(parts[i]);
    }
    return octets;
  }

  /** Outside every IPv4 special-purpose block that is not globally reachable (IANA registry). */
  static boolean isGlobalIpv4(int[] o) {
    for (int octet : o) {
      if (octet > 255) {
        return false;
      }
    }
    int a = o[0];
    int b = o[1];
    return !(a == 0 || a == 10 || a == 127 || a >= 224 // this network, private, loopback, multicast, reserved
        || a == 100 && b >= 64 && b <= 127 // shared address space
        || a == 169 && b == 254 // link local
        || a == 172 && b >= 16 && b <= 31 // private
        || a == 192 && b == 0 && (o[2] == 0 || o[2] == 2) // IETF assignments, TEST-NET-1
        || a == 192 && b == 88 && o[2] == 99 // 6to4 relay anycast (deprecated)
        || a == 192 && b == 168 // private
        || a == 198 && (b == 18 || b == 19) // benchmarking
        || a == 198 && b == 51 && o[2] == 100 // TEST-NET-2
        || a == 203 && b == 0 && o[2] == 113); // TEST-NET-3
  }

  /** Global unicast {@code 2000::/3} except documentation, IETF-assignment and 6to4 blocks. */
  static boolean isGlobalIpv6Literal(String text) {
    if (!IPV6_TEXT.matcher(text).matches() || !text.contains(":")) {
      return false;
    }
    InetAddress address;
    try {
      address = InetAddress.getByName("[" + text + "]"); // a literal: no name lookup happens
    } catch (UnknownHostException e) {
      return false;
    }
    if (!(address instanceof Inet6Address)) {
      return false; // IPv4-mapped literal: never an acceptable origin
    }
    byte[] b = address.getAddress();
    int first16 = (b[0] & 0xff) << 8 | (b[1] & 0xff);
    if ((b[0] & 0xe0) != 0x20) {
      return false; // outside 2000::/3: loopback, unspecified, ULA, link local, multicast, mapped, NAT64 ...
    }
    int second16 = (b[2] & 0xff) << 8 | (b[3] & 0xff);
    return !(first16 == 0x2001 && second16 < 0x0200 // 2001::/23 IETF protocol assignments
        || first16 == 0x2001 && second16 == 0x0db8 // 2001:db8::/32 documentation
        || first16 == 0x2002 // 6to4
        || first16 == 0x3fff && second16 < 0x1000); // 3fff::/20 documentation
  }

  private static AdmissionException notHttpsOrigin(String origin) {
    return new AdmissionException(AdmissionCode.ORIGIN_NOT_HTTPS_ORIGIN,
        "permitted origin " + origin + " must be an HTTPS origin only (https://host, optional :443 and /)");
  }

  private static AdmissionException notGlobal(String origin) {
    return new AdmissionException(AdmissionCode.ORIGIN_NOT_GLOBAL,
        "permitted origin " + origin + " is an IP address; the address must be global");
  }
}
