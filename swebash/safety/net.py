"""Network programs: a GET that prints to stdout is read-only; anything that sends data, writes
a file, uses a proxy or a config file, or carries a run-time value (a DNS name or ping payload
built from ``$(…)`` leaks it) asks. curl and wget are judged by an allowlist of options —
both have hundreds, and several write files (``-o``, ``--trace``, ``-w '%output{…}'``) or read
them (``-K``, ``--variable @file``, ``--url-query @file``)."""

from __future__ import annotations

from swebash.safety.model import Findings, long_option
from swebash.safety.rules_commands import local_command

# curl options that only shape a GET printed to stdout; value-taking ones listed separately
CURL_FLAGS = set("sSLfIikv4v6#NGgjlqZ") | {"-6"}
CURL_SHORT_VALUES = set("HAemrzYyCu")
CURL_LONG_OK = ("--silent", "--show-error", "--location", "--fail", "--fail-with-body",
                "--head", "--include", "--insecure", "--verbose", "--compressed", "--http1.1",
                "--http2", "--http3", "--ipv4", "--ipv6", "--no-buffer", "--no-progress-meter",
                "--progress-bar", "--globoff", "--get", "--location-trusted", "--max-time",
                "--connect-timeout", "--retry", "--retry-delay", "--retry-max-time",
                "--header", "--user-agent", "--referer", "--range", "--max-redirs",
                "--max-filesize", "--time-cond", "--limit-rate", "--resolve", "--url",
                "--keepalive-time", "--no-keepalive", "--tlsv1.2", "--tlsv1.3", "--http0.9",
                "--raw", "--tcp-nodelay", "--path-as-is", "--disable", "--fail-early",
                "--retry-all-errors", "--retry-connrefused", "--parallel", "--styled-output",
                "--no-styled-output", "--ssl-reqd", "--proto", "--proto-redir",
                "--cacert", "--capath", "--user", "--basic", "--digest", "--write-out",
                "--request", "--remove-on-error")
CURL_LONG_VALUES = ("--max-time", "--connect-timeout", "--retry", "--retry-delay",
                    "--retry-max-time", "--header", "--user-agent", "--referer", "--range",
                    "--max-redirs", "--max-filesize", "--time-cond", "--limit-rate",
                    "--resolve", "--url", "--keepalive-time", "--proto", "--proto-redir",
                    "--cacert", "--capath", "--user", "--write-out", "--request")


CURL_LONG_TAKES = frozenset({
    "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii", "--form",
    "--form-string", "--upload-file", "--json", "--variable", "--url-query", "--proxy",
    "--preproxy", "--socks4", "--socks5", "--socks5-hostname", "--socks4a", "--config",
    "--cookie", "--cert", "--key", "--output", "--cookie-jar", "--dump-header", "--trace",
    "--trace-ascii", "--stderr", "--output-dir", "--etag-save", "--hsts", "--alt-svc",
    "--libcurl"})


def scheme(f: Findings, name: str, url: str) -> None:
    """Only http(s) is a plain download: file:// reads local files, telnet:// and smtp://
    send stdin, dict:// and gopher:// reach arbitrary services."""
    head = url.split("://", 1)[0].lower() if "://" in url else "http"
    if head not in ("http", "https"):
        f.ask(f"{name}: uses the {head[:10]} protocol", True)


def curl(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    i = 1
    while i < len(argv):
        arg, d = argv[i], dyn[i]
        if d:
            f.ask(f"{name}: sends a value known only at run time", True)
            i += 1
            continue
        if not arg.startswith("-"):
            scheme(f, name, arg)
        if arg.startswith("--"):
            head, eq, value = arg.partition("=")
            known = next((o for o in CURL_LONG_OK if o == head), None)
            if known is None:
                if not eq and head in CURL_LONG_TAKES and i + 1 < len(argv):
                    i += 1
                    value = argv[i]
                curl_problem(f, name, head, value)
                i += 1
                continue
            if known in CURL_LONG_VALUES and not eq:
                value = argv[i + 1] if i + 1 < len(argv) else ""
                i += 1
            curl_value(f, name, known, value)
        elif arg.startswith("-") and len(arg) > 1:
            for j, ch in enumerate(arg[1:], 2):
                if ch == "O":
                    curl_problem(f, name, "-O")
                    continue
                if ch in CURL_SHORT_VALUES or ch in "XwdFTKoxcDbE":
                    value = arg[j:]
                    if not value and i + 1 < len(argv):
                        i += 1
                        value = argv[i]
                    if ch in CURL_SHORT_VALUES or ch in "Xw":
                        curl_value(f, name, "-" + ch, value)
                    else:
                        curl_problem(f, name, "-" + ch, value)
                    break
                if ch not in CURL_FLAGS:
                    curl_problem(f, name, "-" + ch)
        i += 1


def curl_value(f: Findings, name: str, option: str, value: str) -> None:
    if option in ("-X", "--request") and value.upper() not in ("GET", "HEAD"):
        f.ask(f"{name}: makes a {value[:10]} request", value.upper() == "DELETE")
    elif option in ("-w", "--write-out") and ("%output" in value or value.startswith("@")):
        f.ask(f"{name}: --write-out writes or reads a file")
    elif option in ("-u", "--user", "-H", "--header") and "@" in value[:1]:
        f.ask(f"{name}: reads a header or credential file", True)


def curl_problem(f: Findings, name: str, option: str, value: str = "") -> None:
    sends = ("-d", "-F", "-T", "--data", "--data-binary", "--data-raw", "--data-urlencode",
             "--data-ascii", "--form", "--form-string", "--upload-file", "--json",
             "--variable", "--url-query", "--expand-data", "--expand-url")
    if option in sends or long_option(option, *sends[3:]):
        from_file = "@" in value or "<" in value or option in ("-T", "--upload-file")
        f.ask(f"{name}: uploads {'a file' if from_file else 'data'} ({option})", from_file)
    elif option in ("-x", "--proxy", "--preproxy", "--socks4", "--socks5",
                    "--socks5-hostname", "--socks4a") or long_option(option, "--proxy",
                                                                      "--socks5"):
        f.ask(f"{name}: goes through a proxy ({option})", True)
    elif option in ("-K", "--config", "-b", "--cookie", "-E", "--cert", "--key"):
        f.ask(f"{name}: reads options from a file ({option})", True)
    elif option in ("-o", "--output", "-D", "--dump-header", "--trace", "--trace-ascii",
                    "--stderr", "-c", "--cookie-jar") and value == "/dev/null":
        return
    elif option in ("-o", "-O", "-c", "-D", "--output", "--remote-name", "--remote-name-all",
                    "--cookie-jar", "--dump-header", "--trace", "--trace-ascii",
                    "--stderr", "--output-dir", "--create-dirs", "--etag-save",
                    "--hsts", "--alt-svc", "--libcurl") or long_option(
            option, "--output", "--trace", "--remote-name", "--cookie-jar", "--dump-header"):
        f.ask(f"{name}: writes a file ({option})")
    else:
        f.ask(f"{name}: unfamiliar option {option}")


WGET_OK = {"-q", "--quiet", "-S", "--server-response", "--spider", "-nv", "--no-verbose",
           "--no-check-certificate", "-4", "-6", "--inet4-only", "--inet6-only", "-v",
           "--verbose", "-qO-", "-O-", "-qO", "--show-progress", "--no-cache"}
WGET_VALUES = {"-U", "--user-agent", "--header", "-T", "--timeout", "-t", "--tries",
               "--max-redirect", "--referer", "-O", "--output-document"}


def wget(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    to_stdout = False
    i = 1
    while i < len(argv):
        arg = argv[i]
        if dyn[i]:
            f.ask(f"{name}: sends a value known only at run time", True)
        elif not arg.startswith("-"):
            scheme(f, name, arg)
        elif arg in ("-qO-", "-O-") or arg.startswith(("--output-document=-",)):
            to_stdout = True
        elif arg in WGET_VALUES or arg.split("=", 1)[0] in WGET_VALUES:
            value = arg.split("=", 1)[1] if "=" in arg else (argv[i + 1] if i + 1 < len(argv)
                                                             else "")
            if "=" not in arg:
                i += 1
            if arg.split("=", 1)[0] in ("-O", "--output-document"):
                to_stdout = value == "-"
                if not to_stdout:
                    f.ask(f"{name}: writes a file (-O)")
        elif arg.startswith(("--post", "--body", "--method")):
            f.ask(f"{name}: sends data ({arg.split('=', 1)[0]})", "file" in arg)
        elif arg.startswith(("-e", "--execute", "--config", "-i", "--input-file",
                             "--use-askpass", "-o", "--output-file", "-a", "--append-output",
                             "-x", "--force-directories", "-P", "--directory-prefix", "-r",
                             "--recursive", "-m", "--mirror", "-b", "--background",
                             "--proxy")):
            f.ask(f"{name}: option {arg.split('=', 1)[0][:20]} writes, reads or runs", True)
        elif arg.startswith("-") and arg not in WGET_OK:
            f.ask(f"{name}: unfamiliar option {arg.split('=', 1)[0]}")
        i += 1
    if not to_stdout and "--spider" not in argv:
        f.ask(f"{name}: downloads into a file")


def transfer(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    if name in ("scp", "sftp", "rsync") and local_command(argv):
        f.ask(f"{name}: an option runs a local command", True)
    if name in ("http", "https", "xh", "curlie") and any(a.upper() == "DELETE" for a in argv):
        f.ask(f"{name}: makes a DELETE request", True)
    f.ask(f"{name}: connects to another machine", name in ("nc", "ncat", "netcat", "socat",
                                                           "telnet", "scp", "sftp", "ftp",
                                                           "rsync", "tftp", "smbclient"))


def lookup(f: Findings, name: str, argv: list[str], dyn: list[bool], depth: int) -> None:
    """dig, ping, host…: a name or payload built at run time can carry data out."""
    if any(dyn[1:]):
        f.ask(f"{name}: sends a value known only at run time", True)
    if name.startswith("ping") and any(a.startswith("-p") for a in argv[1:]):
        f.ask(f"{name}: sends a chosen payload (-p)", True)
    if name in ("dig", "kdig", "drill") and "-f" in argv:
        f.ask(f"{name}: reads queries from a file")
    if name == "nslookup" and len([a for a in argv[1:] if not a.startswith("-")]) == 0:
        f.ask(f"{name}: interactive mode reads commands")
