"""Secret redaction: applied to everything before it leaves the machine or reaches the audit log.

Two nets: the values of environment variables whose names look secret (and the configured API
keys), replaced by ``[REDACTED:<VAR>]``; and well-known token shapes, replaced by
``[REDACTED:<kind>]``, so a key pasted into a file or printed by a command is caught too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

SECRET_NAME = re.compile(r"(_KEY$|_TOKEN$|_SECRET$|PASSWORD|PASSWD|_CREDENTIALS$|_PAT$|"
                         r"APIKEY|^SECRET_|_SECRET_)", re.I)
MIN_SECRET_LEN = 6
TOKEN_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("private-key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----.*?"
                               r"-----END [A-Z ]*PRIVATE KEY( BLOCK)?-----", re.S)),
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{10,}")),
    ("openai-key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}")),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
)


class SecretRedactor:
    def __init__(self, environ: Mapping[str, str], extra_secrets: Iterable[str] = ()) -> None:
        values: dict[str, str] = {}
        for name, value in environ.items():
            if SECRET_NAME.search(name) and len(value) >= MIN_SECRET_LEN:
                values.setdefault(value, name)
        for value in extra_secrets:
            if value and len(value) >= MIN_SECRET_LEN:
                values.setdefault(value, "api-key")
        # longest first, so a secret that contains another is replaced whole
        ordered = sorted(values, key=len, reverse=True)
        self._names = values
        self._pattern = re.compile("|".join(map(re.escape, ordered))) if ordered else None

    def redact(self, text: str) -> str:
        if not text:
            return text
        if self._pattern is not None:
            text = self._pattern.sub(lambda m: f"[REDACTED:{self._names[m.group(0)]}]", text)
        for kind, pattern in TOKEN_SHAPES:
            if kind == "private-key" and "PRIVATE KEY" not in text:
                continue
            text = pattern.sub(f"[REDACTED:{kind}]", text)
        return text
