"""Non-interactive modes, which behave exactly like bash wherever bash has an answer.

``-c CMD`` and ``FILE`` exec bash itself (same output, errors, ``$0`` and status — nothing of
ours on stdout, so scp/rsync/ssh can use swebash as a login shell); a ``-c`` string that is an
AI line (`? …`, `?? …`) is answered instead, with piped stdin as context, and an `ai …` line
runs the builtin (plain text). Piped input streams
into ``bash -s`` line by line; at an AI line at top level (not inside a here-doc, a quote or a
compound command) we wait until bash has run everything before it — a sync command writes a
nonce to a private pipe — answer the line, set ``$?`` to the answer's status, and go on. The
AI lines of one input share one ``PlainAiHost``: one conversation, one set of MCP servers.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import subprocess
import sys
from typing import TYPE_CHECKING

from swebash.router import Ask, Builtin, Translate, route

if TYPE_CHECKING:
    from swebash.batch_ai import PlainAiHost

STDIN_CONTEXT_LIMIT = 64 * 1024
AI_CANDIDATE = re.compile(rb"(^|\n)[ \t]*(\?|ai(\s|$))")  # `?`, `??` or an `ai` builtin


def bash_path() -> str:
    import shutil

    return shutil.which("bash") or "/bin/bash"


def exec_bash(args: list[str], closed_fds: tuple[int, ...] = ()) -> int:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    for fd in closed_fds:  # bash gets the std fds its caller closed closed, as bash -c would
        os.close(fd)
    try:
        os.execv(bash_path(), ["bash", *args])
    except OSError as exc:
        print(f"swebash: cannot run bash: {exc.strerror}", file=sys.stderr)
        return 127


def read_stdin_context() -> str | None:
    if sys.stdin is None or sys.stdin.isatty():
        return None
    try:
        data = sys.stdin.buffer.read(STDIN_CONTEXT_LIMIT + 1)
    except OSError:
        return None
    return data.decode("utf-8", "replace") if data else None


def is_ai_line(line: str) -> bool:
    """`? …`, `?? …` or an `ai …` builtin: answered by swebash, not bash."""
    return isinstance(route(line), Ask | Translate | Builtin)


def answer(host: PlainAiHost, line: str, stdin_text: str | None) -> int:
    # argv and piped lines are decoded with surrogateescape (bash gets its bytes back); a
    # question is text: bytes that are not UTF-8 become U+FFFD here, once, so the request,
    # the stored conversation and the audit log all see the same valid text
    line = line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    if isinstance(route(line), Builtin):
        return host.builtin(line.strip())
    return host.ask(line, stdin_text)


def run_ai(line: str, *, stdin_text: str | None, yes: bool, yes_dangerous: bool,
           continue_last: bool = False) -> int:
    from swebash.batch_ai import PlainAiHost

    with PlainAiHost(yes=yes, yes_dangerous=yes_dangerous, continue_last=continue_last) as host:
        return answer(host, line, stdin_text)


def run_command(command: str, args: list[str], *, bash_options: list[str], yes: bool,
                yes_dangerous: bool, closed_fds: tuple[int, ...] = (),
                continue_last: bool = False) -> int:
    """``bash_options``: the invocation options as bash takes them (``-l``, ``-i``, ``-x``,
    ``--norc``…); bash runs with them, so ``$SHELL -ilc env`` is bash's ``-ilc env``."""
    if is_ai_line(command):
        stdin_text = None if isinstance(route(command), Builtin) else read_stdin_context()
        return run_ai(command, stdin_text=stdin_text, yes=yes, continue_last=continue_last,
                      yes_dangerous=yes_dangerous)
    return exec_bash([*bash_options, "-c", command, *args], closed_fds)


def run_file(path: str, args: list[str], *, bash_options: list[str],
             closed_fds: tuple[int, ...] = ()) -> int:
    return exec_bash([*bash_options, "--", path, *args], closed_fds)


class PipedRunner:
    def __init__(self, *, bash_options: list[str], yes: bool, yes_dangerous: bool,
                 continue_last: bool = False, args: list[str] | None = None) -> None:
        self.yes = yes
        self.yes_dangerous = yes_dangerous
        self.continue_last = continue_last
        self.ai: PlainAiHost | None = None  # one conversation and MCP set for the whole input
        self.nonce = secrets.token_hex(8)
        self.sync_read, self.sync_fd = os.pipe()  # bash keeps the write end, same number
        self.proc = subprocess.Popen(["bash", *bash_options, "-s", *(args or [])],
                                     executable=bash_path(), stdin=subprocess.PIPE,
                                     pass_fds=(self.sync_fd,))
        os.close(self.sync_fd)
        self.pending: list[str] = []  # lines sent since the last sync

    def send(self, data: bytes) -> bool:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return False
        return True

    def at_top_level(self) -> bool:
        from swebash.shell.continuation import needs_more_input

        return not self.pending or not needs_more_input("".join(self.pending))

    def sync(self) -> bool:
        """Wait until bash has executed everything sent so far."""
        if not self.send(f"printf '%s\\n' {self.nonce} >&{self.sync_fd}\n".encode()):
            return False
        got = b""
        while self.nonce.encode() not in got:
            chunk = os.read(self.sync_read, 256)
            if not chunk:
                return False
            got += chunk
        self.pending.clear()
        return True

    def run(self) -> int:
        try:
            self.forward()
        except KeyboardInterrupt:
            self.proc.terminate()
        finally:
            if self.ai is not None:
                self.ai.close()  # MCP server processes end with the input
            if self.proc.stdin is not None:
                try:
                    self.proc.stdin.close()
                except OSError:
                    pass
        status = self.proc.wait()
        os.close(self.sync_read)
        if status < 0:  # bash died of a signal: so do we, as `cmds | bash` would
            sys.stdout.flush()
            signal.signal(-status, signal.SIG_DFL)
            os.kill(os.getpid(), -status)
            return 128 - status
        return status

    def forward(self) -> None:
        """Pass stdin to bash in whole blocks; look at single lines only around a `?`."""
        partial = b""
        while True:
            block = os.read(0, 65536)
            if not block:
                break
            data = partial + block
            cut = data.rfind(b"\n") + 1
            complete, partial = data[:cut], data[cut:]
            if not complete:
                continue
            if not AI_CANDIDATE.search(complete):
                self.pending.append(complete.decode("utf-8", "surrogateescape"))
                if not self.send(complete):
                    return
                continue
            for raw in complete.splitlines(keepends=True):
                if not self.line(raw):
                    return
        if partial and not self.line(partial):
            return

    def line(self, raw: bytes) -> bool:
        text = raw.decode("utf-8", "surrogateescape")
        if is_ai_line(text) and self.at_top_level():
            if not self.sync():
                return False
            if self.ai is None:
                from swebash.batch_ai import PlainAiHost

                self.ai = PlainAiHost(yes=self.yes, yes_dangerous=self.yes_dangerous,
                                      continue_last=self.continue_last)
            status = answer(self.ai, text.strip(), None)
            sys.stdout.flush()
            return self.send(f"(exit {status})\n".encode())
        self.pending.append(text)
        return self.send(raw)


def run_piped(*, bash_options: list[str], yes: bool, yes_dangerous: bool,
              continue_last: bool = False, args: list[str] | None = None) -> int:
    """``-s ARGS``: the lines see ``$1 $2 …`` as with ``bash -s ARGS``."""
    return PipedRunner(bash_options=bash_options, yes=yes, yes_dangerous=yes_dangerous,
                       continue_last=continue_last, args=args or []).run()
