"""Hooks of the programs that open sockets rather than make requests: raw connections and
listeners (netcat, socat, websocat), scanners, packet capture, TLS tools (``openssl``) and
ssh's key tools.

Listening for connections, scanning other hosts and capturing traffic are dangerous whatever
the options; reading a saved capture, listing interfaces, probing one port or inspecting a
certificate is not.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import roles
from swebash.safety.classify.checks import read_path
from swebash.safety.classify.hooks_net import sends_runtime_values
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed

NETCAT_EXEC = re.compile(r"^-[a-zA-Z]*[ec]$|^--(exec|sh-exec|lua-exec|system)|"
                         r"^(exec|system|open|create|gopen):|,\s*(exec|system)", re.I)


# socat's listening addresses, also abbreviated (`TCP-L:`, `tcp4-l:`); websocat's `ws-l:`
LISTEN_ADDRESS = re.compile(r"(?i)^[\w-]*(LISTEN|RECVFROM|RECV|-L)[\w-]*:")


def netcat(f: Findings, p: Parsed, depth: int) -> None:
    words = [a.text for a in p.operands]
    if any(NETCAT_EXEC.search(w) or re.search(r"(?i)\b(exec|system):", w) for w in words):
        f.ask(f"{p.name}: runs a program connected to the network", True)
    sends_runtime_values(f, p)
    if (p.name in ("socat", "websocat") and any(LISTEN_ADDRESS.search(w) for w in words)) \
            or (p.name == "websocat" and any(w in ("-s", "--server-mode") for w in words)):
        f.ask(f"{p.name}: listens for connections", True)
        return
    if p.name in ("nc", "ncat", "netcat") and any(re.fullmatch(r"-[a-zA-Z]*z[a-zA-Z]*", w)
                                                  for w in words):
        if any(re.fullmatch(r"\d+-\d+|\d+(,\d+)+", w) for w in words):
            f.ask(f"{p.name}: scans a range of ports on another machine", True)
        f.ask(f"{p.name}: probes ports on another machine")
        return
    if any(re.fullmatch(r"-[a-zA-Z]*l[a-zA-Z]*", w) or w == "--listen" for w in words):
        f.ask(f"{p.name}: listens for connections", True)
        return
    f.ask(f"{p.name}: connects to another machine and sends its input", True)




def nmap(f: Findings, p: Parsed, depth: int) -> None:
    sends_runtime_values(f, p)
    for k, word in enumerate(p.argv[1:], 1):
        if word.startswith(("--script", "-sC", "-A", "--datadir", "--servicedb",
                            "--versiondb", "--resume", "--interactive")):
            f.ask("nmap: runs scripts", True)
        elif word.startswith(("-o", "--append-output", "--stylesheet")):
            target = word[3:] if len(word) > 3 else (p.argv[k + 1] if k + 1 < len(p.argv)
                                                     else "")
            roles.check(f, "nmap", "w", target.removeprefix("="), False, depth)
        elif word.startswith(("-iL", "--excludefile")):
            target = word[3:] if len(word) > 3 else (p.argv[k + 1] if k + 1 < len(p.argv)
                                                     else "")
            read_path(f, target)


CAPTURE_FILE = {"tcpdump": "-r", "tshark": "-r", "ngrep": "-I", "wireshark": "-r",
                "termshark": "-r", "tcpflow": "-r"}


def tcpdump(f: Findings, p: Parsed, depth: int) -> None:
    """Capturing sees other programs' traffic (credentials, cookies), however few packets
    (``-c N``); reading a saved capture or listing the interfaces does not."""
    words = p.argv[1:]
    reads = CAPTURE_FILE.get(p.name, "")
    if words in (["-D"], ["--list-interfaces"]):
        return
    if reads and any(w == reads or w.startswith(reads) for w in words):
        f.ask(f"{p.name}: reads a saved capture")
    else:
        f.ask(f"{p.name}: captures network traffic (other programs' data)", True)
    if any(w.startswith("-z") or (w.startswith("-") and not w.startswith("--") and "z" in w)
           for w in words):
        f.ask("tcpdump: runs a program on every saved file", True)
    if any(re.fullmatch(r"-[a-zA-Z]*[AX][a-zA-Z]*", w) for w in words):
        f.ask("tcpdump: prints packet contents (credentials on the wire)", True)
    for k, word in enumerate(words):
        if word == "-w" and k + 1 < len(words):
            roles.check(f, "tcpdump", "w", words[k + 1], p.dynamic[k + 2], depth)


OPENSSL_READ = frozenset({"version", "x509", "verify", "ciphers", "list", "crl", "asn1parse",
                          "s_client", "dgst", "rand", "req", "speed", "sess_id", "errstr",
                          "prime", "crl2pkcs7", "pkcs7", "base64", "help", "storeutl",
                          "nseq", "ocsp"})
OPENSSL_OUT = re.compile(r"^-(out|keyout|outform_file|signkey|engine|provider|"
                         r"provider-path|passin|passout|proxy|writerand|sess_out|"
                         r"keylogfile|msgfile|trace|reconnect|cert|key|new|newkey|CA|"
                         r"CAkey|sign|rand|dhparam|prexit)$")


def openssl(f: Findings, p: Parsed, depth: int) -> None:
    """Certificate inspection, hashing, random numbers and TLS probes read; keys, engines,
    providers and output files do not."""
    words = p.argv[1:]
    if not words:
        f.ask("openssl: interactive mode reads commands")
        return
    verb = words[0]
    # a file it writes outside the tree (in it, a new key is what `genrsa -out` is for)
    for k, word in enumerate(words[1:-1], 2):
        if word in ("-out", "-keyout", "-signature") and \
                p.argv[k + 1].startswith(("/", "~", "..")):
            roles.check(f, f"openssl {verb[:12]}", "w", p.argv[k + 1], p.dynamic[k + 1],
                        depth, quiet=True)
    if verb in ("s_server", "s_time"):
        f.ask(f"openssl {verb}: listens for connections" if verb == "s_server" else
              "openssl s_time: makes many connections to a server", True)
        return
    if verb not in OPENSSL_READ:
        f.ask(f"openssl {verb[:12]}: not known to be read-only")
        return
    sends_runtime_values(f, p)
    for k, word in enumerate(words[1:], 2):
        if OPENSSL_OUT.match(word):
            f.ask(f"openssl {verb}: {word} writes files, loads modules or uses keys",
                  word in ("-engine", "-provider", "-provider-path", "-keylogfile"))
        elif word in ("-in", "-CAfile", "-CRL", "-untrusted") and k < len(p.argv):
            read_path(f, p.argv[k])
        elif word == "-connect" and k < len(p.argv):
            roles.host(f, "openssl", p.argv[k].rsplit(":", 1)[0], p.dynamic[k])


def ssh_keygen(f: Findings, p: Parsed, depth: int) -> None:
    """Fingerprints (``-l``) and known_hosts lookups (``-F``) read; anything else writes
    keys or known_hosts."""
    words = p.argv[1:]
    flags = "".join(w[1:] for w in words if re.fullmatch(r"-[a-zA-Z]+", w))
    if "D" in flags or any(w.startswith("-D") for w in words):
        f.ask("ssh-keygen: loads the PKCS#11 library it is given", True)
    if not (set(flags) & set("lFB")) or set(flags) & set("RtpcNeiyAKkHrusIDMOYg"):
        f.ask("ssh-keygen: creates or changes keys or known_hosts",
              bool(set(flags) & set("RH")))  # your known_hosts, outside the tree
    for k, word in enumerate(words):
        if word == "-f" and k + 1 < len(words):
            read_path(f, words[k + 1])


def ssh_add(f: Findings, p: Parsed, depth: int) -> None:
    if [w for w in p.argv[1:]] not in (["-l"], ["-L"], ["-l", "-E", "sha256"]):
        f.ask("ssh-add: changes the keys the agent holds", "-D" in p.argv)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "netcat": netcat, "nmap": nmap, "tcpdump": tcpdump, "openssl": openssl,
    "ssh_keygen": ssh_keygen, "ssh_add": ssh_add,
}
