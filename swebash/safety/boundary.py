"""The file boundary: one policy for every file a tool reads, lists or writes.

Design note. The gate used to judge a file tool's argument only: ``search_text`` on ``~`` was
one allowed read of a directory, and the walk then read ~/.ssh in-process, outside the sandbox.
A check each tool has to remember is a check some tool forgets, so the policy is one object:
the gate asks it about the argument, and the tools (given it in ``ToolContext.files``) ask it
about every file and directory they open, list or write.

* Reads: the path guard (``paths.check_path``) for the argument. For each entry of a walk or a
  listing: its names, lexical and resolved (a symlink is judged where it lands); once a file is
  open, the file really held (``/proc/self/fd``), a hard link to a home secret, and the whole
  content (a private key under any name). Text is redacted as a whole before a pattern sees it,
  so a per-line search can neither probe a token nor reassemble a key.
* Writes: the sandbox's write policy. The writable tree is the git root of the cwd, else the
  cwd (``sandbox.work_root``). A plain write inside it asks as before (``--yes`` approves it).
  Outside it, and at the protected places inside it (any ``.git``, startup files, swebash's and
  git's config, the hidden entries of a home that the tree is or holds, system directories), the
  verdict ``needs_person``: a person at the terminal is asked every time; ``--yes-dangerous``,
  ``tools.confirm = false`` and session rules never approve it.
* A write lands only where it was judged: ``check`` remembers the resolved target of each write
  it judged, and ``write_target`` refuses when the path now resolves elsewhere (a symlink
  swapped in by a command running in the same turn). A write never judged (a tool called
  directly) may land only at a plain place of the tree.
"""

from __future__ import annotations

import os
import re
import stat
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

from swebash.api import Verdict
from swebash.errors import InvalidArguments, PermissionDenied
from swebash.safety.base import Redactor
from swebash.safety.paths import (
    AUTORUN,
    RC_FILES,
    SYSTEM_DIRS,
    check_path,
    expand,
    runs_on_its_own,
    scan_secret_inodes,
    secret_reason,
    within,
)
from swebash.safety.redact import SecretRedactor
from swebash.safety.sandbox import work_root

# A key as it is stored: a BEGIN line, then (after PEM headers) a base64 body line, with real
# or JSON-escaped newlines (a service-account .json). Source code and docs that merely mention
# the marker are not secret; the gate's head sniff (``paths.PRIVATE_KEY``) is broader.
_NL = rb"(?:\r?\n|\\r\\n|\\n)"
KEY_BLOCK = re.compile(
    rb"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----" + _NL
    + rb"(?:[A-Za-z-]+: [^\r\n\\]*" + _NL + rb"|" + _NL + rb")*[ \t]*[A-Za-z0-9+/=]{16}|"
    rb"PuTTY-User-Key-File-\d+: |"
    rb"(?i:aws_secret_access_key)[ \t\"']*[=:][ \t\"']*[A-Za-z0-9/+]{40}")
KEY_MARKERS = (b"PRIVATE KEY", b"PuTTY-User-Key-File-", b"aws_secret_access_key",
               b"AWS_SECRET_ACCESS_KEY", b"Aws_Secret_Access_Key")
PERSON_ONLY = ("only a person at the terminal can approve this, and is asked every time; "
               "--yes and --yes-dangerous never approve it. Do not try another way around it.")
INODE_TTL = 10.0  # seconds a scan of the home's secret inodes stays fresh
MAX_JUDGED = 256  # write targets remembered from their judgement to their write
# Never written without asking, wherever the tree is (relative to home).
HOME_CONFIG = (".config/git", ".gitconfig", ".config/swebash", ".local/state/swebash")


class SecretFile(PermissionDenied):
    """A file a tool met is secret: a walk skips it and names it; a read refuses it."""


@runtime_checkable
class HasFileBoundary(Protocol):
    """A gate that owns the session's file boundary (the tools are handed the same one)."""

    @property
    def files(self) -> FileBoundary: ...


class FileBoundary:
    def __init__(self, home: str, *, protected: Sequence[str] = (),
                 redactor: Redactor | None = None) -> None:
        self.home = home
        self._real_home = os.path.realpath(home)
        extra = tuple(os.path.join(self._real_home, rel) for rel in HOME_CONFIG)
        self.protected = tuple(dict.fromkeys(os.path.realpath(p) for p in (*protected, *extra)))
        self.redactor: Redactor = redactor or SecretRedactor({})
        self._lock = threading.Lock()
        self._judged: dict[tuple[str, str], str] = {}
        self._inodes: tuple[float, frozenset[tuple[int, int]]] | None = None

    @classmethod
    def for_environment(cls, env: Mapping[str, str]) -> FileBoundary:
        """The boundary a tool uses when it was handed none (called directly, in tests)."""
        import pwd

        home = env.get("HOME") or pwd.getpwuid(os.getuid()).pw_dir
        return cls(home, redactor=SecretRedactor(env))

    # ------------------------------------------------------------------ the gate's question

    def check(self, path: str, cwd: str, *, write: bool) -> Verdict:
        """Judge reading (or writing) ``path`` from ``cwd``; never raises."""
        verdict = check_path(path, cwd, self.home, write=write)
        if not write or verdict.decision == "deny":
            return verdict
        real = self._landing(path, cwd)
        if real is None:
            return Verdict("deny", False, ("not a usable path",))
        with self._lock:
            self._judged.pop((cwd, path), None)  # re-inserted last: the oldest go first
            self._judged[(cwd, path)] = real
            while len(self._judged) > MAX_JUDGED:
                del self._judged[next(iter(self._judged))]
        return self._write_verdict(real, path, cwd)

    def _landing(self, path: str, cwd: str) -> str | None:
        """Where a write to ``path`` lands: resolved as the kernel will (symlinks, then ``..``)."""
        try:
            return os.path.realpath(expand(path, cwd, self.home, normalise=False))
        except (OSError, ValueError):
            return None

    def writable_tree(self, cwd: str) -> str:
        return work_root(cwd)

    def _write_verdict(self, real: str, path: str, cwd: str) -> Verdict:
        moved = real != expand(path, cwd, self.home)
        tree = self.writable_tree(cwd)
        reasons: list[str] = []
        protected = self._protected(real, tree)
        if protected:
            reasons.append(protected)
        if tree == "/" or not within(real, tree):
            reasons.append(f"writes outside the working tree {tree}")
        if not reasons:
            return Verdict("ask", False, (f"writes {path} (→ {real})" if moved
                                          else f"writes {path}",))
        if moved:  # resolved elsewhere than it reads: say where
            reasons.append(f"lands at {real}")
        return Verdict("ask", True, tuple(reasons), needs_person=True)

    def _protected(self, real: str, tree: str) -> str | None:
        """Why a place is protected even inside the writable tree (None: it is not)."""
        if ".git" in real.lower().split("/"):
            return "writes inside .git (hooks and config run code at the next git command)"
        if os.path.basename(real) in RC_FILES:
            return "writes a startup file that runs code"
        if runs_on_its_own(real, tree):
            return f"writes a place {AUTORUN}"
        if any(within(real, place) for place in self.protected):
            return "writes swebash's or git's configuration"
        home = self._real_home
        if tree != "/" and within(home, tree) and real != home and within(real, home):
            first = os.path.relpath(real, home).split("/")[0]
            if first.startswith("."):
                return f"writes ~/{first}, a hidden place of your home"
        if any(within(real, d) for d in SYSTEM_DIRS):
            return "writes a system location"
        return None

    # ------------------------------------------------------------------ the tools' questions

    def resolve(self, path: str, cwd: str) -> str:
        """Where a tool's path argument points, as the kernel will resolve it."""
        if not isinstance(path, str) or not path.strip():
            raise InvalidArguments("path must be a non-empty string")
        if "\x00" in path:
            raise InvalidArguments("path contains a NUL byte")
        return expand(path, cwd, self.home, normalise=False)

    def require_read(self, path: str, cwd: str) -> None:
        """Refuse a read the gate would deny (a tool re-checks its own argument)."""
        verdict = check_path(path, cwd, self.home, write=False)
        if verdict.decision == "deny":
            raise PermissionDenied("; ".join(verdict.reasons) or f"{path}: refused")

    def entry_secret(self, lexical: str, real: str) -> str | None:
        """Why an entry met in a walk or a listing is secret, by its names (None: it is not)."""
        return secret_reason(lexical, self.home) or (
            secret_reason(real, self.home) if real != lexical else None)

    def hard_link_secret(self, st: os.stat_result) -> bool:
        if st.st_nlink < 2 or not stat.S_ISREG(st.st_mode):
            return False
        with self._lock:
            now = time.monotonic()
            if self._inodes is None or now - self._inodes[0] > INODE_TTL:
                self._inodes = (now, scan_secret_inodes(self.home))
            return (st.st_dev, st.st_ino) in self._inodes[1]

    def opened_secret(self, fd: int, st: os.stat_result) -> str | None:
        """Judge the file actually held open: where it really is, and what it is linked to."""
        try:
            real = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            real = ""  # no /proc (macOS): the names were judged before the open
        if real.startswith("/"):
            reason = secret_reason(real, self.home)
            if reason:
                return reason
        if self.hard_link_secret(st):
            return "a hard link to a secret file"
        return None

    def content_secret(self, data: bytes) -> str | None:
        """The whole content, not its first lines: a key anywhere makes the file secret."""
        if not any(marker in data for marker in KEY_MARKERS):  # the regex's literals, fast
            return None
        return "holds a private key or cloud secret" if KEY_BLOCK.search(data) else None

    def redact(self, text: str) -> str:
        return self.redactor.redact(text)

    def write_target(self, path: str, cwd: str) -> str:
        """The resolved place a write tool may write ``path`` to, or PermissionDenied."""
        with self._lock:
            judged = self._judged.get((cwd, path))
        verdict = check_path(path, cwd, self.home, write=True)
        if verdict.decision == "deny":
            raise PermissionDenied("; ".join(verdict.reasons))
        real = self._landing(path, cwd)
        if real is None:
            raise PermissionDenied(f"{path}: not a usable path")
        if judged is None:
            now = self._write_verdict(real, path, cwd)
            if now.needs_person:
                raise PermissionDenied(f"not approved: {'; '.join(now.reasons)} — "
                                       f"{PERSON_ONLY}")
        elif judged != real:
            raise PermissionDenied(f"{path} now resolves to {real}, not to {judged} where it "
                                   "was approved (a link changed in between); nothing written")
        return real
