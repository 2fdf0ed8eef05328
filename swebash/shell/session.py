"""ShellSession: one persistent ``bash -i`` on a pty for the whole swebash session.

Design note. The problem: plain lines must run in one bash whose state (cwd, variables,
aliases, functions, options, jobs) persists, with a real terminal for each command, while
swebash keeps its own line editor and prompt and learns each command's status, cwd and output.
What does not work: a new ``bash -c`` per line loses all state; feeding lines to a bash on
pipes gives programs no terminal (vim, less, sudo, Ctrl-C, Ctrl-Z all break); parsing bash's
prompt out of the output is fooled by any program that prints something prompt-like; sending
the line itself through the pty hits the tty's 4 KB line limit and makes bash echo it.
The chosen approach: ``bash --noediting -i`` on a pty with empty prompts; each line is written
to a private file and bash is sent one short control line; bash answers with markers carrying
a per-session nonce (see ``bashinit.py`` and ``markers.py``): started, status + cwd, ready.
The pty's echo of the control line is known byte for byte and removed; everything else is the
command's own output, pumped to the real terminal in raw mode (``pty.py``) and teed into a
bounded tail for the context. After the status marker bash waits on a fifo while swebash takes
back any keys the user typed ahead that the command did not read, so they reach swebash's next
prompt instead of being run by bash unseen. Between commands the line editor calls
``read_idle`` whenever the pty is readable, so background jobs never block on a full pty and
their output shows at once. Completion, the environment and the history are hidden helpers
whose output comes through a fifo; nothing but the typed line (0600, unlinked once bash has
read it) ever touches the disk.

Bash is forked in ``start()`` and boots while Python goes on importing; ``wait_ready()`` waits
for its first prompt, showing what the rc file prints. If bash dies, ``run()`` raises
``ShellDied`` with its status. All pty I/O happens under one lock: the completer runs in a
thread while the line editor drains the pty.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import re
import select
import shutil
import signal
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from swebash import lifecycle
from swebash.errors import ShellDied
from swebash.shell import bashinit
from swebash.shell.context import CommandContext, OutputTail
from swebash.shell.freshline import LineEnd, fresh_line
from swebash.shell.helpers import HelperCalls
from swebash.shell.markers import (
    STARTED_ADDED,
    STARTED_ADDED_NO_FILE,
    EchoFilter,
    Marker,
    MarkerParser,
    expected_echo,
)
from swebash.shell.pty import (
    copy_winsize,
    echo_is_on,
    forward_winch,
    get_winsize,
    raw_terminal,
    signal_keys,
    spawn,
    take_pending_input,
    write_all,
)
from swebash.shell.startup import Startup, rcfile_only

if TYPE_CHECKING:  # (swebash.api costs ~25 ms to import: not before the first prompt)
    from swebash.api import CommandRecord

POLL = 0.2  # seconds between liveness checks while waiting for output
# escape sequences (arrow keys…) and control bytes other than tab and newline
TYPEAHEAD_JUNK = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?|[\x00-\x08\x0b-\x1f\x7f]")
SLOW_RC = 0.3  # after this long, keys typed during the rc file are read (Ctrl-C interrupts it)


def is_login_shell(program: str) -> bool:
    """Is ``program`` a shell this system lists in /etc/shells?"""
    try:
        listed = Path("/etc/shells").read_text(errors="replace").split()
    except OSError:
        listed = []
    return any(os.path.basename(entry) == program for entry in listed if entry.startswith("/"))


class _Wait:
    """What one pump is waiting for, and what it has learnt so far."""

    def __init__(self, seq: int, *, forward: bool, handover: bool,
                 echo: EchoFilter | None, sink: Callable[[bytes], None]) -> None:
        self.seq = seq
        self.forward = forward
        self.handover = handover
        self.echo = echo
        self.sink = sink
        self.status: int | None = None
        self.stdin_open = False
        self.added = False
        self.persist = True
        self.histsize = ""
        # bash reads this line with readline (a Ctrl-C cut the last one short: bashstate.py);
        # its echo is dropped up to the start marker (a helper's: up to the ready marker)
        self.swallow = False


class ShellSession(HelperCalls):
    def __init__(self, *, startup: Startup, env: dict[str, str], cwd: str | None) -> None:
        self._startup = startup
        self._env = env
        self.nonce = os.urandom(8).hex()  # what secrets.token_hex does, without its imports
        self.dir = ""
        self.pid = self.master = self.slave = self.ack_fd = self.hidden_fd = -1
        self._typeahead = b""
        self._cwd = cwd or os.getcwd()
        self._status = 0
        self._next_status: int | None = None
        self.lock = threading.RLock()
        self.context = CommandContext(lambda: self._cwd, self.exported_env)
        self.stdin_fd = 0
        self.stdout_fd = 1
        self.on_editing_mode: Callable[[str], None] | None = None
        self.editing_mode = "emacs"  # the editor's; bash runs each line with it (bashstate.py)
        self.last_added_to_history = False
        self.history_persists = True  # … for a history file (not after `unset HISTFILE`)
        self.histsize_at_add = ""  # HISTSIZE when bash added it (histsync.py)
        self.replaced: str | None = None  # what `exec` replaced the session's bash with
        self._readline_next = False
        self._echo = True
        self._mode_said = False  # bash said the editing mode changed during the line
        self._cmdline = b""
        self._exec_checked = 0.0
        self._shown_later = bytearray()  # output that arrived during a hidden helper
        self._interrupted = False  # interrupt_helper stopped the running helper
        self.line_end = LineEnd()  # did the output shown last end its line? (freshline.py)
        # keys typed after the first Enter, before the line editor was up, each with how long
        # after the Enter: the command that line runs gets them as if typed while it ran, just
        # as late (a Ctrl-Z typed 0.3 s after Enter stops it, as in bash)
        self.keys_after_enter: list[tuple[float, bytes]] = []
        self._keys_due: list[tuple[float, bytes]] = []
        self._launch(cwd)
        # however swebash ends (a SIGHUP while it is still starting, too): bash hung up, the
        # private dir removed
        atexit.register(self.close)

    def _launch(self, cwd: str | None) -> None:
        self.dir = lifecycle.private_dir("swebash-")  # 0700; names its owner (see lifecycle)
        init = Path(self.dir) / "init.bash"
        fd = os.open(init, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(bashinit.render(self.nonce, self.dir, self._startup.script(),
                                         self._startup.finish()))
        for name in ("ack", "hidden"):
            os.mkfifo(Path(self.dir) / name, 0o600)
        # read-write so that opening never blocks and writes wait in the fifo until read
        self.ack_fd = os.open(Path(self.dir) / "ack", os.O_RDWR | os.O_NONBLOCK)
        self.hidden_fd = os.open(Path(self.dir) / "hidden", os.O_RDWR | os.O_NONBLOCK)
        bash = shutil.which("bash", path=self._env.get("PATH")) or "/bin/bash"
        # bash reads no startup file itself: the init file reads them (startup.py). It comes
        # in as $ENV, which an interactive bash in posix mode reads at start — login shell or
        # not (a login bash reads no --rcfile) — and its first line leaves posix mode. (Not
        # through the first PROMPT_COMMAND: a PROMPT_COMMAND bash imports from its environment
        # leaves PIPESTATUS empty for the whole session, bash 5.2.) $0 is "-bash" and `shopt
        # login_shell` on for a login shell, as for a login bash; "bash" otherwise. History
        # starts off, so bash loads no history file of its own (bashinit gives HISTFILE and
        # HISTSIZE bash's defaults; startup.py turns history on for the startup files).
        argv = ["-bash" if self._startup.login else "bash", "--posix", "--noediting",
                "--noprofile", "--norc", "+o", "history", "-i"]
        env = {**self._env, "ENV": str(init)}
        env.pop(bashinit.SAVED_ENV, None)
        if "ENV" in self._env:  # the user's own $ENV comes back in the init file's first line
            env[bashinit.SAVED_ENV] = self._env["ENV"]
        if "inherit_errexit" in self._env.get("BASHOPTS", "").split(":"):
            env[bashinit.KEEP_INHERIT_ERREXIT] = "1"
        self.pid, self.master, self.slave = spawn(bash, argv, env, cwd)
        self.parser = MarkerParser(self.nonce)
        self.replaced = None
        self._readline_next = False
        self._cmdline = b""
        self._seq = 0
        self._alive = True
        self._ready = False
        self._pending_hidden: int | None = None

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def start(cls, *, rcfile: Path | None = None, startup: Startup | None = None,
              env: Mapping[str, str] | None = None, cwd: str | None = None) -> ShellSession:
        """Fork bash now; it boots while the caller goes on (see ``wait_ready``). ``startup``
        says which startup files it reads (the interactive shell's rule); ``rcfile`` alone
        means that one file and nothing else."""
        environ = dict(os.environ if env is None else env)
        environ.setdefault("TERM", "xterm-256color")
        environ["SWEBASH"] = "1"
        if startup is None:
            startup = rcfile_only(str(rcfile) if rcfile else None)
        return cls(startup=startup, env=environ, cwd=cwd)

    def wait_ready(self) -> None:
        """Wait for bash's first prompt, showing what the rc file prints; however slow the rc
        file is, Ctrl-C interrupts it (as in bash) and the shell still starts."""
        if self._ready:
            return
        with self.lock:
            last = b"\n"

            def show(data: bytes) -> None:
                nonlocal last
                write_all(self.stdout_fd, data)
                self.line_end.feed(data)
                last = data[-1:]

            wait = _Wait(0, forward=False, handover=False, echo=None, sink=show)
            with signal_keys(self.stdin_fd, on=False):  # Ctrl-C goes to the rc file, not to us
                self._pump(wait, None, startup=True)
            if os.isatty(self.stdout_fd):  # a startup file's last line without its newline
                self.fresh_line()
            elif last != b"\n":  # "^C" of an interrupted rc file: the prompt starts a line
                write_all(self.stdout_fd, b"\r\n")
            self._ready = True
            with contextlib.suppress(OSError):  # (to notice an `exec`: _check_exec)
                self._cmdline = Path(f"/proc/{self.pid}/cmdline").read_bytes()
            # The startup files ran inside bash's first PROMPT_COMMAND, after bash had looked
            # at TMOUT for this read: one empty round trip, and bash waits at a prompt that
            # knows everything they set, as a bash that has just started does.
            self._hidden(":", 5.0)

    def restart(self) -> None:
        """A fresh bash (state is lost; the command context is kept)."""
        self.close()
        self._launch(self._cwd if os.path.isdir(self._cwd) else None)
        self.wait_ready()

    def close(self) -> None:
        """End bash as a closing terminal would: SIGHUP, which bash passes on to its jobs."""
        if self._alive and self._poll_exit() is None:
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
        for fd in (self.master, self.slave, self.ack_fd, self.hidden_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.master = self.slave = self.ack_fd = self.hidden_fd = -1
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    # ------------------------------------------------------------------ state

    @property
    def cwd(self) -> str:
        return self._cwd

    @property
    def last_status(self) -> int:
        return self._status

    def set_next_status(self, status: int) -> None:
        """``$?`` for the next command (Ctrl-C at swebash's prompt makes it 130, as in bash)."""
        self._next_status = status
        self._status = status

    @property
    def alive(self) -> bool:
        return self._alive and self._poll_exit() is None

    # ------------------------------------------------------------------ running

    def _write_private(self, name: str, data: bytes) -> Path:
        path = Path(self.dir, name)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            write_all(fd, data)
        finally:
            os.close(fd)
        return path

    def run(self, line: str, *, record: bool = True, history: bool = True) -> CommandRecord:
        """Run ``line`` with the real terminal; raises ShellDied if bash exits. ``history``
        False: not for bash's history (the ``exit`` of a Ctrl-D, which bash never records)."""
        self.wait_ready()
        with self.lock:
            if not self._drain_hidden(5.0):
                write_all(self.master, b"\x03")  # a helper that hangs (a compspec on NFS…)
                self._drain_hidden(5.0)
                self._pending_hidden = None
            self._seq += 1
            seq = self._seq
            self._write_private("cmd", line.encode("utf-8", "surrogateescape"))
            mode = bashinit.run_mode(line, self.editing_mode)
            self._mode_said = False
            wire = bashinit.command_line(seq, self.nonce, mode, self._next_status,
                                         history=history)
            self._next_status = None
            tail = OutputTail()

            def show(data: bytes) -> None:
                tail.add(data)
                write_all(self.stdout_fd, data)
                self.line_end.feed(data)

            started = time.time()
            t0 = time.monotonic()
            copy_winsize(self.stdout_fd, self.master)
            wait = _Wait(seq, forward=True, handover=True, sink=show,
                         echo=EchoFilter(expected_echo(wire.encode())))
            wait.swallow, self._readline_next = self._readline_next, False
            write_all(self.master, wire.encode())
            self.line_end.start_line()  # the editor left the cursor on a line of its own
            try:
                with raw_terminal(self.stdin_fd), forward_winch(self.stdout_fd, self.master):
                    status = self._pump(wait, None)
            finally:  # (also when the line ended bash: `exit` is history too)
                self.last_added_to_history = wait.added
                self.history_persists = wait.persist
                self.histsize_at_add = wait.histsize
            assert status is not None
            if mode != self.editing_mode and not self._mode_said and self.on_editing_mode:
                self.on_editing_mode(mode)  # the line's `set +o vi` (bashinit.run_mode)
            if self._keys_due:  # the command ended before they were due: the next prompt's
                self._typeahead += b"".join(keys for _, keys in self._keys_due)
                self._keys_due = []
            if os.isatty(self.stdout_fd):
                self.fresh_line()
        from swebash.api import CommandRecord  # (loaded with the line editor, not before)

        text, truncated = tail.text()
        result = CommandRecord(command=line, cwd=self._cwd, exit_status=status,
                               started_at=started,
                               duration_ms=(time.monotonic() - t0) * 1000,
                               output_tail=text, truncated=truncated,
                               fullscreen=tail.fullscreen)
        if record:
            self.context.add(result)
        return result

    def _read_master(self) -> bytes:
        try:
            return os.read(self.master, 65536)
        except OSError as exc:
            if exc.errno not in (errno.EIO, errno.EBADF):
                raise
            return b""

    def _pump(self, wait: _Wait, timeout: float | None, *, startup: bool = False) -> int | None:
        """Pump until the ready marker for ``wait.seq``; its status, or None on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        slow_rc = time.monotonic() + SLOW_RC
        while True:
            step = POLL if deadline is None else max(0.0, min(POLL, deadline - time.monotonic()))
            if self._keys_due and wait.stdin_open:
                step = self._deliver_due_keys(step)
            watch_keys = wait.stdin_open or (startup and time.monotonic() > slow_rc
                                             and os.isatty(self.stdin_fd))
            fds = [self.master] + ([self.stdin_fd] if watch_keys else [])
            try:
                readable, _, _ = select.select(fds, [], [], step)
            except InterruptedError:
                continue
            except (OSError, ValueError):
                readable = []
            data = b""
            self._check_exec(self.master in readable)
            if self.master in readable:
                data = self._read_master()
                if data and self._feed(wait, data):
                    return wait.status
            if watch_keys and self.stdin_fd in readable:
                self._keys(wait, startup)
            if self.master not in readable or not data:
                exited = self._poll_exit()
                if exited is not None:
                    self._flush_remaining(wait.sink)
                    raise ShellDied(f"bash exited with status {exited}", exited)
            if deadline is not None and time.monotonic() >= deadline:
                return None

    def _check_exec(self, output: bool) -> None:
        """``exec`` replaced the session's bash (its command line changed): when the new
        program is a shell, say once — before its first output — that the terminal is now its
        own. swebash goes on passing keys and output, and ends with it (as a terminal whose
        shell ran ``exec zsh``)."""
        now = time.monotonic()
        if self.replaced is not None or not self._cmdline or (
                not output and now - self._exec_checked < POLL):
            return
        self._exec_checked = now
        try:
            cmdline = Path(f"/proc/{self.pid}/cmdline").read_bytes()
        except OSError:
            return
        if not cmdline or cmdline == self._cmdline:
            return
        program = os.path.basename(os.fsdecode(cmdline.split(b"\0")[0])).lstrip("-")
        self.replaced = program
        if is_login_shell(program):
            write_all(self.stdout_fd, f"\r\nswebash: exec handed this terminal to {program}; "
                                      f"swebash ends when it does\r\n".encode())

    def _deliver_due_keys(self, step: float) -> float:
        """Write the early keys whose time has come; the wait until the next one is due."""
        now = time.monotonic()
        while self._keys_due and self._keys_due[0][0] <= now:
            write_all(self.master, self._keys_due.pop(0)[1])
        return min(step, self._keys_due[0][0] - now) if self._keys_due else step

    def _keys(self, wait: _Wait, startup: bool) -> None:
        try:
            typed = os.read(self.stdin_fd, 4096)
        except OSError:
            typed = b""
        if not typed:
            wait.stdin_open = False
        elif startup:  # a slow rc file: Ctrl-C interrupts it, other keys wait for the prompt
            if b"\x03" in typed:
                write_all(self.master, b"\x03")
                typed = typed.replace(b"\x03", b"")
            self._typeahead += typed
        else:
            write_all(self.master, typed)

    def _feed(self, wait: _Wait, data: bytes) -> bool:
        """Handle pty output; True once the wait is over."""
        done = False
        for item in self.parser.feed_items(data):
            if isinstance(item, Marker):
                done = done or self._marker(wait, item)  # in order, up to the end
                continue
            if wait.swallow:
                continue
            if wait.echo is not None:
                item = wait.echo.feed(item)
            if item:
                wait.sink(item)
        return done

    def _marker(self, wait: _Wait, marker: Marker) -> bool:
        if marker.started:
            if marker.seq == wait.seq:
                wait.stdin_open = wait.forward
                wait.added = marker.status in (STARTED_ADDED, STARTED_ADDED_NO_FILE)
                wait.persist = marker.status != STARTED_ADDED_NO_FILE
                wait.histsize = marker.cwd
                wait.swallow = False
                if wait.forward and self.keys_after_enter:  # typed before the editor was up
                    now = time.monotonic()
                    self._keys_due = [(now + after, keys) for after, keys in self.keys_after_enter]
                    self.keys_after_enter = []
                with contextlib.suppress(OSError):  # bash has read the typed line
                    Path(self.dir, "cmd").unlink()
                if wait.echo is not None:
                    rest = wait.echo.finish()
                    if rest:
                        wait.sink(rest)
            return False
        if marker.editing_mode:
            self._mode_said = True
            if self.on_editing_mode is not None:
                self.on_editing_mode(marker.cwd)
            return False
        if marker.ready:
            if marker.seq != wait.seq:
                return False
            self._readline_next = marker.cwd == "rl"
            if wait.status is None:  # no status marker: PROMPT_COMMAND is not ours
                wait.status = 130 if wait.handover else self._status
            return True
        if marker.cwd:
            self._cwd = marker.cwd
        self._status = marker.status
        if marker.seq == wait.seq or (wait.handover and marker.seq < wait.seq):
            # an older line's marker: bash never ran ours (a Ctrl-C made the tty discard it)
            wait.seq = marker.seq
            wait.status = marker.status
            wait.stdin_open = False
            if wait.handover:
                self._take_back_typeahead(marker.seq)
        return False

    def _take_back_typeahead(self, seq: int) -> None:
        """Keys the user typed while the command ran, which it did not read, belong to
        swebash's next prompt (as at a bash prompt), not to bash's command reader."""
        self._typeahead += take_pending_input(self.slave)
        with contextlib.suppress(OSError):
            os.write(self.ack_fd, f"{seq}\n".encode())

    def terminal_echo(self) -> bool:
        """Is the terminal's echo on for the next prompt (off after ``stty -echo``)? While
        bash's readline holds the pty (a line Ctrl-C cut short leaves it reading the next one)
        the pty's echo is readline's own, always off: the user's setting seen last stands."""
        if not self._readline_next:
            self._echo = echo_is_on(self.slave)
        return self._echo

    def take_typeahead(self) -> str:
        """Text typed during the last commands that they did not read, for the next prompt
        (control keys and escape sequences removed; complete lines end in ``\n``)."""
        raw, self._typeahead = self._typeahead, b""
        raw = raw.replace(b"\r", b"\n")
        return TYPEAHEAD_JUNK.sub(b"", raw).decode("utf-8", "replace")

    def _flush_remaining(self, sink: Callable[[bytes], None]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while select.select([self.master], [], [], 0.05)[0]:
                data = os.read(self.master, 65536)
                if not data:
                    break
                out, _ = self.parser.feed(data)
                if out:
                    sink(out)

    def _poll_exit(self) -> int | None:
        if not self._alive:
            return self._status
        try:
            pid, raw = os.waitpid(self.pid, os.WNOHANG | os.WUNTRACED)
        except ChildProcessError:
            pid, raw = self.pid, 0
        if pid == 0:
            return None
        if os.WIFSTOPPED(raw):  # `kill -STOP $$`: a terminal's bash would be continued too
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGCONT)
            return None
        self._alive = False
        if os.WIFSIGNALED(raw):
            self._status = 128 + os.WTERMSIG(raw)
        else:
            self._status = os.WEXITSTATUS(raw)
        return self._status

    # ------------------------------------------------------------------ between commands

    def read_idle(self, budget: float = 0.0, limit: int = 1 << 20) -> bytes | None:
        """Output of background jobs while no command runs (never blocks longer than
        ``budget``); None while a helper holds the pty (what it reads for us comes back next
        time); raises ShellDied if bash has exited (TMOUT, a killed bash)."""
        if not self.lock.acquire(blocking=False):
            return None
        try:
            out = bytearray(self._shown_later)
            self._shown_later.clear()
            if self._pending_hidden is not None:
                self._drain_hidden(0.0)
            wait = _Wait(-1, forward=False, handover=False, echo=None, sink=out.extend)
            deadline = time.monotonic() + budget
            while self.master >= 0:
                left = max(0.0, deadline - time.monotonic())
                try:
                    readable = select.select([self.master], [], [], left)[0]
                except (OSError, ValueError):
                    break
                if not readable:
                    break
                data = self._read_master()
                if not data:
                    break
                self._feed(wait, data)
                if len(out) >= limit:
                    break
            if self._poll_exit() is not None:
                self._flush_remaining(out.extend)
                self._shown_later += out
                raise ShellDied(f"bash exited with status {self._status}", self._status)
            return bytes(out)
        finally:
            self.lock.release()

    def fresh_line(self) -> None:
        """Before a prompt: when the output shown last did not end its line, move to a fresh
        one without losing it (zsh's PROMPT_SP, see freshline.py)."""
        if not self.line_end.at_line_start():
            _, columns = get_winsize(self.stdout_fd)
            write_all(self.stdout_fd, fresh_line(columns, self._env.get("TERM") == "dumb"))
        self.line_end.start_line()

    def take_late_output(self) -> bytes:
        """Output read while nobody was showing it (bash's last words before it exited)."""
        out = bytes(self._shown_later)
        self._shown_later.clear()
        return out

    # ------------------------------------------------------------------ hidden helpers

    def _hidden(self, command: str, timeout: float) -> bytes | None:
        """Run a helper (output through the fifo, $? and history untouched); None on
        timeout. Output of background jobs meanwhile is kept for ``read_idle``."""
        self.wait_ready()
        with self.lock:
            if not self._drain_hidden(timeout):
                return None
            self._read_hidden()  # anything left from an abandoned helper
            self._seq += 1
            seq = self._seq
            wire = f" __sb_hidden {seq} {command}\n".encode()
            write_all(self.master, wire)
            wait = _Wait(seq, forward=False, handover=False, sink=self._shown_later.extend,
                         echo=EchoFilter(expected_echo(wire)))
            wait.swallow, self._readline_next = self._readline_next, False
            collected = bytearray()
            try:
                status = self._pump_hidden(wait, timeout, collected)
            except ShellDied:
                return None
            if status is None:
                self._pending_hidden = seq
                return None
            if self._interrupted:  # bash's newline after the job interrupt_helper stopped
                self._interrupted = False
                if self._shown_later.endswith(b"\r\n"):
                    del self._shown_later[-2:]
            collected += self._read_hidden()
            return bytes(collected)

    def run_on_terminal(self, command: str, payload: bytes = b"", *,
                        keys: bool = True) -> bytes | None:
        """Run a helper that owns the real terminal while it runs, as a command does (a
        ``bind -x`` widget: fzf draws its finder on it; the user's INT trap). ``payload`` is
        the private file ``termin``; the helper's answer comes through the fifo ($? and
        history untouched). ``keys``: typed keys go to the helper, and what it left unread
        is taken back (``take_typeahead``) before bash reads another line — the helper ends
        with a status marker and ``__sb_handover``, as a command. None if a stuck helper
        keeps bash busy."""
        self.wait_ready()
        with self.lock:
            if not self._drain_hidden(5.0):
                return None
            self._read_hidden()
            self._write_private("termin", payload)
            self._seq += 1
            wire = f" __sb_hidden {self._seq} {command}\n".encode()
            wait = _Wait(self._seq, forward=keys, handover=keys, echo=EchoFilter(
                expected_echo(wire)), sink=lambda data: write_all(self.stdout_fd, data))
            wait.stdin_open = keys  # keys typed now are the helper's (fzf's query)
            wait.swallow, self._readline_next = self._readline_next, False
            copy_winsize(self.stdout_fd, self.master)
            write_all(self.master, wire)
            with raw_terminal(self.stdin_fd), forward_winch(self.stdout_fd, self.master):
                self._pump(wait, None)
            return self._read_hidden()

    def interrupt_helper(self) -> None:
        """Interrupt a slow helper (a completion function) from another thread, as a Ctrl-C
        typed on the pty would, without the tty echoing ``^C``."""
        self._interrupted = True
        with contextlib.suppress(OSError):
            os.killpg(os.tcgetpgrp(self.master), signal.SIGINT)

    def _pump_hidden(self, wait: _Wait, timeout: float, collected: bytearray) -> int | None:
        deadline = time.monotonic() + timeout
        while True:
            left = max(0.0, deadline - time.monotonic())
            try:
                readable = select.select([self.master, self.hidden_fd], [], [], left)[0]
            except InterruptedError:
                continue
            if self.hidden_fd in readable:
                collected += self._read_hidden()
            if self.master in readable:
                data = self._read_master()
                if data and self._feed(wait, data):
                    return wait.status
                if not data and self._poll_exit() is not None:
                    raise ShellDied(f"bash exited with status {self._status}", self._status)
            if not readable:
                return None

    def _read_hidden(self) -> bytes:
        chunks = []
        while True:
            try:
                chunk = os.read(self.hidden_fd, 65536)
            except (BlockingIOError, OSError):
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)

    def _drain_hidden(self, timeout: float | None) -> bool:
        if self._pending_hidden is None:
            return True
        wait = _Wait(self._pending_hidden, forward=False, handover=False, echo=None,
                     sink=self._shown_later.extend)
        if self._pump(wait, timeout) is None:
            return False
        self._read_hidden()
        self._pending_hidden = None
        return True
