"""Where a host name or address really points: the public internet, or somewhere a request
is trusted because it comes from this machine.

Design note. The problem: services on this machine and on private networks often trust any
request that reaches them — the docker daemon on 2375, consul, etcd, the kubelet, a
browser's debugging port, the cloud metadata service that hands out the machine's
credentials. A request to them from an agent is never "just a GET". What does not work:
listing bad addresses (``127.0.0.1``) — an attacker spells the same place as ``127.1``,
``2130706433``, ``0x7f.1``, ``0177.0.0.1``, ``[::ffff:7f00:1]``, ``localhost.``,
``api.localhost``, ``127-0-0-1.sslip.io``, a single-label intranet name, or a curl glob
``{127.0.0.1,x}``. The approach is positive: a host is public only when it is a global
address, or a dotted name under an ordinary top-level domain that embeds no private
address; everything else is local, and anything that cannot be read plainly (percent
escapes, globs, backslashes, look-alike characters) is treated as odd.

``judge(host)`` returns None (public) or one of the reasons below; ``METADATA`` is the
worst (credentials), ``LOCAL`` a service this machine or its network trusts, ``ODD`` a
spelling a client may read differently from this module.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import unicodedata
from urllib.parse import unquote

METADATA = "reaches the cloud metadata service (credentials)"
LOCAL = "reaches a service on this machine or a private network (it may trust any request)"
ODD = "names a host in a spelling a client may read differently (globs, escapes, look-alikes)"

METADATA_NAMES = re.compile(r"^(metadata(\.google\.internal)?|instance-data(\.ec2\.internal)?|"
                            r"metadata\.azure\.(com|internal)|metadata\.packet\.net|"
                            r"metadata\.platformequinix\.com|[\w.-]*\.metadata\.internal)$")
METADATA_ADDRESSES = frozenset({"169.254.169.254", "169.254.170.2", "100.100.100.200",
                                "fd00:ec2::254", "192.0.0.192", "169.254.169.123"})
# top-level names that only resolve inside a network (or to this machine)
LOCAL_SUFFIXES = ("localhost", "local", "localdomain", "internal", "intranet", "lan", "home",
                  "corp", "private", "home.arpa", "svc", "cluster.local", "consul", "docker",
                  "ip6-localhost", "ip6-loopback")
# wildcard DNS services whose names resolve to this machine whatever the prefix
LOOPBACK_DOMAINS = ("localtest.me", "lvh.me", "vcap.me", "lacolhost.com", "fuf.me",
                    "localhost.run", "127.0.0.1.nip.io", "traefik.me", "yoogle.com",
                    "readme.localtest.me", "ulh.me")
# an address spelled inside a name: 10.0.0.5.nip.io, 127-0-0-1.sslip.io, 7f000001.nip.io
EMBEDDED_DOTTED = re.compile(r"(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})"
                             r"(?=$|[.-])")
EMBEDDED_HEX = re.compile(r"(?:^|[.-])([0-9a-f]{8})(?=$|[.-])")
IPV4_SHORTHAND = re.compile(r"^(0x[0-9a-f]*|\d+)(\.(0x[0-9a-f]*|\d+)){0,3}$")
NAME = re.compile(r"^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$")
FULL_STOPS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})


def normalise(host: str) -> str | None:
    """The host as a resolver would see it, or None when it cannot be read plainly."""
    host = host.strip().strip("[]")
    if "%" in host:
        head, _, zone = host.partition("%")
        if ":" in head and re.fullmatch(r"(25)?[\w.-]+", zone):
            host = head  # an IPv6 zone (fe80::1%25eth0)
        else:
            decoded = unquote(host)
            if decoded == host or "%" in decoded:
                return None
            host = decoded
    if not host.isascii():
        host = unicodedata.normalize("NFKC", host.translate(FULL_STOPS))
        if not host.isascii():
            return None
    return host.lower().rstrip(".")


def address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An IP address in any spelling a C resolver accepts (``127.1``, ``0x7f000001``,
    ``0177.0.0.1``, ``2130706433``), IPv6 with IPv4 forms unwrapped."""
    try:
        found: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(host)
    except ValueError:
        if not IPV4_SHORTHAND.match(host):
            return None
        try:
            found = ipaddress.ip_address(socket.inet_ntoa(socket.inet_aton(host)))
        except OSError:
            return None
    if isinstance(found, ipaddress.IPv6Address):
        inner = found.ipv4_mapped or found.sixtofour
        if inner is not None:
            return inner
        number = int(found)
        top = number >> 32
        if (top == 0 and number > 1) or top in (0xFFFF0000, 0x0064FF9B << 64):
            # ::a.b.c.d (compatible), ::ffff:0:a.b.c.d (translated), 64:ff9b::/96 (NAT64)
            return ipaddress.IPv4Address(number & 0xFFFFFFFF)
    return found


def judge_address(found: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    if str(found) in METADATA_ADDRESSES or (isinstance(found, ipaddress.IPv4Address)
                                            and found in ipaddress.ip_network("169.254.0.0/16")):
        return METADATA
    if not found.is_global or found.is_multicast:
        return LOCAL
    return None


def judge(host: str) -> str | None:
    """None when ``host`` is a public place; else why it is not (METADATA, LOCAL, ODD)."""
    if not host.strip():
        return None
    if any(c in host for c in "{}[]\\*?") and not re.fullmatch(r"\[[0-9a-fA-F:.%\w]+\]",
                                                               host.strip()):
        return ODD  # a curl glob or a spelling clients disagree on
    name = normalise(host)
    if name is None:
        return ODD
    if not name:
        return LOCAL  # `http://:8080/`, httpie's `:8080` — this machine
    found = address(name)
    if found is not None:
        return judge_address(found)
    if METADATA_NAMES.match(name):
        return METADATA
    if not NAME.match(name):
        return ODD
    for match in EMBEDDED_DOTTED.finditer(name):
        parts = [int(g) for g in match.groups()]
        if all(p < 256 for p in parts):
            inner = judge_address(ipaddress.IPv4Address(".".join(map(str, parts))))
            if inner:
                return inner
    for match in EMBEDDED_HEX.finditer(name):
        inner = judge_address(ipaddress.IPv4Address(int(match.group(1), 16)))
        if inner:
            return inner
    if "." not in name or name in LOCAL_SUFFIXES + LOOPBACK_DOMAINS or \
            name.endswith(tuple("." + s for s in LOCAL_SUFFIXES + LOOPBACK_DOMAINS)):
        return LOCAL
    return None


def host_of(rest: str) -> str:
    """The host of a URL's part after ``scheme://`` (userinfo and port removed)."""
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    authority = authority.rsplit("@", 1)[-1]
    if authority.startswith("["):
        return authority.split("]", 1)[0] + "]"
    return authority.rsplit(":", 1)[0] if authority.count(":") == 1 else authority


def userinfo(rest: str) -> str:
    """The ``user:password@`` part of a URL's authority (empty when there is none)."""
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    return authority.rsplit("@", 1)[0] if "@" in authority else ""


TOKEN_SHAPE = re.compile(r"^(gh[pousr]_|github_pat_|glpat-|xox[abposr]-|sk-|AKIA|ASIA|eyJ)|"
                         r"^[A-Za-z0-9_\-]{20,}$")


def credentials_in(rest: str) -> bool:
    """A URL that carries a password, or a token as its user name."""
    info = unquote(userinfo(rest))
    if not info:
        return False
    user, colon, password = info.partition(":")
    return bool(colon and (password or user)) or bool(TOKEN_SHAPE.search(user))


# a word that names a place on the network: a URL, `host:port` or an IPv4 address
HOST_PORT = re.compile(r"^(?:[\w.+-]+://)?(?:[^@/\s]*@)?(\[[0-9a-fA-F:.]+\]|[\w.-]+\.[a-zA-Z]{2,}|"
                       r"\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?(?:[/?#]\S*)?$")


def remote_in(words: list[str]) -> str | None:
    """The first host other than this machine that ``words`` name as a network address
    (``-o pool.example:443``, ``--url=https://x.example/``, ``10.0.0.5``) — a file name
    like ``notes.txt`` names none: a name needs a port or a scheme, an address neither."""
    for word in words:
        value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        match = HOST_PORT.match(value)
        if match is None or not ("://" in value or match.group(2) or
                                 re.fullmatch(r"[\d.]+", match.group(1))):
            continue
        name = normalise(match.group(1).strip("[]")) or ""
        found = address(name) if name else None
        if not name or name == "localhost" or name.endswith(".localhost") or (
                found is not None and (found.is_loopback or found.is_unspecified)):
            continue
        return match.group(1)[:40]
    return None
