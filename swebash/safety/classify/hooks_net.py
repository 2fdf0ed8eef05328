"""Hooks of the network programs: what a request sends (methods, bodies, files named with
``@``), where it goes (schemes, cloud metadata addresses, ``--resolve`` to them), values
computed at run time (a DNS name or a URL built from ``$(…)`` carries data out), remote
commands (``ssh host CMD`` is judged like a local one), uploads versus downloads, and the
listing forms of the network configuration tools."""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import hosts, roles
from swebash.safety.classify.checks import read_path
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed

UPLOAD_FILE = re.compile(r"(^|=)[@<]")
UPLOAD, BODY = "uploads data", "sends a request body"  # the grammar's reasons (net.py)


def sends_runtime_values(f: Findings, p: Parsed) -> None:
    """Any word computed at run time reaches the network: it can carry data out."""
    if any(d and not w.startswith(("<(", ">(")) for w, d in zip(p.argv[1:], p.dynamic[1:],
                                                                 strict=True)):
        f.ask(f"{p.name}: sends a value known only at run time", True)


def net_dynamic(f: Findings, p: Parsed, depth: int) -> None:
    sends_runtime_values(f, p)


# Request headers known to carry no credential and not to change where a request goes.
PLAIN_HEADERS = frozenset({
    "accept", "accept-charset", "accept-encoding", "accept-language", "accept-datetime",
    "user-agent", "content-type", "cache-control", "pragma", "if-match", "if-none-match",
    "if-modified-since", "if-unmodified-since", "if-range", "range", "referer", "origin",
    "dnt", "te", "upgrade-insecure-requests", "x-github-api-version", "x-requested-with",
    "connection", "expect", "content-language", "accept-patch", "prefer", "x-accept",
    "sec-fetch-mode", "sec-fetch-site", "sec-fetch-dest", "x-ratelimit-policy"})
CREDENTIAL_HEADER = re.compile(r"(?i)auth|token|secret|key|cookie|session|passw|credential|"
                               r"signature|bearer|jwt|csrf|xsrf|private|saml|sso|ticket|"
                               r"assertion|identity|api[-_]?id|client[-_]?id")
METADATA_HEADER = re.compile(r"(?i)^(metadata(-flavor)?|x-aws-ec2-metadata-token[\w-]*|"
                             r"x-google-metadata-request|x-identity-header)$")
CREDENTIAL_VALUE = re.compile(r"(?i)^\s*(bearer|basic|token|digest|negotiate|ntlm|aws4-|"
                              r"apikey|key=)\b|^\s*(gh[pousr]_|github_pat_|glpat-|sk-|xox)")


def header_reason(header: str) -> tuple[str, bool] | None:
    """What sending the header ``Name: value`` means (None: it is plain)."""
    name, _, value = header.partition(":")
    name = name.strip()
    low = name.lower()
    if METADATA_HEADER.match(low):
        return "sends the header the cloud metadata service requires", True
    if CREDENTIAL_HEADER.search(low) or CREDENTIAL_VALUE.search(value):
        return f"sends a credential in a header ({name[:24]})", True
    if low in PLAIN_HEADERS or (not value.strip() and low in PLAIN_HEADERS):
        return None
    return f"sends a header the classifier does not know ({name[:24]})", False


def check_header(f: Findings, name: str, header: str) -> None:
    found = header_reason(header)
    if found:
        f.ask(f"{name}: {found[0]}", found[1])


def split_colons(value: str) -> list[str]:
    """``host:port:addr`` split on the colons outside ``[…]`` (IPv6 literals)."""
    return re.split(r":(?![^\[]*\])", value)


def check_route(f: Findings, name: str, option: str, value: str) -> None:
    """``--resolve``, ``--connect-to``, ``--dns-servers``: where a request really goes."""
    parts = split_colons(value)
    if option == "--resolve":
        places = ":".join(parts[2:]).split(",")
    elif option == "--connect-to":
        places = parts[2:3]
    else:
        places = [split_colons(v)[0] if v.count(":") <= 1 or v.startswith("[") else v
                  for v in value.split(",")]
    for place in places:
        reason = roles.internal_host(place.strip().lstrip("+"))
        if reason:
            f.ask(f"{name}: {option} {reason}", True)


READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CURL_BODY = frozenset({"-d", "--data", "--data-ascii", "--data-binary", "--data-raw",
                       "--data-urlencode", "-F", "--form", "--form-string", "--json"})


def changes_remote(f: Findings, name: str, targets: list[str], method: str) -> None:
    """A request that is not a read (another method, or a body): it changes something on
    the host it reaches, which no undo here reaches."""
    place = next((hosts.host_of(t.split("://", 1)[-1]) for t in targets if t), "") or "a host"
    f.ask(f"{name}: changes something on {place[:40]} ({method[:10]})", True)


def curl_method(p: Parsed) -> str | None:
    """The method of a curl request that is not a read (None: it only reads)."""
    method = (p.values("-X", "--request") or [""])[-1].upper()
    if method and method not in READ_METHODS:
        return method
    if p.has("-T", "--upload-file"):
        return method or "PUT"
    body = any(u.opt.name in CURL_BODY for u in p.options)
    if body and not p.has("-G", "--get"):
        return method or "POST"
    return None


def curl(f: Findings, p: Parsed, depth: int) -> None:
    sends_runtime_values(f, p)
    method = curl_method(p)
    if method:
        changes_remote(f, "curl", [a.text for a in p.operands] + p.values("--url"), method)
    for used in p.options:
        name, value = used.opt.name, used.value or ""
        if name in ("-w", "--write-out") and ("%output" in value or value.startswith("@")):
            f.ask("curl: --write-out writes or reads a file", True)
        elif name in ("-H", "--header", "--proxy-header") and value.startswith("@"):
            f.ask("curl: reads a header file into the request", True)
            read_path(f, value[1:])
        elif name in ("-H", "--header", "--proxy-header"):
            check_header(f, "curl", value)
        elif name in ("-b", "--cookie") and "=" not in value and value:
            read_path(f, value)
        elif name in ("--resolve", "--connect-to", "--dns-servers"):
            check_route(f, "curl", name, value)
        elif used.opt.effect is not None and used.opt.effect.reason in (UPLOAD, BODY):
            source = value.split("=", 1)[-1] if UPLOAD_FILE.search(value) else ""
            if name == "--data-urlencode" and "@" in value.split("=", 1)[0]:
                source = value.split("@", 1)[1]  # `name@file`: the file's content
                value = "@" + source
            if name in ("-T", "--upload-file") or UPLOAD_FILE.search(value):
                path = value if name in ("-T", "--upload-file") else source.lstrip("@<")
                if not method:  # `-G`: a file's content sent in the query is still sent
                    f.ask("curl: sends a local file's content (in the query)", True)
                if path and path != "-":
                    read_path(f, path)


LWP_FLAGS = frozenset({"-s", "-S", "-e", "-d", "-x", "-u", "-U"})


def lwp(f: Findings, p: Parsed, depth: int) -> None:
    """libwww-perl's ``GET``/``HEAD``/``POST``/``PUT`` and ``lwp-request -m METHOD``: the
    method is the program's name or ``-m``; only plain URLs and display flags read."""
    sends_runtime_values(f, p)
    words = p.argv[1:]
    method = p.name.upper() if p.name != "lwp-request" else "GET"
    if "-m" in words[:-1]:
        method = words[words.index("-m") + 1].upper()
    if method not in READ_METHODS or "-c" in words:
        changes_remote(f, p.name, [w for w in words if "://" in w], method)
    urls = [w for k, w in enumerate(words) if not w.startswith("-") and
            (k == 0 or words[k - 1] != "-m")]
    others = [w for w in words if w.startswith("-") and w not in LWP_FLAGS and w != "-m"]
    if others:
        f.ask(f"{p.name}: an option not known to be read-only ({others[0][:12]})",
              others[0] in ("-C", "-p", "-P", "-H", "-c"))
    for url in urls:
        roles.url(f, p.name, url, False)


def wget(f: Findings, p: Parsed, depth: int) -> None:
    sends_runtime_values(f, p)
    method = (p.values("--method") or [""])[-1].upper()
    body = p.has("--post-data", "--post-file", "--body-data", "--body-file")
    if (method and method not in READ_METHODS) or body:
        changes_remote(f, p.name, [a.text for a in p.operands], method or "POST")
    for used in p.options:
        if used.opt.name == "--header" and used.value is not None:
            check_header(f, p.name, used.value)
        elif used.opt.name == "--dns-servers" and used.value is not None:
            check_route(f, p.name, "--dns-servers", used.value)
    to_stdout = p.values("-O", "--output-document")[-1:] == ["-"]
    if not to_stdout and not p.has("--spider"):
        f.ask(f"{p.name}: downloads into a file")


HTTPIE_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# httpie's request-item separators, longest first at the same position
HTTPIE_SEPARATORS = (":=@", "==@", ":@", "=@", ":=", "==", "=", "@", ":", ";")
HTTPIE_FIRST = re.compile(r"(?<!\\)[:=@;]")


def httpie_item(item: str) -> tuple[str, str, str]:
    """(name, separator, value) of a request item, as httpie splits it: at the first
    unescaped separator character, the longest separator that starts there."""
    match = HTTPIE_FIRST.search(item)
    if match is None:
        return item, "", ""
    at = match.start()
    separator = next(s for s in HTTPIE_SEPARATORS if item.startswith(s, at))
    return item[:at], separator, item[at + len(separator):]


def httpie(f: Findings, p: Parsed, depth: int) -> None:
    """``http [METHOD] URL [ITEM…]``: query items (``q==v``) and plain headers only read;
    credential headers send secrets; body items (``f=v``, ``f:=json``) write; anything
    that reads a local file into the request (``@f``, ``f@file``, ``f=@file``,
    ``H:@file``, ``q==@file``) uploads it."""
    sends_runtime_values(f, p)
    for value in p.values("--resolve"):
        check_route(f, p.name, "--resolve", value)
    words = [a.text for a in p.operands]
    method = ""
    if words and words[0].upper() in HTTPIE_METHODS and not words[0].startswith(":"):
        method = words.pop(0).upper()
    body = p.has("--raw") or any(httpie_item(w)[1] in ("=", ":=", "@", "=@", ":=@")
                                 for w in words[1:])
    if ((method and method not in READ_METHODS) or body) and not p.has("--offline"):
        changes_remote(f, p.name, words[:1], method or "POST")
    if words:
        target = words.pop(0)
        if target.startswith(":"):  # `:3000/path` is localhost
            f.ask(f"{p.name}: {hosts.LOCAL}", True)
        else:
            roles.url(f, p.name, target, False)
    for item in words:
        name, separator, value = httpie_item(item)
        if separator in ("@", "=@", ":=@", "==@", ":@") or (not separator and
                                                            item.startswith("@")):
            f.ask(f"{p.name}: reads a local file into the request", True)
            read_path(f, value)
        elif separator == ":":
            check_header(f, p.name, f"{name}:{value}")
        elif separator in ("=", ":="):
            f.ask(f"{p.name}: sends a request body (a write request)")
        elif not separator:
            f.ask(f"{p.name}: an argument that is not a request item ({item[:20]})")
    if p.has("-d", "--download", "-c", "--continue"):
        f.ask(f"{p.name}: downloads into a file")


def curlie(f: Findings, p: Parsed, depth: int) -> None:
    curl(f, p, depth)
    httpie(f, p, depth)


LOCAL_COMMAND = re.compile(r"(?i)(proxycommand|localcommand|permitlocalcommand|"
                           r"knownhostscommand|remotecommand|proxyusefdpass|match\s+exec|"
                           r"forwardagent|controlpath|include|securitykeyprovider|"
                           r"pkcs11provider|identityagent|sendenv|setenv)")
FORWARD_OPTION = re.compile(r"(?i)^\s*(remoteforward|localforward|dynamicforward|tunnel|"
                            r"gatewayports|permitremoteopen|stdinnull\S*forward)\b")
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
    forwards = [o for o in ("-R", "-L", "-D", "-w") if p.has(o)] + [
        o.split("=")[0].split()[0] for o in options if FORWARD_OPTION.match(o)]
    if forwards:
        f.ask(f"ssh: opens a tunnel ({forwards[0][:16]}): a port reachable from elsewhere, "
              "or the reverse", True)
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


def aria2c(f: Findings, p: Parsed, depth: int) -> None:
    if any(w.startswith(("--on-", "--conf-path", "-i", "--input-file")) for w in p.argv[1:]):
        f.ask("aria2c: an option runs a program or reads a file of commands", True)
    words = p.argv[1:]
    for k, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name in ("-o", "--out", "-d", "--dir"):
            target = value if equals else (words[k + 1] if k + 1 < len(words) else "")
            if target:
                roles.check(f, "aria2c", "a", target, False, depth, quiet=True)


def nslookup(f: Findings, p: Parsed, depth: int) -> None:
    sends_runtime_values(f, p)
    names = [a for a in p.operands if not a.text.startswith("-")]
    if not names:
        f.ask("nslookup: interactive mode reads commands")


def getent(f: Findings, p: Parsed, depth: int) -> None:
    if p.operands and p.operands[0].text in ("shadow", "gshadow"):
        f.ask("getent: reads password hashes", True)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "curl": curl, "wget": wget, "lwp": lwp, "httpie": httpie, "curlie": curlie, "ssh": ssh,
    "scp": scp, "rsync": rsync, "aria2c": aria2c, "net_dynamic": net_dynamic,
    "nslookup": nslookup, "getent": getent, "resolvectl": net_dynamic,
}
