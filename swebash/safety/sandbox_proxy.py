"""The sandbox's network: an HTTP(S) proxy outside the sandbox that admits domains, not hosts.

Design note. A command inside the sandbox reaches nothing but this proxy (bubblewrap: the
loopback of a network namespace whose only listener is the proxy's; Landlock: TCP connect to the
proxy's port only), and its HTTP clients are pointed at it (``HTTP(S)_PROXY``). The proxy speaks
the two forms every client uses: ``CONNECT host:port`` (a TLS tunnel it cannot read, so no
certificate is touched) and plain HTTP in absolute form (``GET http://host/path``), forwarded
one request per connection. Each host name is judged by the ``DomainGate`` (the allow-list,
the user's answers); a refusal is a ``403`` whose body says why, and is recorded so the tool
can name it.

Names are resolved here, not in the sandbox (which has no DNS). A name that is not local by
definition must not resolve to loopback, link-local or unspecified addresses (DNS rebinding
onto the host's own services or a cloud metadata endpoint); ``localhost`` and ``*.localhost``
resolve to 127.0.0.1 as RFC 6761 §6.3 lets applications do. The resolver is a parameter, so
tests can point any name anywhere.

On the host's 127.0.0.1 (the Landlock backend) every local process could connect, so there
the proxy serves only requests that carry its per-session token (``Proxy-Authorization``, from
the user:password in the proxy URL commands get); the bubblewrap namespace's loopback reaches
nothing but sandboxed commands. One thread per listener accepts; one thread per connection
pumps both directions with ``select``. The proxy adds a thread start and a connect to a
request (``make bench``).
"""

from __future__ import annotations

import base64
import contextlib
import hmac
import ipaddress
import secrets
import select
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from swebash.safety.sandbox_domains import DomainGate, normalise

Resolver = Callable[[str, int], list[str]]  # (host, port) -> addresses to try, in order
HEAD_LIMIT = 64 * 1024
HEAD_TIMEOUT = 30.0
CONNECT_TIMEOUT = 10.0
CHUNK = 65536
KEEP_REFUSALS = 200


def is_local_name(host: str) -> bool:
    return host == "localhost" or host.endswith(".localhost")


def default_resolve(host: str, port: int) -> list[str]:
    if is_local_name(host):
        return ["127.0.0.1"]
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def is_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def unsafe_address(address: str) -> bool:
    """Addresses a public name must not lead to: this host, link-local (metadata endpoints),
    unspecified, multicast — also as IPv4-mapped IPv6."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return True
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast


@dataclass(frozen=True)
class Refusal:
    at: float  # time.monotonic()
    host: str
    why: str
    asked: bool  # a person answered no (then running it again outside is not offered)


class DomainProxy:
    def __init__(self, gate: DomainGate, resolve: Resolver = default_resolve, *,
                 guard_addresses: bool = True) -> None:
        self.gate = gate
        self.resolve = resolve
        self.guard_addresses = guard_addresses  # refuse public names that lead to this host
        # the host's 127.0.0.1 is open to every local process: only holders of this token
        # (the sandboxed commands, in their proxy URL) may use the proxy there
        self.token = secrets.token_urlsafe(18)
        self._guarded: set[socket.socket] = set()
        self.refusals: list[Refusal] = []
        self._listeners: list[socket.socket] = []
        self._lock = threading.Lock()
        self._closed = False
        self.port = 0

    # ------------------------------------------------------------------ listening

    def listen(self) -> int:
        """Listen on the host's 127.0.0.1 (for the Landlock backend), for holders of the
        token only (``url``); returns the port."""
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        self.port = sock.getsockname()[1]
        self.serve(sock, token=True)
        return self.port

    def url(self) -> str:
        """The proxy URL for commands, credentials included."""
        return f"http://swebash:{self.token}@127.0.0.1:{self.port}"

    def serve(self, sock: socket.socket, *, token: bool = False) -> None:
        """Accept connections on a listening socket (e.g. one inside a network namespace,
        which only sandboxed commands reach: no token needed there)."""
        with self._lock:
            self._listeners.append(sock)
            if token:
                self._guarded.add(sock)
        threading.Thread(target=self._accept, args=(sock, token), name="swebash-proxy",
                         daemon=True).start()

    def serves(self, sock: socket.socket) -> bool:
        with self._lock:
            return sock in self._listeners

    def close(self) -> None:
        self._closed = True
        with self._lock:
            listeners, self._listeners = self._listeners, []
        for sock in listeners:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def refused_between(self, start: float, end: float) -> list[Refusal]:
        with self._lock:
            return [r for r in self.refusals if start <= r.at <= end]

    def _accept(self, sock: socket.socket, token: bool) -> None:
        while not self._closed:
            try:
                conn, _ = sock.accept()
            except OSError:
                if self._closed:
                    return
                time.sleep(0.05)
                continue
            threading.Thread(target=self._handle, args=(conn, token),
                             name="swebash-proxy-conn", daemon=True).start()

    # ------------------------------------------------------------------ one connection

    def _handle(self, conn: socket.socket, token: bool = False) -> None:
        with contextlib.closing(conn):
            conn.settimeout(HEAD_TIMEOUT)
            try:
                head, rest = read_head(conn)
            except (OSError, ValueError):
                return
            if token and not self._authorised(head):
                reply(conn, 407, "this proxy serves swebash's sandboxed commands only",
                      extra="Proxy-Authenticate: Basic realm=\"swebash\"\r\n")
                return
            try:
                method, target, version = head.split(b"\r\n", 1)[0].decode("latin-1").split()
            except ValueError:
                reply(conn, 400, "a request line the proxy cannot read")
                return
            if method == "CONNECT":
                host, port = split_host_port(target, 443)
                upstream = self._open(conn, host, port)
                if upstream is None:
                    return
                conn.sendall(f"{version} 200 Connection established\r\n\r\n".encode())
                if rest:
                    upstream.sendall(rest)
            elif target.lower().startswith("http://"):
                host, port, path = split_url(target)
                upstream = self._open(conn, host, port)
                if upstream is None:
                    return
                upstream.sendall(origin_form(head, method, path, version) + rest)
            else:
                reply(conn, 400, "only CONNECT and absolute http:// requests pass this proxy")
                return
            with contextlib.closing(upstream):
                conn.settimeout(None)
                upstream.settimeout(None)
                pump(conn, upstream)

    def _open(self, conn: socket.socket, host: str, port: int) -> socket.socket | None:
        host = normalise(host)
        if not host or not 0 < port < 65536:
            reply(conn, 400, "no host in the request")
            return None
        decision = self.gate.check(host)
        if not decision.allowed:
            self._refused(host, decision.why, decision.asked)
            reply(conn, 403, f"network access to {host} refused by the swebash sandbox "
                  f"({decision.why})")
            return None
        try:
            addresses = self.resolve(host, port)
        except OSError as exc:
            reply(conn, 502, f"cannot resolve {host}: {exc}")
            return None
        if self.guard_addresses and not is_literal(host) and not is_local_name(host):
            addresses = [a for a in addresses if not unsafe_address(a)]
            if not addresses:
                self._refused(host, "it resolves to this host or a link-local address", False)
                reply(conn, 403, f"{host} resolves to an address the sandbox does not reach")
                return None
        last: OSError | None = None
        for address in addresses:
            try:
                return socket.create_connection((address, port), timeout=CONNECT_TIMEOUT)
            except OSError as exc:
                last = exc
        reply(conn, 502, f"cannot connect to {host}:{port}: {last}")
        return None

    def _refused(self, host: str, why: str, asked: bool) -> None:
        with self._lock:
            self.refusals.append(Refusal(time.monotonic(), host, why, asked))
            del self.refusals[:-KEEP_REFUSALS]


    def _authorised(self, head: bytes) -> bool:
        expected = "Basic " + base64.b64encode(f"swebash:{self.token}".encode()).decode()
        for line in head.decode("latin-1").split("\r\n")[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "proxy-authorization":
                return hmac.compare_digest(value.strip().encode(), expected.encode())
        return False


def read_head(conn: socket.socket) -> tuple[bytes, bytes]:
    """(request head through the blank line, bytes already read after it)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(CHUNK)
        if not chunk:
            raise ValueError("closed before the request head ended")
        data += chunk
        if len(data) > HEAD_LIMIT:
            raise ValueError("request head too long")
    end = data.index(b"\r\n\r\n") + 4
    return data[:end], data[end:]


def split_host_port(target: str, default: int) -> tuple[str, int]:
    if target.startswith("["):
        host, _, rest = target[1:].partition("]")
        port = rest.removeprefix(":")
    else:
        host, _, port = target.rpartition(":") if ":" in target else (target, "", "")
    try:
        return host, int(port) if port else default
    except ValueError:
        return "", 0


def split_url(url: str) -> tuple[str, int, str]:
    rest = url[len("http://"):]
    authority, slash, path = rest.partition("/")
    authority = authority.rpartition("@")[2]  # credentials in the URL are not a host
    host, port = split_host_port(authority, 80)
    return host, port, slash + path if slash else "/"


def origin_form(head: bytes, method: str, path: str, version: str) -> bytes:
    """The request as the origin server expects it: path only, one request, no proxy
    headers."""
    lines = head.decode("latin-1").split("\r\n")[1:]
    kept = [line for line in lines if line and not line.lower().startswith(
        ("proxy-connection:", "proxy-authorization:", "connection:", "keep-alive:"))]
    return "\r\n".join([f"{method} {path} {version}", *kept, "Connection: close", "", ""]
                       ).encode("latin-1")


def reply(conn: socket.socket, status: int, text: str, extra: str = "") -> None:
    reason = {400: "Bad Request", 403: "Forbidden", 407: "Proxy Authentication Required",
              502: "Bad Gateway"}.get(status, "Error")
    body = f"swebash sandbox: {text}\n".encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"{extra}Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    with contextlib.suppress(OSError):
        conn.sendall(head + body)


def pump(a: socket.socket, b: socket.socket) -> None:
    """Copy both ways until both sides are done (half-closes passed on)."""
    open_ends = {a: b, b: a}
    while open_ends:
        try:
            ready, _, _ = select.select(list(open_ends), [], [])
        except (OSError, ValueError):
            return
        for src in ready:
            dst = open_ends.get(src)
            if dst is None:
                continue
            try:
                data = src.recv(CHUNK)
            except OSError:
                data = b""
            if data:
                try:
                    dst.sendall(data)
                except OSError:
                    return
                continue
            del open_ends[src]
            with contextlib.suppress(OSError):
                dst.shutdown(socket.SHUT_WR)
