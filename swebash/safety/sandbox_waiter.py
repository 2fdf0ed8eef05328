"""A prepared bubblewrap sandbox's first process: it waits inside for its command, then execs it.

Run (``sandbox_wire.python_main``: ``python -I -S -B -c … MOUNTS``, standard library only) by
bubblewrap, which the per-command supervisor started ahead of time with the policy of the
previous command (``sandbox_command.CommandSupervisor``). Descriptor 3 is its channel to that
supervisor. It says "ready" (``r``) once it can take a request; the request is the message
swebash sent (JSON, a memfd for a large one; the command's output pipes as descriptors).

Before it execs, it checks that every mount of its policy (``MOUNTS``, a JSON list of mount
points) is still where it was made: a file or directory replaced on the host since (an editor's
save, ``rm -rf .git && git init``) detaches or moves the mount that covered it, and the new one
would be visible or writable. Then it answers ``x`` and execs; else ``s`` (stale) and exits,
and the supervisor starts a new sandbox. A command it cannot exec fails as under bubblewrap:
``bwrap: execvp NAME: REASON`` on its stderr, status 1.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys

from swebash.safety.sandbox_wire import MAX_FDS, MAX_MESSAGE, decode

CHANNEL = 3
LAST_FD = (1 << 31) - 1


def unescape(field: str) -> str:
    """A mountinfo path: space, tab, newline and backslash are written as octal escapes."""
    if "\\" not in field:
        return field
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1:i + 4].isdigit():
            out.append(chr(int(field[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def mounted() -> set[str]:
    with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as handle:
        return {unescape(line.split(" ", 5)[4]) for line in handle}


def main() -> None:
    try:
        serve(json.loads(sys.argv[1]))
    except BaseException:  # nothing reaches a user from here: the supervisor starts anew
        os._exit(125)


def serve(expected: list[str]) -> None:
    channel = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET, fileno=CHANNEL)
    channel.send(b"r")
    raw, fds, _flags, _addr = socket.recv_fds(channel, MAX_MESSAGE, MAX_FDS)
    if not raw:
        os._exit(0)
    message = decode(raw, fds)  # (a large one came in a memfd)
    if len(fds) != 2 or not set(expected) <= mounted():
        channel.send(b"s")
        os._exit(0)
    os.dup2(fds[0], 1)
    os.dup2(fds[1], 2)
    channel.send(b"x")
    os.closerange(CHANNEL, LAST_FD)  # the channel and the pipes' copies
    for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)  # Python ignores the first two: exec would keep it
    argv = [str(word) for word in message["argv"]]
    env = {str(k): str(v) for k, v in message["env"].items()}
    try:
        os.chdir(str(message["cwd"]))
        os.execvpe(argv[0], argv, env)
    except OSError as exc:
        os.write(2, f"bwrap: execvp {argv[0]}: {exc.strerror}\n".encode(errors="replace"))
        os._exit(1)
