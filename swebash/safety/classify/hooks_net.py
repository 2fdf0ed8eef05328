"""Hooks of the network programs: what a request sends (methods, bodies, files named with
``@``), where it goes (schemes, cloud metadata addresses, ``--resolve`` to them), values
computed at run time (a DNS name or a URL built from ``$(…)`` carries data out), remote
commands (``ssh host CMD`` is judged like a local one), uploads versus downloads, and the
listing forms of the network configuration tools."""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import roles
from swebash.safety.classify.checks import read_path
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed

UPLOAD_FILE = re.compile(r"(^|=)[@<]")


def sends_runtime_values(f: Findings, p: Parsed) -> None:
    """Any word computed at run time reaches the network: it can carry data out."""
    if any(d and not w.startswith(("<(", ">(")) for w, d in zip(p.argv[1:], p.dynamic[1:],
                                                                 strict=True)):
        f.ask(f"{p.name}: sends a value known only at run time", True)


def net_dynamic(f: Findings, p: Parsed, depth: int) -> None:
    sends_runtime_values(f, p)


def curl(f: Findings, p: Parsed, depth: int) -> None:
    sends_runtime_values(f, p)
    for used in p.options:
        name, value = used.opt.name, used.value or ""
        if name in ("-X", "--request") and value.upper() not in ("GET", "HEAD", ""):
            f.ask(f"curl: makes a {value[:10]} request", value.upper() == "DELETE")
        elif name in ("-w", "--write-out") and ("%output" in value or value.startswith("@")):
            f.ask("curl: --write-out writes or reads a file", True)
        elif name in ("-H", "--header", "-u", "--user", "--proxy-header") and \
                value.startswith("@"):
            f.ask("curl: reads a header or credential file", True)
            read_path(f, value[1:])
        elif name in ("-b", "--cookie") and "=" not in value and value:
            f.ask("curl: sends cookies read from a file", True)
            read_path(f, value)
        elif name in ("--resolve", "--connect-to"):
            for part in value.split(":")[1:]:
                reason = roles.internal_host(part.strip("[]+"))
                if reason:
                    f.ask(f"curl: {reason}", True)
        elif used.opt.effect is not None and used.opt.effect.reason == "uploads data":
            source = value.split("=", 1)[-1] if UPLOAD_FILE.search(value) else ""
            if name in ("-T", "--upload-file") or UPLOAD_FILE.search(value):
                path = value if name in ("-T", "--upload-file") else source.lstrip("@<")
                if path and path != "-":
                    read_path(f, path)


def wget(f: Findings, p: Parsed, depth: int) -> None:
    sends_runtime_values(f, p)
    to_stdout = p.values("-O", "--output-document")[-1:] == ["-"]
    if not to_stdout and not p.has("--spider"):
        f.ask(f"{p.name}: downloads into a file")


HTTPIE_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
HTTPIE_BODY = re.compile(r"^[^=:@]*(:=@?|=@?|@)")


def httpie(f: Findings, p: Parsed, depth: int) -> None:
    """``http [METHOD] URL [ITEM…]``: header (``H:v``) and query (``q==v``) items only
    read; body items (``f=v``, ``f:=json``) write, file items (``@f``, ``f=@f``) upload."""
    sends_runtime_values(f, p)
    words = [a.text for a in p.operands]
    if words and words[0].upper() in HTTPIE_METHODS:
        method = words.pop(0).upper()
        if method not in ("GET", "HEAD", "OPTIONS"):
            f.ask(f"{p.name}: makes a {method} request", method == "DELETE")
    if words:
        roles.url(f, p.name, words.pop(0), False)
    for item in words:
        if "==" in item.split("=", 2)[0] + "==" and "==" in item:
            continue
        if re.match(r"^[\w-]+:(?!=)", item):
            continue  # a header
        if "@" in item and (item.startswith("@") or re.search(r"(=|:=)@", item)):
            f.ask(f"{p.name}: uploads a file", True)
            read_path(f, item.split("@", 1)[1])
        elif HTTPIE_BODY.match(item):
            f.ask(f"{p.name}: sends a request body (a write request)")
    if p.has("-d", "--download", "-c", "--continue"):
        f.ask(f"{p.name}: downloads into a file")


LOCAL_COMMAND = re.compile(r"(?i)(proxycommand|localcommand|permitlocalcommand|"
                           r"knownhostscommand|remotecommand|proxyusefdpass|match\s+exec|"
                           r"forwardagent|controlpath|include|securitykeyprovider|"
                           r"pkcs11provider|identityagent|sendenv|setenv)")
TUNNELS = ("-R", "-L", "-D", "-w", "-W", "-A", "-X", "-Y")


def ssh(f: Findings, p: Parsed, depth: int) -> None:
    """The words after the host are a command the remote shell runs: judged like local
    ones (a destructive one is as dangerous there)."""
    if p.has("-V", "-Q", "-G") and not p.operands[1:]:
        if p.has("-G"):
            f.ask("ssh -G: evaluates the configuration (Match exec runs commands)")
        return
    f.ask("ssh: connects to another machine", p.has(*TUNNELS))
    options = p.values("-o")
    if any(LOCAL_COMMAND.search(o) for o in options) or p.has("-F", "-S", "-I"):
        f.ask("ssh: an option runs a local program or forwards your keys", True)
    sends_runtime_values(f, p)
    command = p.operands[1:]
    if command:
        if any(a.dynamic for a in command):
            f.ask("ssh: runs a remote command built at run time", True)
        else:
            f.nested(" ".join(a.text for a in command), f, depth + 1)
    elif p.operands:
        f.ask("ssh: opens a remote shell (it may read commands from the input)")


REMOTE = re.compile(r"^([\w.-]+@)?[\w.-]+:|^\w+://")


def scp(f: Findings, p: Parsed, depth: int) -> None:
    """Copying to a remote host uploads (dangerous); from one downloads (asks)."""
    options = p.values("-o")
    if any(LOCAL_COMMAND.search(o) for o in options) or p.has("-S", "-F"):
        f.ask(f"{p.name}: an option runs a local program", True)
    words = list(p.operands)
    if p.name == "sftp" or not words:
        f.ask(f"{p.name}: connects to another machine", True)
        return
    *sources, destination = words
    if REMOTE.match(destination.text):
        f.ask(f"{p.name}: copies files to another machine", True)
        for source in sources:
            if not REMOTE.match(source.text):
                roles.check(f, p.name, "t", source.text, source.dynamic, depth)
    else:
        f.ask(f"{p.name}: copies files from another machine")
        roles.check(f, p.name, "a", destination.text, destination.dynamic, depth)


def rsync(f: Findings, p: Parsed, depth: int) -> None:
    for value in p.values("-e", "--rsh"):
        if LOCAL_COMMAND.search(value) or not re.fullmatch(r"ssh( -[\w]+( \S+)?)*", value):
            f.ask("rsync: --rsh runs a program it is given", True)
    words = list(p.operands)
    if p.has("-n", "--dry-run", "--list-only"):
        return
    if not words:
        f.ask("rsync: no source or destination")
        return
    *sources, destination = words
    if REMOTE.match(destination.text) or destination.text.startswith("rsync://"):
        f.ask("rsync: copies files to another machine", True)
    else:
        f.ask("rsync: copies files")
        roles.check(f, "rsync", "a", destination.text, destination.dynamic, depth)
    for source in sources:
        if not REMOTE.match(source.text):
            roles.check(f, "rsync", "t", source.text, source.dynamic, depth)


NETCAT_EXEC = re.compile(r"^-[a-zA-Z]*[ec]$|^--(exec|sh-exec|lua-exec|system)|"
                         r"^(exec|system|open|create|gopen):|,\s*(exec|system)", re.I)


def netcat(f: Findings, p: Parsed, depth: int) -> None:
    words = [a.text for a in p.operands]
    if any(NETCAT_EXEC.search(w) or re.search(r"(?i)\b(exec|system):", w) for w in words):
        f.ask(f"{p.name}: runs a program connected to the network", True)
    sends_runtime_values(f, p)
    if p.name in ("nc", "ncat", "netcat") and any(re.fullmatch(r"-[a-zA-Z]*z[a-zA-Z]*", w)
                                                  for w in words):
        f.ask(f"{p.name}: probes ports on another machine")
        return
    if any(re.fullmatch(r"-[a-zA-Z]*l[a-zA-Z]*", w) or w == "--listen" for w in words):
        f.ask(f"{p.name}: listens for connections", True)
        return
    f.ask(f"{p.name}: connects to another machine and sends its input", True)


def aria2c(f: Findings, p: Parsed, depth: int) -> None:
    if any(w.startswith(("--on-", "--conf-path", "-i", "--input-file")) for w in p.argv[1:]):
        f.ask("aria2c: an option runs a program or reads a file of commands", True)


def nslookup(f: Findings, p: Parsed, depth: int) -> None:
    sends_runtime_values(f, p)
    names = [a for a in p.operands if not a.text.startswith("-")]
    if not names:
        f.ask("nslookup: interactive mode reads commands")


def getent(f: Findings, p: Parsed, depth: int) -> None:
    if p.operands and p.operands[0].text in ("shadow", "gshadow"):
        f.ask("getent: reads password hashes", True)


def ifconfig(f: Findings, p: Parsed, depth: int) -> None:
    if len(p.operands) > 1:
        words = {a.text for a in p.operands[1:]}
        f.ask("ifconfig: changes an interface", bool(words & {"down", "del"}))


def route(f: Findings, p: Parsed, depth: int) -> None:
    if p.operands:
        verb = p.operands[0].text
        f.ask(f"route {verb[:10]}: changes the routing table", verb in ("del", "flush"))


NMCLI_READS = {"general g": "status s hostname h permissions p logging l", "device d":
               "status s show sh list wifi lldp", "connection c con": "show s",
               "radio r": "all wifi wwan", "networking n": "connectivity c", "monitor m": ""}


def nmcli(f: Findings, p: Parsed, depth: int) -> None:
    words = [a.text for a in p.operands]
    if not words:
        return
    group = next((k for k in NMCLI_READS if any(n.startswith(words[0]) for n in k.split())),
                 None)
    verbs = NMCLI_READS.get(group or "", "").split()
    if group is None or (len(words) > 1 and not any(v.startswith(words[1]) for v in verbs)) or (
            group.startswith("radio") and len(words) > 2) or (
            group.startswith("device") and words[1:3] == ["wifi", "show-password"]) or (
            group.startswith("device") and words[1:2] == ["wifi"] and
            words[2:3] not in ([], ["list"])):
        f.ask("nmcli: changes the network configuration or shows secrets",
              any(w in ("delete", "down", "off", "show-password") for w in words))


IW_WRITES = frozenset({"set", "connect", "disconnect", "del", "add", "interface", "reg",
                       "switch", "ibss", "mesh", "ocb", "offchannel", "wowlan", "coalesce",
                       "cqm", "vendor", "ap", "start", "stop", "join", "leave"})


def iw(f: Findings, p: Parsed, depth: int) -> None:
    if IW_WRITES & {a.text for a in p.operands}:
        f.ask(f"{p.name}: changes the wireless configuration")


def ethtool_args(f: Findings, p: Parsed, depth: int) -> None:
    if len(p.operands) > 1:
        f.ask("ethtool: changes an interface's settings")


SHOW_WORDS = frozenset({"show", "list", "ls", "sh", "s", "l", "dev", "link", "fdb", "mdb",
                        "vlan", "qdisc", "class", "filter", "monitor", "stats"})


def show_only(f: Findings, p: Parsed, depth: int) -> None:
    if any(a.text in ("add", "del", "delete", "change", "replace", "flush", "set", "link set")
           for a in p.operands):
        f.ask(f"{p.name}: changes the network configuration",
              any(a.text in ("del", "delete", "flush") for a in p.operands) or
              any("loss" in a.text for a in p.operands))


def nmap(f: Findings, p: Parsed, depth: int) -> None:
    sends_runtime_values(f, p)
    for k, word in enumerate(p.argv[1:], 1):
        if word.startswith(("--script", "-sC", "-A", "--datadir", "--servicedb",
                            "--versiondb", "--resume", "--interactive")):
            f.ask("nmap: runs scripts", True)
        elif word.startswith(("-o", "--append-output", "--stylesheet")):
            target = word[3:] if len(word) > 3 else (p.argv[k + 1] if k + 1 < len(p.argv)
                                                     else "")
            roles.check(f, "nmap", "w", target, False, depth)
        elif word.startswith(("-iL", "--excludefile")):
            target = word[3:] if len(word) > 3 else (p.argv[k + 1] if k + 1 < len(p.argv)
                                                     else "")
            read_path(f, target)


def tcpdump(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
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
    if not (set(flags) & set("lFB")) or set(flags) & set("RtpcNeiyAKkHrusIDMOYg"):
        f.ask("ssh-keygen: creates or changes keys or known_hosts")
    for k, word in enumerate(words):
        if word == "-f" and k + 1 < len(words):
            read_path(f, words[k + 1])


def ssh_add(f: Findings, p: Parsed, depth: int) -> None:
    if [w for w in p.argv[1:]] not in (["-l"], ["-L"], ["-l", "-E", "sha256"]):
        f.ask("ssh-add: changes the keys the agent holds", "-D" in p.argv)


def ip_write(f: Findings, p: Parsed, depth: int) -> None:
    if {a.text for a in p.operands} & {"down", "nomaster", "flush", "del", "delete"}:
        f.ask(f"ip {' '.join(p.verbs)[:20]}: takes down or removes network configuration",
              True)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "curl": curl, "wget": wget, "httpie": httpie, "ssh": ssh, "scp": scp, "rsync": rsync,
    "netcat": netcat, "aria2c": aria2c, "net_dynamic": net_dynamic, "nslookup": nslookup,
    "getent": getent, "resolvectl": net_dynamic, "ifconfig": ifconfig, "route": route,
    "nmcli": nmcli, "iw": iw, "ethtool_args": ethtool_args, "show_only": show_only,
    "nmap": nmap, "tcpdump": tcpdump, "openssl": openssl, "ssh_keygen": ssh_keygen,
    "ssh_add": ssh_add, "ip_write": ip_write,
}
