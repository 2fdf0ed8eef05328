"""Which domains a sandboxed command may reach: the allow-list, and asking about new ones.

``[sandbox] allow_domains`` admits a name exactly (``pypi.org``) or its subdomains
(``*.githubusercontent.com``). Any other name is asked about once: through the same
confirmation the agent uses for a command (``ConfirmRequest(kind="network")``), answered
y (this session), N (refused for this session — asked once) or a (always, in this project:
saved to ``sandbox-domains.json`` in swebash's state directory, keyed by the project's root).
Where nobody can be asked (``-c``, piped, ``--yes``), a new name is refused and the tool says
so in one line. Questions are asked one at a time; a second connection to a name being asked
about waits for that answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import tempfile
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from swebash.api import ConfirmHook

Answer = Literal["yes", "no", "project"]
QUESTION_TIMEOUT = 600.0  # seconds a command waits for the answer
Asker = Callable[[str], Answer]


def normalise(host: str) -> str:
    return host.strip().rstrip(".").lower()


def matches(host: str, pattern: str) -> bool:
    pattern = normalise(pattern)
    if pattern.startswith("*."):
        return host.endswith(pattern[1:]) and host != pattern[2:]
    return host == pattern


@dataclass(frozen=True)
class Decision:
    allowed: bool
    why: str
    asked: bool = False  # a person gave this answer now or earlier in this session


class DomainStore:
    """Domains allowed "always, in this project": {"projects": {root: [domain, ...]}}."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()

    def load(self) -> dict[str, list[str]]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return {}
        projects = data.get("projects") if isinstance(data, dict) else None
        if not isinstance(projects, dict):
            return {}
        return {str(k): [str(d) for d in v if isinstance(d, str)]
                for k, v in projects.items() if isinstance(v, list)}

    def allows(self, project: str, host: str) -> bool:
        return any(matches(host, d) for d in self.load().get(project, ()))

    def add(self, project: str, host: str) -> bool:
        """Save ``host`` for ``project``; False when it could not be written."""
        if self.path is None:
            return False
        with self._lock:
            data = self.load()
            if host in data.setdefault(project, []):
                return True
            data[project].append(host)
            # the file itself is replaced; a symlink in its place is followed, not replaced
            target = Path(os.path.realpath(self.path))
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(prefix=".sandbox-domains-", dir=target.parent)
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    json.dump({"projects": data}, handle, indent=1, sort_keys=True)
                os.replace(tmp, target)
            except OSError:
                with contextlib.suppress(OSError, UnboundLocalError):
                    os.unlink(tmp)
                return False
            return True


class DomainGate:
    def __init__(self, allowed: Iterable[str], store: DomainStore,
                 project: Callable[[], str]) -> None:
        self.allowed = tuple(normalise(d) for d in allowed if d.strip())
        self.store = store
        self.project = project  # the root of the project the current command runs in
        self.ask: Asker | None = None  # set while someone can answer
        self.session_yes: set[str] = set()
        self.session_no: set[str] = set()
        self._lock = threading.Lock()
        self._asking = threading.Lock()  # one question at a time

    def known(self, host: str) -> Decision | None:
        if any(matches(host, d) for d in self.allowed):
            return Decision(True, "in [sandbox] allow_domains")
        if host in self.session_yes:
            return Decision(True, "allowed earlier in this session", True)
        if self.store.allows(self.project(), host):
            return Decision(True, "allowed always in this project", True)
        if host in self.session_no:
            return Decision(False, "refused earlier in this session", True)
        return None

    def check(self, host: str) -> Decision:
        host = normalise(host)
        with self._lock:
            known = self.known(host)
        if known is not None:
            return known
        with self._asking:  # a second connection to the same name waits for the answer
            with self._lock:
                known = self.known(host)
            if known is not None:
                return known
            ask = self.ask
            if ask is None:
                return Decision(False, "not in [sandbox] allow_domains, and nobody could be "
                                "asked")
            try:
                answer = ask(host)
            except Exception:  # a question that fails is a refusal, never a crash
                answer = "no"
            with self._lock:
                if answer == "no":
                    self.session_no.add(host)
                    return Decision(False, "not in [sandbox] allow_domains, and not approved", True)
                self.session_yes.add(host)
            if answer == "project":
                saved = self.store.add(self.project(), host)
                return Decision(True, "allowed always in this project" if saved else
                                "allowed for this session (could not be saved)", True)
            return Decision(True, "allowed for this session", True)


def asker(confirm: ConfirmHook, loop: asyncio.AbstractEventLoop,
          running: Callable[[], list[str]]) -> Asker:
    """An ``Asker`` that puts the question through the agent's confirmation hook (which runs on
    ``loop``; the proxy asks from its own thread), naming the command when only one runs."""
    def ask(host: str) -> Answer:
        from swebash.api import ConfirmAnswer, ConfirmRequest, Verdict

        commands = running()
        request = ConfirmRequest(
            tool="execute_command", description=f"network access to {host}",
            verdict=Verdict("ask", reasons=(f"{host} is not in [sandbox] allow_domains",)),
            command=commands[0] if len(commands) == 1 else None, kind="network", domain=host)

        async def question() -> ConfirmAnswer:
            return await confirm(request)

        answer = asyncio.run_coroutine_threadsafe(question(), loop).result(QUESTION_TIMEOUT)
        if answer in (ConfirmAnswer.PROJECT, ConfirmAnswer.FOREVER, ConfirmAnswer.ALWAYS):
            return "project"
        return "yes" if answer is ConfirmAnswer.YES else "no"

    return ask
