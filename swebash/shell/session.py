"""ShellSession: one persistent ``bash -i`` on a pty for the whole swebash session.

Design note. The problem: plain lines must run in one bash whose state (cwd, variables,
aliases, functions, options, jobs) persists, with a real terminal for each command, while
swebash keeps its own line editor and prompt and learns each command's status, cwd and output.
What does not work: a new ``bash -c`` per line loses all state; feeding lines to a bash on
pipes gives programs no terminal (vim, less, sudo, Ctrl-C, Ctrl-Z all break); parsing bash's
prompt out of the output is fooled by any program that prints something prompt-like; sending
the line itself through the pty hits the tty's 4 KB line limit and makes bash echo it.
The chosen approach: ``bash --noediting -i`` on a pty with empty prompts; each line is written
to a private file and bash is sent one short control line whose end prints a marker carrying a
per-session nonce (see ``bashinit.py`` and ``markers.py``). The pty's echo of that control line
is expected byte for byte and removed; everything else is the command's own output, pumped to
the real terminal in raw mode (``pty.py``) and teed into a bounded tail for the context. After
the marker bash waits on a fifo while swebash takes back any keys the user typed ahead that the
command did not read, so they reach swebash's next prompt instead of being run by bash unseen.
Completion and the environment dump run as hidden helpers whose output goes to a file.

Bash is forked in ``start()`` and boots while Python goes on importing; ``wait_ready()`` waits
for its first marker. If bash dies, ``run()`` raises ``ShellDied`` with its status.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import select
import shutil
import signal
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from swebash.api import CommandRecord
from swebash.errors import ShellDied, ShellError
from swebash.shell import bashinit
from swebash.shell.context import CommandContext, OutputTail
from swebash.shell.markers import EchoFilter, MarkerParser, expected_echo
from swebash.shell.pty import (
    copy_winsize,
    forward_winch,
    raw_terminal,
    spawn,
    take_pending_input,
    write_all,
)
from swebash.shell.userprompt import PromptState, read_prompt_state

POLL = 0.2  # seconds between liveness checks while waiting for output
# escape sequences (arrow keys…) and control bytes other than tab and newline
TYPEAHEAD_JUNK = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?|[\x00-\x08\x0b-\x1f\x7f]")


class ShellSession:
    def __init__(self, *, rcfile: str | None, login: bool, env: dict[str, str],
                 cwd: str | None) -> None:
        self._rcfile = rcfile
        self._login = login
        self._env = env
        self.nonce = secrets.token_hex(8)
        self.dir = ""
        self.pid = self.master = self.slave = self.ack_fd = -1
        self._typeahead = b""
        self._cwd = cwd or os.getcwd()
        self._status = 0
        self.context = CommandContext(lambda: self._cwd, self.exported_env)
        self.stdin_fd = 0
        self.stdout_fd = 1
        self._launch(cwd)

    def _launch(self, cwd: str | None) -> None:
        self.dir = tempfile.mkdtemp(prefix="swebash-")
        init = Path(self.dir) / "init.bash"
        init.write_text(bashinit.render(self.nonce, self.dir, self._rcfile, self._login))
        os.mkfifo(Path(self.dir) / "ack", 0o600)
        # read-write so that opening never blocks and acks wait in the fifo until bash reads
        self.ack_fd = os.open(Path(self.dir) / "ack", os.O_RDWR | os.O_NONBLOCK)
        bash = shutil.which("bash", path=self._env.get("PATH")) or "/bin/bash"
        argv = [bash, "--noediting", "--noprofile", "--rcfile", str(init), "-i"]
        self.pid, self.master, self.slave = spawn(argv, self._env, cwd)
        self.parser = MarkerParser(self.nonce)
        self._seq = 0
        self._alive = True
        self._ready = False
        self._pending_hidden: int | None = None

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def start(cls, *, rcfile: Path | None, login: bool = False,
              env: Mapping[str, str] | None = None, cwd: str | None = None) -> ShellSession:
        """Fork bash now; it boots while the caller goes on (see ``wait_ready``)."""
        environ = dict(os.environ if env is None else env)
        environ.setdefault("TERM", "xterm-256color")
        environ["SWEBASH"] = "1"
        return cls(rcfile=str(rcfile) if rcfile else None, login=login, env=environ, cwd=cwd)

    def wait_ready(self, timeout: float = 5.0) -> None:
        if self._ready:
            return
        if self._wait_marker(0, timeout, forward=False, show=False) is None:
            raise ShellError(f"bash did not start within {timeout:.0f} s (check ~/.swebashrc)")
        self._ready = True

    def restart(self) -> None:
        """A fresh bash (state is lost; the command context is kept)."""
        self.close()
        self._launch(self._cwd if os.path.isdir(self._cwd) else None)
        self.wait_ready()

    def close(self) -> None:
        if self._alive:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGHUP)
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline and self._poll_exit() is None:
                time.sleep(0.01)
            if self._alive:
                with contextlib.suppress(OSError):
                    os.kill(self.pid, signal.SIGKILL)
                    os.waitpid(self.pid, 0)
                self._alive = False
        for fd in (self.master, self.slave, self.ack_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self.dir, ignore_errors=True)

    # ------------------------------------------------------------------ state

    @property
    def cwd(self) -> str:
        return self._cwd

    @property
    def last_status(self) -> int:
        return self._status

    @property
    def alive(self) -> bool:
        return self._alive and self._poll_exit() is None

    # ------------------------------------------------------------------ running

    def run(self, line: str, *, record: bool = True) -> CommandRecord:
        """Run ``line`` with the real terminal; raises ShellDied if bash exits."""
        self.wait_ready()
        self._drain_hidden()
        self._seq += 1
        seq = self._seq
        Path(self.dir, "cmd").write_bytes(line.encode("utf-8", "surrogateescape"))
        wire = f'__sb_pre {seq};eval "$__sb_cmd";__sb_post\n'.encode()
        tail = OutputTail()
        started = time.time()
        t0 = time.monotonic()
        copy_winsize(self.stdout_fd, self.master)
        write_all(self.master, wire)
        with raw_terminal(self.stdin_fd), forward_winch(self.stdout_fd, self.master):
            status = self._wait_marker(seq, None, forward=True, show=True, tail=tail,
                                       echo=EchoFilter(expected_echo(wire)), handover=True)
        assert status is not None
        text, truncated = tail.text()
        result = CommandRecord(command=line, cwd=self._cwd, exit_status=status,
                               started_at=started,
                               duration_ms=(time.monotonic() - t0) * 1000,
                               output_tail=text, truncated=truncated,
                               fullscreen=tail.fullscreen)
        if record:
            self.context.add(result)
        return result

    def _wait_marker(self, seq: int, timeout: float | None, *, forward: bool, show: bool,
                     tail: OutputTail | None = None, echo: EchoFilter | None = None,
                     handover: bool = False) -> int | None:
        """Pump until the marker for ``seq``; returns its status, or None on timeout.

        With ``handover`` (a user command), bash waits after the marker until we have taken
        back the keys typed ahead that the command did not read (see ``take_typeahead``).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        # keys go to the pty only once bash has read our line (the start marker): a Ctrl-C
        # before that would make the tty discard the line along with the key
        stdin_open = False
        while True:
            wait = POLL if deadline is None else max(0.0, min(POLL, deadline - time.monotonic()))
            fds = [self.master] + ([self.stdin_fd] if stdin_open else [])
            try:
                readable, _, _ = select.select(fds, [], [], wait)
            except InterruptedError:
                continue
            if self.master in readable:
                try:
                    data = os.read(self.master, 65536)
                except OSError as exc:
                    if exc.errno != errno.EIO:
                        raise
                    data = b""
                if data:
                    if echo is not None:
                        data = echo.feed(data)
                    out, markers = self.parser.feed(data)
                    if out:
                        if tail is not None:
                            tail.add(out)
                        if show:
                            write_all(self.stdout_fd, out)
                    for marker in markers:
                        if marker.started:
                            stdin_open = forward and marker.seq == seq
                            continue
                        self._cwd, self._status = marker.cwd, marker.status
                        if marker.seq == seq:
                            if handover:
                                self._take_back_typeahead(seq)
                            return marker.status
                        if handover and marker.seq < seq:
                            # an older line's marker: bash never ran ours (a Ctrl-C made the
                            # tty discard it); the start marker makes this rare, not impossible
                            self._take_back_typeahead(marker.seq)
                            return marker.status
                    continue
            if stdin_open and self.stdin_fd in readable:
                try:
                    typed = os.read(self.stdin_fd, 4096)
                except OSError:
                    typed = b""
                if typed:
                    write_all(self.master, typed)
                else:
                    stdin_open = False
            if not readable or self.master not in readable:
                exited = self._poll_exit()
                if exited is not None:
                    self._flush_remaining(show)
                    raise ShellDied(f"bash exited with status {exited}", exited)
            if deadline is not None and time.monotonic() >= deadline:
                return None

    def _take_back_typeahead(self, seq: int) -> None:
        """Keys the user typed while the command ran, which it did not read, belong to
        swebash's next prompt (as at a bash prompt), not to bash's command reader."""
        self._typeahead += take_pending_input(self.slave)
        with contextlib.suppress(OSError):
            os.write(self.ack_fd, f"{seq}\n".encode())

    def take_typeahead(self) -> str:
        """Text typed during the last commands that they did not read, for the next prompt
        (control keys and escape sequences removed; complete lines end in ``\n``)."""
        raw, self._typeahead = self._typeahead, b""
        return TYPEAHEAD_JUNK.sub(b"", raw).decode("utf-8", "replace")

    def _flush_remaining(self, show: bool) -> None:
        with contextlib.suppress(OSError):
            while select.select([self.master], [], [], 0.05)[0]:
                data = os.read(self.master, 65536)
                if not data:
                    break
                out, _ = self.parser.feed(data)
                if show and out:
                    write_all(self.stdout_fd, out)

    def _poll_exit(self) -> int | None:
        if not self._alive:
            return self._status
        try:
            pid, raw = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            pid, raw = self.pid, 0
        if pid == 0:
            return None
        self._alive = False
        if os.WIFSIGNALED(raw):
            self._status = 128 + os.WTERMSIG(raw)
        else:
            self._status = os.WEXITSTATUS(raw)
        return self._status

    # ------------------------------------------------------------------ hidden helpers

    def _hidden(self, command: str, timeout: float) -> bytes | None:
        """Run a helper (output to a file, $? and history untouched); None on timeout."""
        self.wait_ready()
        if not self._drain_hidden(timeout):
            return None
        self._seq += 1
        seq = self._seq
        out = Path(self.dir, "hidden")
        with contextlib.suppress(FileNotFoundError):
            out.unlink()
        wire = f" __sb_hidden {seq} {command}\n".encode()
        write_all(self.master, wire)
        echo = EchoFilter(expected_echo(wire))
        try:
            status = self._wait_marker(seq, timeout, forward=False, show=False, echo=echo)
        except ShellDied:
            return None
        if status is None:
            self._pending_hidden = seq
            return None
        try:
            return out.read_bytes()
        except OSError:
            return b""

    def _drain_hidden(self, timeout: float = 5.0) -> bool:
        if self._pending_hidden is None:
            return True
        status = self._wait_marker(self._pending_hidden, timeout, forward=False, show=False)
        if status is None:
            return False
        self._pending_hidden = None
        return True

    def prompt_state(self) -> PromptState:
        """The user's expanded PS1/PS2 and bash's ``$-`` as of the last prompt."""
        return read_prompt_state(Path(self.dir, "prompt"))

    def refresh_prompt(self, timeout: float = 1.0) -> None:
        """Run the user's PROMPT_COMMAND and expand PS1 again without a command (an empty
        line at the prompt makes bash do that too)."""
        if self.alive:
            self._hidden("__sb_state", timeout)

    def needs_more_input(self, text: str) -> bool:
        from swebash.shell.continuation import needs_more_input

        return needs_more_input(text)

    def exported_env(self) -> dict[str, str]:
        data = self._hidden("__sb_env", 2.0) if self.alive else None
        if not data:
            return dict(self._env)
        env: dict[str, str] = {}
        for entry in data.split(b"\0"):
            key, sep, value = entry.partition(b"=")
            if sep and key:
                env[key.decode("utf-8", "replace")] = value.decode("utf-8", "replace")
        return env

    def complete(self, text_before_cursor: str, timeout: float = 0.1) -> list[str]:
        if not self.alive:
            return []
        Path(self.dir, "cline").write_bytes(text_before_cursor.encode("utf-8",
                                                                      "surrogateescape"))
        data = self._hidden("__sb_complete", timeout)
        if not data:
            return []
        seen: dict[str, None] = {}
        for line in data.decode("utf-8", "replace").splitlines():
            if line:
                seen.setdefault(line, None)
        return list(seen)
