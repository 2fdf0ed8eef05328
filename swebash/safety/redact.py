"""Secret redaction: applied to everything before it leaves the machine or reaches the audit log.

Three nets: the values of environment variables whose names look secret (and the configured API
keys), replaced by ``[REDACTED:<VAR>]``; well-known token shapes, replaced by
``[REDACTED:<kind>]``, so a key pasted into a file or printed by a command is caught too; and
values *given* to a secret-named key wherever they are written — ``DB_PASSWORD=hunter2``,
``password: "s3cr3t"``, ``"client_secret": "…"``, ``--password=…``, ``aws_secret_access_key =
…``, a URL's ``user:password@`` — replaced by ``[REDACTED:value]`` (a config file, a compose
file or an ``env`` printout read by a tool, or the terminal after ``cat .env``). A value is a
literal: quoted, or a bare word that carries a digit or a symbol and ends the statement, so
code (``token = tokenizer.encode(x)``, ``self.token = new_token``, ``${DB_PASSWORD}``) is left
as it is.

Redaction works on a whole text, never line by line: a private key spans lines, so a tool that
hands back lines (search_text) redacts the file first and matches after. A key is redacted from
its BEGIN line to its END line, or, when the END line is missing (a file cut at a size limit,
``head`` of a key), through the key-body lines that follow; in linear time however many BEGIN
lines a hostile text holds.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping

from swebash.safety.base import REDACTED, placeholder

SECRET_NAME = re.compile(r"(_KEY$|_TOKEN$|_SECRET$|PASSWORD|PASSWD|_CREDENTIALS$|_PAT$|"
                         r"APIKEY|^SECRET_|_SECRET_)", re.I)
MIN_SECRET_LEN = 6
KEY_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----")
KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----")
# the lines of a key's body, newlines real or JSON-escaped: base64, or a PEM header line
KEY_BODY = re.compile(r"(?:(?:\r?\n|\\r\\n|\\n)[ \t]*(?:[A-Za-z0-9+/=]{8,}|"
                      r"(?:Proc-Type|DEK-Info|Comment|Version|Hash): [^\r\n\\]*)?[ \t]*"
                      r"(?=\r?\n|\\r\\n|\\n|\Z))*")
TOKEN_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{10,}")),
    ("openai-key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}")),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
)

# Literal text each shape's match contains: a shape whose markers are absent is not scanned for.
SHAPE_MARKERS: dict[str, tuple[str, ...]] = {
    "anthropic-key": ("sk-ant-",), "openai-key": ("sk-",), "aws-access-key": ("AKIA", "ASIA"),
    "github-token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "slack-token": ("xox",), "jwt": ("eyJ",), "google-api-key": ("AIza",),
}


# a key named for a secret, as written in env files, shell, YAML, JSON, TOML, INI and options
# Names a secret is given under: found with plain substring searches of the lowercased text
# (C speed, however many there are), then each is read with anchored matches.
MAX_KEY = 64
KEY_LITERALS = ("passw", "passphrase", "secret", "token", "credential", "key")
# "key" names a secret only as api_key/access-key/… or an upper-case NAME_KEY (STRIPE_KEY);
# primary_key, monkey and keyboard are no secrets
KEY_BEFORE = re.compile(r"(?:api|access|private|auth|account)[_-]?\Z")
ASSIGNED_VALUE = re.compile(
    # the text may be JSON-encoded (a tool's result): quotes may be \" and line ends \n
    r"[A-Za-z0-9_.-]{0,48}+(?:\\?[\"'])?+[ \t]*+(?::=|=>|:|=)[ \t]*+"
    r"(?:\\?\"(?P<dq>[^\"\\\n$]{6,256}+)\\?\"|\\?'(?P<sq>[^'\\\n$]{6,256}+)\\?'|"
    r"(?P<bare>[^\s\"'`,;(){}\[\]<>$\\]{6,256}+)(?=[ \t]*+(?:$|[#,;&|}\]\\]|\r))|"
    r"(?P<opt>[^\s\"'`$\\]{6,256}+)(?=\s|\\|$))", re.MULTILINE)
# `curl -u admin:hunter2 …`: a user's password given with -u/--user (quantifiers possessive:
# a value that fails its end never backtracks)
# (each pattern starts with a literal, so the engine skips to it: a leading look-behind made
# these two scans most of a search's redaction time)
USER_OPTION = re.compile(r"-(?:u|-user)[ =](?P<user>[^\s:/@]{1,64}+):"
                         r"(?P<pw>[^\s@]{4,256}+)(?=\s|$)")
URL_PASSWORD = re.compile(r"://(?P<user>[^/?#@\s:]{0,256}+):(?P<pw>[^/?#@\s]{1,256}+)@")
CODE_WORD = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+")
MARK = placeholder("value")


def _plain_value(value: str, quoted: bool) -> bool:
    """A literal that may be a secret: not a reference, a template, a URL or a number; a bare
    word also carries a digit or a symbol (``new_token`` is a variable, ``hunter2`` is not)."""
    if value.startswith(("{{", "%(", "<", "http://", "https://", REDACTED)) or \
            not any(c.isalpha() for c in value) or value.strip() != value:
        return False
    if not quoted and CODE_WORD.fullmatch(value):
        return False  # process.env.API_KEY, os.environ.get, settings.SECRET_KEY
    return quoted or any(not (c.isalpha() or c == "_") for c in value)


def _secret_key_word(text: str, low: str, at: int) -> bool:
    """The "key" at ``at`` ends a secret's name: NAME_KEY in upper case, or api/access/…key."""
    upper = text.startswith("KEY", at) and at > 1 and text[at - 1] == "_" and \
        (text[at - 2].isupper() or text[at - 2].isdigit())
    return upper or KEY_BEFORE.search(low, max(0, at - 8), at) is not None


def _candidates(text: str, low: str) -> list[int]:
    """Where a secret-named key's name word ends, in order."""
    found: list[int] = []
    for literal in KEY_LITERALS:
        at = low.find(literal)
        while at >= 0:
            end = at + len(literal)
            if literal != "key" or _secret_key_word(text, low, at):
                found.append(end)
            at = low.find(literal, end)
    return sorted(set(found))


def _assigned_spans(text: str, low: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    done = 0
    for end in _candidates(text, low):
        if end < done:
            continue
        value = ASSIGNED_VALUE.match(text, end)
        if value is None:
            continue
        group = next(g for g in ("dq", "sq", "bare", "opt") if value.group(g) is not None)
        if group == "opt" and not _option_before(text, end):
            continue  # a bare value ending at a space is an option's only (`--password=x y`)
        if _plain_value(value.group(group), group in ("dq", "sq")):
            spans.append(value.span(group))
        done = value.end()
    return spans


def _option_before(text: str, end: int) -> bool:
    """The key that ends at ``end`` is an option (``--password``): its word starts with -."""
    start = text.rfind(" ", max(0, end - MAX_KEY), end) + 1 or max(0, end - MAX_KEY)
    word = text[start:end].lstrip("\t\n")
    return word.startswith("-")


SECRET_WORDS = ("pass", "secret", "token", "key", "credential", "phrase")


def _user_password(text: str, m: re.Match[str]) -> str:
    """``-u user:password`` as an option word (after a space or at the start), password
    redacted when it is a literal."""
    if (m.start() > 0 and not text[m.start() - 1].isspace()) or \
            not _plain_value(m.group("pw"), False):
        return m.group(0)
    return m.group(0)[: m.start("pw") - m.start()] + MARK


def redact_assigned(text: str) -> str:
    """The third net: values given to secret-named keys and options, and URL passwords."""
    if "://" in text and "@" in text:
        text = URL_PASSWORD.sub(lambda m: f"://{m.group('user')}:{MARK}@", text)
    if "-u" in text or "--user" in text:
        text = USER_OPTION.sub(lambda m: _user_password(text, m), text)
    low = text.lower()
    spans = _assigned_spans(text, low) if any(word in low for word in SECRET_WORDS) else []
    if not spans:
        return text
    out: list[str] = []
    at = 0
    for start, end in spans:
        out.append(text[at:start])
        out.append(MARK)
        at = end
    out.append(text[at:])
    return "".join(out)


class SecretRedactor:
    def __init__(self, environ: Mapping[str, str], extra_secrets: Iterable[str] = ()) -> None:
        self._names: dict[str, str] = {}
        self._pattern: re.Pattern[str] | None = None
        for value in extra_secrets:
            if value and len(value) >= MIN_SECRET_LEN:
                self._names.setdefault(value, "api-key")
        self.learn(environ)

    def learn(self, environ: Mapping[str, str]) -> None:
        """Also redact the secret-named values of ``environ`` from now on: the user's shell
        exports variables after swebash started (``export SERVICE_TOKEN=…``), and the commands
        the AI runs see them. Values are only ever added, so every text that leaves later
        (tool results, the audit log, the terminal context) is redacted of them too."""
        new = {value: name for name, value in environ.items()
               if SECRET_NAME.search(name) and len(value) >= MIN_SECRET_LEN
               and value not in self._names}
        if not new and (self._pattern is not None or not self._names):
            return
        for value, name in new.items():
            self._names.setdefault(value, name)
        # longest first, so a secret that contains another is replaced whole
        ordered = sorted(self._names, key=len, reverse=True)
        self._pattern = re.compile("|".join(map(re.escape, ordered)))

    def redact(self, text: str) -> str:
        if not text:
            return text
        if self._pattern is not None:
            text = self._pattern.sub(lambda m: placeholder(self._names[m.group(0)]), text)
        text = redact_private_keys(text)
        for kind, pattern in TOKEN_SHAPES:
            if any(marker in text for marker in SHAPE_MARKERS[kind]):  # a scan per shape is slow
                text = pattern.sub(placeholder(kind), text)
        return redact_assigned(text)


def redact_private_keys(text: str) -> str:
    """Each key from BEGIN to its END (an END before the next BEGIN), else through its body."""
    if "PRIVATE KEY" not in text:
        return text
    begins = list(KEY_BEGIN.finditer(text))
    ends = [(m.start(), m.end()) for m in KEY_END.finditer(text)]
    starts = [start for start, _ in ends]
    out: list[str] = []
    done = 0
    for index, begin in enumerate(begins):
        if begin.start() < done:
            continue  # inside a key already redacted
        limit = begins[index + 1].start() if index + 1 < len(begins) else len(text)
        at = bisect.bisect_left(starts, begin.end())
        if at < len(ends) and ends[at][0] < limit:
            stop = ends[at][1]
        else:
            body = KEY_BODY.match(text, begin.end(), limit)
            stop = body.end() if body else begin.end()
        out.append(text[done:begin.start()])
        out.append(placeholder("private-key"))
        done = stop
    out.append(text[done:])
    return "".join(out)
