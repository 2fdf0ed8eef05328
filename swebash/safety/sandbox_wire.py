"""The messages between swebash and its sandbox supervisor: JSON on a ``SOCK_SEQPACKET`` socket,
descriptors (the command's output pipes) passed with ``SCM_RIGHTS``. A message larger than half
of ``MAX_MESSAGE`` travels in a memfd, passed as the last descriptor. Standard library only: the
supervisor imports this at its start.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from typing import Any

MAX_MESSAGE = 1 << 16
MAX_FDS = 8


def python_main(module: str, *flags: str) -> list[str]:
    """A command line that runs ``swebash.safety.<module>.main()`` in a new isolated Python
    (``-I``: no environment, no user site; the package found where this one is): the
    supervisor, the MCP launcher, a prepared sandbox's waiter. Its own arguments follow."""
    parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    boot = (f"import sys; sys.path.insert(0, {parent!r}); "
            f"from swebash.safety.{module} import main; main()")
    return [sys.executable, "-I", *flags, "-c", boot]


def send(ctl: socket.socket, message: dict[str, Any], fds: list[int] | None = None) -> None:
    data = json.dumps(message).encode()
    memfd = -1
    if len(data) > MAX_MESSAGE // 2:
        memfd = os.memfd_create("swebash-message", os.MFD_CLOEXEC)
        os.write(memfd, data)
        data, fds = b'{"memfd": true}', [*(fds or []), memfd]
    try:
        socket.send_fds(ctl, [data], fds or [])
    finally:
        if memfd >= 0:
            os.close(memfd)


def receive(ctl: socket.socket) -> tuple[dict[str, Any] | None, list[int]]:
    """The next message and the descriptors it carried; (None, []) at end of file."""
    data, fds, _flags, _addr = socket.recv_fds(ctl, MAX_MESSAGE, MAX_FDS)
    if not data:
        for fd in fds:
            os.close(fd)
        return None, []
    return decode(data, fds), fds


def peek(data: bytes, fds: list[int]) -> dict[str, Any]:
    """A message's JSON, leaving its descriptors (a memfd included) as they are: for a
    process that passes the message on as it came."""
    message: dict[str, Any] = json.loads(data)
    if message.get("memfd"):
        message = json.loads(os.pread(fds[-1], os.fstat(fds[-1]).st_size, 0))
    return message


def decode(data: bytes, fds: list[int]) -> dict[str, Any]:
    """A message's JSON; a large one came in a memfd, the last descriptor (removed, closed)."""
    message: dict[str, Any] = json.loads(data)
    if message.get("memfd"):
        memfd = fds.pop()
        try:
            message = json.loads(os.pread(memfd, os.fstat(memfd).st_size, 0))
        finally:
            os.close(memfd)
    return message
