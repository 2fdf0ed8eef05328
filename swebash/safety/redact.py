"""Secret redaction: applied to everything before it leaves the machine or reaches the audit log.

Two nets: the values of environment variables whose names look secret (and the configured API
keys), replaced by ``[REDACTED:<VAR>]``; and well-known token shapes, replaced by
``[REDACTED:<kind>]``, so a key pasted into a file or printed by a command is caught too.

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
            text = self._pattern.sub(lambda m: f"[REDACTED:{self._names[m.group(0)]}]", text)
        text = redact_private_keys(text)
        for kind, pattern in TOKEN_SHAPES:
            if any(marker in text for marker in SHAPE_MARKERS[kind]):  # a scan per shape is slow
                text = pattern.sub(f"[REDACTED:{kind}]", text)
        return text


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
        out.append("[REDACTED:private-key]")
        done = stop
    out.append(text[done:])
    return "".join(out)
