"""Terminal plumbing for the shell session: raw mode, window size, the byte pump.

Design note. While a command runs it must own a real terminal: vim, less and top draw on it,
``sudo`` turns echo off on it, and Ctrl-C must reach the command as SIGINT and never swebash.
Running commands with pipes breaks all of that, and forwarding signals by hand races. So the
session's bash lives on a pty; while a command runs we put the user's real tty in raw mode,
copy its window size to the pty (again on every SIGWINCH), and pump bytes both ways. Ctrl-C is
then just byte 0x03, which the pty's line discipline turns into SIGINT for bash's foreground
job. The real tty's settings are restored in ``finally`` whatever happens. ``spawn`` makes
the pty's slave bash's controlling terminal (so job control and Ctrl-Z work inside it), and
``take_pending_input`` recovers keys typed ahead that the command left unread.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import struct
import termios
import tty
from collections.abc import Iterator, Mapping
from types import FrameType


def get_winsize(fd: int) -> tuple[int, int]:
    try:
        rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    except OSError:
        return 24, 80
    return (rows or 24), (cols or 80)


def set_winsize(fd: int, rows: int, cols: int) -> None:
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def copy_winsize(src: int, dst: int) -> None:
    if os.isatty(src):
        set_winsize(dst, *get_winsize(src))


def echo_is_on(fd: int) -> bool:
    try:
        return bool(termios.tcgetattr(fd)[3] & termios.ECHO)
    except (termios.error, OSError):
        return True


@contextlib.contextmanager
def raw_terminal(fd: int) -> Iterator[None]:
    """Raw mode on ``fd`` if it is a tty; the previous settings come back in any case."""
    if not os.isatty(fd):
        yield
        return
    saved = termios.tcgetattr(fd)
    try:
        tty.setraw(fd, termios.TCSANOW)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)


@contextlib.contextmanager
def signal_keys(fd: int, on: bool) -> Iterator[None]:
    """Turn the terminal's ISIG on or off for a while (Ctrl-C a signal, or just a byte).

    Restores what was there; a descriptor that is no terminal is left alone."""
    try:
        saved = termios.tcgetattr(fd)
        wanted = list(saved)
        if on:
            wanted[3] |= termios.ISIG
        else:
            wanted[3] &= ~termios.ISIG
        if wanted != saved:
            termios.tcsetattr(fd, termios.TCSANOW, wanted)
    except (termios.error, OSError):
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(termios.error, OSError):
            termios.tcsetattr(fd, termios.TCSANOW, saved)


@contextlib.contextmanager
def forward_winch(src: int, dst: int) -> Iterator[None]:
    """While active, every SIGWINCH copies ``src``'s window size to the pty ``dst``."""
    if not os.isatty(src):
        yield
        return

    def on_winch(signum: int, frame: FrameType | None) -> None:
        copy_winsize(src, dst)

    try:
        previous = signal.signal(signal.SIGWINCH, on_winch)
    except ValueError:  # not the main thread: no signal handling, just copy once
        copy_winsize(src, dst)
        yield
        return
    copy_winsize(src, dst)
    try:
        yield
    finally:
        signal.signal(signal.SIGWINCH, previous)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            import select

            select.select([], [fd], [], 1.0)
            continue
        except InterruptedError:
            continue
        view = view[written:]


def take_pending_input(fd: int) -> bytes:
    """Everything waiting in the input queue of the tty ``fd``, a half-typed line included.

    In canonical mode a partial line is not readable; switching ICANON off (with VMIN=0,
    VTIME=0) makes the kernel hand over whatever is queued, and reads no longer block. The
    settings are put back exactly, with TCSANOW so nothing is flushed.
    """
    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        return b""
    quick = list(saved)
    quick[3] &= ~termios.ICANON
    cc = list(saved[6])
    cc[termios.VMIN], cc[termios.VTIME] = 0, 0
    quick[6] = cc
    chunks: list[bytes] = []
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    try:
        termios.tcsetattr(fd, termios.TCSANOW, quick)
        # (non-blocking too: a read with VMIN=0 was seen to block right after a helper)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        while True:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            chunks.append(chunk)
    except (OSError, termios.error):
        pass
    finally:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, fcntl.F_SETFL, flags)
        with contextlib.suppress(OSError, termios.error):
            termios.tcsetattr(fd, termios.TCSANOW, saved)
    return b"".join(chunks)


def spawn(path: str, argv: list[str], env: Mapping[str, str], cwd: str | None
          ) -> tuple[int, int, int]:
    """Fork ``path`` (bash) with the pty's slave as its controlling terminal."""
    master, slave = os.openpty()
    rows, cols = 24, 80
    if os.isatty(1):
        rows, cols = get_winsize(1)
    set_winsize(master, rows, cols)
    pid = os.fork()
    if pid == 0:  # child: only async-signal-safe work until exec
        try:
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            if slave > 2:
                os.close(slave)
            os.close(master)
            if cwd:
                os.chdir(cwd)
            for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP, signal.SIGPIPE,
                        signal.SIGWINCH, signal.SIGCHLD):
                signal.signal(sig, signal.SIG_DFL)
            os.execve(path, argv, dict(env))
        finally:
            os._exit(127)
    flags = fcntl.fcntl(master, fcntl.F_GETFD)
    fcntl.fcntl(master, fcntl.F_SETFD, flags | fcntl.FD_CLOEXEC)
    fcntl.fcntl(slave, fcntl.F_SETFD, fcntl.fcntl(slave, fcntl.F_GETFD) | fcntl.FD_CLOEXEC)
    return pid, master, slave
