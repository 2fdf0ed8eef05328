"""One command under the supervisor: its process, and the helper that watches it.

Design note. The per-command supervisor (``CommandSupervisor``) and the command's process are
forked ahead of time, when the supervisor is idle; a request then reaches a process that only
has to confine itself and exec — no fork of a Python process on the way (a fork, and the pages
it copies, is the slowest step). The helper is a child subreaper: whatever the command leaves
behind is reparented to it, whatever sessions it made, and killed when the command's first
process exits (``kill_tree``). It answers the seccomp audit's notifications meanwhile
(``sandbox_audit``) and reports the status and the audit's records. It gets SIGTERM when its
parent dies (``PR_SET_PDEATHSIG``, set in a single-threaded process, where it means what it
says), and on SIGTERM kills the tree. The command's process gets SIGKILL when its helper dies.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import select
import signal
import socket
import time
from typing import Any

from swebash.safety import sandbox_audit, sandbox_confine
from swebash.safety.sandbox_wire import MAX_FDS, MAX_MESSAGE, decode, peek, send

PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
# the supervisor's network namespaces, by name ("proxy", "offline"): (user ns fd, net ns fd)
Namespaces = dict[str, "tuple[int, int] | None"]
KILL_ROUNDS = 200

_libc = ctypes.CDLL(None, use_errno=True)


def prctl(option: int, value: int) -> None:
    _libc.prctl(option, value, 0, 0, 0)


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except (OSError, ValueError):
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as handle:
                        stat = handle.read()
                    if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
                except (OSError, ValueError, IndexError):
                    continue
        return found


def reap_all() -> list[tuple[int, int]]:
    """Collect every exited child without blocking."""
    done: list[tuple[int, int]] = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return done
        if pid == 0:
            return done
        done.append((pid, status))


def kill_tree(leader: int | None, keep: frozenset[int] = frozenset()) -> list[tuple[int, int]]:
    """SIGKILL the session ``leader`` led (its group) and every process reparented to this one
    (but ``keep``), until none is left; returns the statuses reaped meanwhile."""
    reaped: list[tuple[int, int]] = []
    if leader is not None and leader > 1:
        with contextlib.suppress(OSError):
            # only a group the command leads: before its setsid it shares ours
            if os.getpgid(leader) == leader:
                os.killpg(leader, signal.SIGKILL)
            else:
                os.kill(leader, signal.SIGKILL)
    me = os.getpid()
    for _ in range(KILL_ROUNDS):
        left = [p for p in children(me) if p not in keep]
        if not left:
            break
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.001)
        reaped += reap_all()
    return reaped + reap_all()


def start_child(requests: socket.socket, error_w: int, notify_w: socket.socket,
                namespaces: Namespaces) -> None:
    """The command's process, forked ahead of time: it waits for its request, then execs.
    Never returns (exec, or ``_exit(127)`` with the reason written to ``error_w``)."""
    try:
        os.setsid()
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        raw, fds, _flags, _addr = socket.recv_fds(requests, MAX_MESSAGE, MAX_FDS)
        if not raw:
            os._exit(0)  # never used: the supervisor is shutting down
        request = decode(raw, fds)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(fds[0], 1)
        os.dup2(fds[1], 2)
        held = [fd for pair in namespaces.values() for fd in pair or ()]
        close_all_but({0, 1, 2, error_w, notify_w.fileno(), *held})
        for sig in (signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE, signal.SIGINT):
            signal.signal(sig, signal.SIG_DFL)
        os.chdir(request["cwd"])
        spec = sandbox_confine.Confinement.from_json(request["confine"])
        listener = sandbox_confine.confine(spec, namespaces.get(spec.join_netns))
        socket.send_fds(notify_w, [b"l"], [listener] if listener is not None else [])
        notify_w.close()
        if listener is not None:
            os.close(listener)
        for fd in held:
            os.close(fd)
        file, argv = sandbox_confine.exec_argv(spec, list(request["argv"]))
        os.execvpe(file, argv, dict(request["env"]))
    except BaseException as exc:
        text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        code = exc.errno if isinstance(exc, OSError) and exc.errno else 0
        with contextlib.suppress(OSError):
            os.write(error_w, json.dumps({"errno": code, "message": text}).encode())
        os._exit(127)


def close_all_but(keep: set[int]) -> None:
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)


class CommandSupervisor:
    """The per-command supervisor: forked ahead of time with its command's process, which it
    hands the request when one comes (so no fork is on the way from request to exec)."""

    def __init__(self, ctl: socket.socket, namespaces: Namespaces) -> None:
        self.ctl = ctl
        self.namespaces = namespaces
        self.kill_now = False
        self.denied: list[str] = []
        self.id = 0

    def run(self, channel: socket.socket) -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        prctl(PR_SET_CHILD_SUBREAPER, 1)
        signal.signal(signal.SIGTERM, self._on_term)
        error_r, error_w = os.pipe()
        notify_r, notify_w = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        to_child, requests = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        child = os.fork()
        if child == 0:
            for end in (notify_r, to_child, channel):
                end.close()
            start_child(requests, error_w, notify_w, self.namespaces)
        for end in (notify_w, requests):
            end.close()
        os.close(error_w)
        raw, fds, _flags, _addr = socket.recv_fds(channel, MAX_MESSAGE, MAX_FDS)
        channel.close()
        if not raw:  # never used
            os._exit(0)
        request = peek(raw, fds)
        self.id = request["id"]
        socket.send_fds(to_child, [raw], fds)  # the message as it came
        to_child.close()
        for fd in (*fds, *(fd for pair in self.namespaces.values() for fd in pair or ())):
            with contextlib.suppress(OSError):
                os.close(fd)
        listener = None
        with contextlib.suppress(OSError):
            _msg, got, _f, _a = socket.recv_fds(notify_r, 4, 1)
            listener = got[0] if got else None
        notify_r.close()
        failure = b""
        while chunk := os.read(error_r, 4096):
            failure += chunk
        os.close(error_r)
        if failure:
            os.waitpid(child, 0)
            detail = json.loads(failure)
            send(self.ctl, {"op": "error", "id": self.id, **detail})
            os._exit(0)
        send(self.ctl, {"op": "started", "id": self.id, "pid": child})
        status = self._watch(child, listener, request)
        send(self.ctl, {"op": "exit", "id": self.id, "status": status,
                        "denied": self.denied})
        os._exit(0)

    def _on_term(self, signum: int, frame: object) -> None:
        self.kill_now = True

    def _watch(self, child: int, listener: int | None, request: dict[str, Any]) -> int:
        wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        poller = select.poll()
        poller.register(wake_r, select.POLLIN)
        auditor = None
        if listener is not None:
            write_map = request.get("write_map") or {}
            net = request.get("net") or {}
            auditor = sandbox_audit.Auditor(listener, sandbox_audit.WriteMap(
                tuple(write_map.get("writable", ())), tuple(write_map.get("readonly", ()))),
                tuple(request.get("ignore_exe", ())),
                sandbox_audit.NetRule(int(net.get("proxy_port", 0))))
            poller.register(listener, select.POLLIN)
        status: int | None = None
        while status is None:
            reaped = kill_tree(child) if self.kill_now else []  # (it reaps as it kills)
            for pid, raw in reaped + reap_all():
                if pid == child:
                    status = os.waitstatus_to_exitcode(raw)
            if status is not None:
                break
            with contextlib.suppress(InterruptedError):
                for fd, events in poller.poll(1000):
                    if fd == wake_r:
                        with contextlib.suppress(OSError):
                            os.read(wake_r, 512)
                    elif auditor is not None and events & select.POLLIN:
                        auditor.handle()
                    elif events & (select.POLLHUP | select.POLLERR):
                        poller.unregister(fd)  # no process uses the filter any more
        kill_tree(child)  # what the command left behind ends with it
        if auditor is not None:
            self.denied = auditor.denied
        return status
