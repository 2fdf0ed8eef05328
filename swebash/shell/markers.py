"""Per-command markers in the pty output stream: pure parsing, no I/O.

After every command the session's bash prints an OSC sequence carrying a per-session nonce,
the command's sequence number, its exit status and the new cwd:

    ESC ] 6973 ; <nonce> ; <seq> ; <status> ; <byte length of cwd> ; <cwd> BEL

The nonce makes the marker unforgeable by ordinary output (a program printing something that
looks like a marker without the nonce is passed through untouched); the explicit length lets
the cwd hold any byte, even ``;`` or BEL. Markers can arrive split across reads, so the parser
keeps a small tail of undecided bytes between feeds. Before running a user's line bash prints a
start marker (status -1, or -3/-4 when the line went into bash's history, for a history file
or not; its last field is HISTSIZE); swebash forwards the user's keys only after it, so a
Ctrl-C can never make the tty discard the line before bash has read it. After the status
marker bash prints its job notices and then PS1, which is the ready marker (status -2; ``rl``
in its last field when bash reads the next line with readline).
``EchoFilter`` removes the pty's echo of the control line swebash sends, which is known byte
for byte in advance.
"""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = b"\x1b]6973;"
TERMINATOR = b"\x07"
# Pseudo-statuses of the other markers (their cwd field then carries something else, or "")
STARTED = -1  # bash has read swebash's line and is about to run it
STARTED_ADDED = -3  # … and added it to its history (HISTCONTROL/HISTIGNORE allowed it)
STARTED_ADDED_NO_FILE = -4  # … added, but HISTFILE is unset: not for a history file
READY = -2  # PS1: bash printed its job notices and now waits for the next line
EDITING_MODE = -5  # `set -o vi|emacs` ran: the field carries the mode for swebash's editor
MAX_FIELD = 1 << 22  # longer is not a marker (a $PWD of 64 KiB and more must still work)


@dataclass(frozen=True)
class Marker:
    seq: int
    status: int  # a command's exit status, or one of the pseudo-statuses above
    cwd: str

    @property
    def started(self) -> bool:
        return self.status in (STARTED, STARTED_ADDED, STARTED_ADDED_NO_FILE)

    @property
    def ready(self) -> bool:
        return self.status == READY

    @property
    def editing_mode(self) -> bool:
        return self.status == EDITING_MODE

    @property
    def finished(self) -> bool:
        return self.status >= 0


def marker_bytes(nonce: str, seq: int, status: int, cwd: str) -> bytes:
    """What bash prints (used by tests and documentation of the format)."""
    raw = cwd.encode("utf-8", "surrogateescape")
    return PREFIX + f"{nonce};{seq};{status};{len(raw)};".encode() + raw + TERMINATOR


class MarkerParser:
    """Feed pty output; get back (output bytes to show, markers found), in stream order."""

    def __init__(self, nonce: str) -> None:
        self.head = PREFIX + nonce.encode() + b";"
        self.pending = b""

    def feed(self, data: bytes) -> tuple[bytes, list[Marker]]:
        out = bytearray()
        markers: list[Marker] = []
        for item in self.feed_items(data):
            if isinstance(item, Marker):
                markers.append(item)
            else:
                out += item
        return bytes(out), markers

    def feed_items(self, data: bytes) -> list[bytes | Marker]:
        """Output and markers in stream order."""
        buf = self.pending + data
        self.pending = b""
        items: list[bytes | Marker] = []
        while buf:
            at = buf.find(self.head)
            if at < 0:
                keep = self._partial_head(buf)
                if len(buf) - keep:
                    items.append(buf[: len(buf) - keep])
                self.pending = buf[len(buf) - keep:]
                break
            if at:
                items.append(buf[:at])
            parsed = self._parse(buf[at + len(self.head):])
            if parsed is None:  # incomplete: wait for more bytes
                self.pending = buf[at:]
                break
            if isinstance(parsed, str):
                items.append(buf[at: at + len(self.head)])
                buf = buf[at + len(self.head):]
                continue
            marker, used = parsed
            items.append(marker)
            buf = buf[at + len(self.head) + used:]
        return items

    def flush(self) -> bytes:
        rest, self.pending = self.pending, b""
        return rest

    def _partial_head(self, buf: bytes) -> int:
        """Length of the longest suffix of ``buf`` that could start a marker."""
        for size in range(min(len(self.head) - 1, len(buf)), 0, -1):
            if self.head.startswith(buf[-size:]):
                return size
        return 0

    @staticmethod
    def _parse(body: bytes) -> tuple[Marker, int] | str | None:
        fields: list[bytes] = []
        pos = 0
        for _ in range(3):
            end = body.find(b";", pos)
            if end < 0:
                return None if len(body) - pos < 24 else "bad"
            fields.append(body[pos:end])
            pos = end + 1
        try:
            seq, status, length = (int(f) for f in fields)
        except ValueError:
            return "bad"
        if length < 0 or length > MAX_FIELD:
            return "bad"
        if len(body) < pos + length + 1:
            return None
        cwd = body[pos: pos + length]
        if body[pos + length: pos + length + 1] != TERMINATOR:
            return "bad"
        return Marker(seq, status, cwd.decode("utf-8", "surrogateescape")), pos + length + 1


def expected_echo(line: bytes) -> bytes:
    """What the pty's line discipline echoes for ``line`` (ICRNL/ONLCR, ECHOCTL)."""
    out = bytearray()
    for byte in line:
        if byte == 0x0A:
            out += b"\r\n"
        elif byte < 0x20 and byte != 0x09:
            out += b"^" + bytes([byte + 0x40])
        else:
            out.append(byte)
    return bytes(out)


class EchoFilter:
    """Removes the pty's echo of our control line from the output.

    The echo normally comes first, but output of a background job (or of PROMPT_COMMAND) may
    come before it, so the echo is looked for anywhere; bytes that cannot be its start pass
    through at once. With ``stty -echo`` it never comes: ``finish`` (called at the start
    marker, which bash prints only after the tty has echoed) lets the held bytes go.
    """

    def __init__(self, expected: bytes) -> None:
        self.expected = expected
        self.held = b""
        self.done = not expected

    def feed(self, data: bytes) -> bytes:
        if self.done:
            return data
        self.held += data
        at = self.held.find(self.expected)
        if at >= 0:
            out = self.held[:at] + self.held[at + len(self.expected):]
            self.done, self.held = True, b""
            return out
        keep = 0
        for size in range(min(len(self.expected) - 1, len(self.held)), 0, -1):
            if self.expected.startswith(self.held[-size:]):
                keep = size
                break
        out = self.held[: len(self.held) - keep]
        self.held = self.held[len(self.held) - keep:]
        return out

    def finish(self) -> bytes:
        self.done = True
        out, self.held = self.held, b""
        return out
