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
import errno
import json
import os
import select
import signal
import socket
import time
from typing import Any

from swebash.safety import sandbox_audit, sandbox_bwrap, sandbox_confine, sandbox_waiter
from swebash.safety.sandbox_wire import MAX_FDS, MAX_MESSAGE, decode, peek, python_main, send

PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
# the supervisor's network namespaces, by name ("proxy", "offline"): (user ns fd, net ns fd)
Namespaces = dict[str, "tuple[int, int] | None"]
KILL_ROUNDS = 200
READY_TIMEOUT = 2.0  # seconds a request waits for a prepared sandbox still being built

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
    Never returns (exec, or ``_exit(127)`` with the reason written to ``error_w``).

    A "prepare" instead of a request (bubblewrap): confine as for the command, but exec
    bubblewrap around ``sandbox_waiter``, which keeps ``requests`` as descriptor 3 and waits
    there for the command, output on /dev/null meanwhile."""
    try:
        signal.set_wakeup_fd(-1)  # (its helper's: that descriptor is closed below)
        os.setsid()
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        raw, fds, _flags, _addr = socket.recv_fds(requests, MAX_MESSAGE, MAX_FDS)
        if not raw:
            os._exit(0)  # never used: the supervisor is shutting down
        request = decode(raw, fds)
        prepare = request.get("op") == "prepare"
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null if prepare else fds[0], 1)
        os.dup2(null if prepare else fds[1], 2)
        held = [fd for pair in namespaces.values() for fd in pair or ()]
        kept = {requests.fileno()} if prepare else set()
        close_all_but({0, 1, 2, error_w, notify_w.fileno(), *held, *kept})
        for sig in (signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE, signal.SIGINT, signal.SIGXFSZ):
            signal.signal(sig, signal.SIG_DFL)
        os.chdir(request["cwd"])
        spec = sandbox_confine.Confinement.from_json(request["confine"])
        if prepare and spec.backend != "bwrap":
            raise OSError(errno.EINVAL, "only a bubblewrap sandbox is prepared")
        listener = sandbox_confine.confine(spec, namespaces.get(spec.join_netns))
        socket.send_fds(notify_w, [b"l"], [listener] if listener is not None else [])
        notify_w.close()
        if listener is not None:
            os.close(listener)
        for fd in held:
            os.close(fd)
        argv = list(request["argv"]) if not prepare else [
            *python_main("sandbox_waiter", "-S", "-B"),
            json.dumps(sandbox_bwrap.mount_points(spec.bwrap))]
        if prepare:
            channel = sandbox_waiter.CHANNEL
            if error_w == channel:
                error_w = os.dup(error_w)  # (close-on-exec, as the pipe's ends are)
            os.dup2(requests.fileno(), channel)
            os.set_inheritable(channel, True)  # (dup2 onto itself keeps close-on-exec)
        file, argv = sandbox_confine.exec_argv(spec, argv)
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
    hands the request when one comes (so no fork is on the way from request to exec).

    With bubblewrap, swebash may first send a "prepare" with the previous command's policy: the
    command's process then starts bubblewrap right away, around ``sandbox_waiter``, and the
    request finds the sandbox built (``Prepared``). It is used only when the request's
    confinement is that same one, byte for byte, and its mounts are all still in place;
    otherwise it is ended and the request gets a new process, as without a prepare."""

    def __init__(self, ctl: socket.socket, namespaces: Namespaces) -> None:
        self.ctl = ctl
        self.namespaces = namespaces
        self.kill_now = False
        self.denied: list[str] = []
        self.id = 0
        self.child = 0
        self.error_r = -1
        self.notify_r: socket.socket | None = None
        self.to_child: socket.socket | None = None
        self.wake_r = -1
        self.discarded: list[int] = []  # prepared sandboxes ended before their command came

    def run(self, channel: socket.socket) -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        prctl(PR_SET_CHILD_SUBREAPER, 1)
        signal.signal(signal.SIGTERM, self._on_term)
        self.wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        self._fork_child()
        raw, fds = self._receive(channel)
        request = peek(raw, fds)
        prepared: Prepared | None = None
        while request.get("op") == "prepare":  # (again: a question asked in another place)
            if prepared is not None:
                prepared.discard()
                self.discarded.append(prepared.child)
            prepared = self._prepare(raw, fds)
            self._fork_child()  # for a request it does not fit: as quick as without it
            raw, fds = self._await_request(channel, prepared)
            request = peek(raw, fds)
        if prepared is not None:
            if prepared.take(raw, fds, request, self):
                prepared.channel.close()  # (the waiter closed its end before exec)
                assert self.to_child is not None
                self.to_child.close()  # the other process reads end of file and exits
                channel.close()
                self._close_all(fds)
                self.id = request["id"]
                send(self.ctl, {"op": "started", "id": self.id, "pid": prepared.child,
                                "prepared": True})
                self._report(self._watch(prepared.child, prepared.listener, request))
            prepared.discard()  # (what is left of it is reaped with the command's tree)
        channel.close()
        self.id = request["id"]
        assert self.to_child is not None and self.notify_r is not None
        socket.send_fds(self.to_child, [raw], fds)  # the message as it came
        self.to_child.close()
        self._close_all(fds)
        listener = self._listener()
        failure = self._exec_failure()
        if failure:
            os.waitpid(self.child, 0)
            send(self.ctl, {"op": "error", "id": self.id, **json.loads(failure)})
            os._exit(0)
        send(self.ctl, {"op": "started", "id": self.id, "pid": self.child})
        self._report(self._watch(self.child, listener, request))

    def _fork_child(self) -> None:
        error_r, error_w = os.pipe()
        notify_r, notify_w = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        to_child, requests = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        child = os.fork()
        if child == 0:
            for end in (notify_r, to_child):
                end.close()
            start_child(requests, error_w, notify_w, self.namespaces)
        for end in (notify_w, requests):
            end.close()
        os.close(error_w)
        self.child, self.error_r, self.notify_r, self.to_child = (child, error_r, notify_r,
                                                                  to_child)

    def _receive(self, channel: socket.socket) -> tuple[bytes, list[int]]:
        raw, fds, _flags, _addr = socket.recv_fds(channel, MAX_MESSAGE, MAX_FDS)
        if not raw:  # never used (swebash let it go, or is gone)
            kill_tree(self.child)
            os._exit(0)
        return raw, fds

    def _close_all(self, fds: list[int]) -> None:
        """The request's descriptors and the network namespaces: the command's process has
        its own."""
        for fd in (*fds, *(fd for pair in self.namespaces.values() for fd in pair or ())):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _listener(self) -> int | None:
        """The audit's listener, from the command's process once it is confined."""
        assert self.notify_r is not None
        listener = None
        with contextlib.suppress(OSError):
            _msg, got, _f, _a = socket.recv_fds(self.notify_r, 4, 1)
            listener = got[0] if got else None
        self.notify_r.close()
        return listener

    def _exec_failure(self) -> bytes:
        """Why the command's process could not exec, or b"" once it has."""
        failure = b""
        while chunk := os.read(self.error_r, 4096):
            failure += chunk
        os.close(self.error_r)
        return failure

    def _prepare(self, raw: bytes, fds: list[int]) -> Prepared | None:
        """Have the command's process build the sandbox now; None when it could not."""
        assert self.to_child is not None
        confine = str(peek(raw, fds)["confine"])
        socket.send_fds(self.to_child, [raw], fds)
        for fd in fds:
            os.close(fd)
        listener = self._listener()
        if self._exec_failure():
            kill_tree(self.child)
            self.to_child.close()
            return None
        return Prepared(self.child, confine, self.to_child, listener)

    def _await_request(self, channel: socket.socket,
                       prepared: Prepared | None) -> tuple[bytes, list[int]]:
        """Serve the prepared sandbox (its ready word, its audit) until the request comes."""
        poller = select.poll()
        poller.register(channel, select.POLLIN)
        poller.register(self.wake_r, select.POLLIN)
        if prepared is not None:
            prepared.watch(poller)
        while True:
            with contextlib.suppress(InterruptedError):
                for fd, events in poller.poll(1000):
                    if fd == channel.fileno():
                        return self._receive(channel)
                    if fd == self.wake_r:
                        with contextlib.suppress(OSError):
                            os.read(self.wake_r, 512)
                        self._reap_discarded()
                    elif prepared is not None:
                        prepared.event(fd, events, poller)
            if self.kill_now:
                kill_tree(self.child)
                os._exit(0)

    def _reap_discarded(self) -> None:
        for pid in list(self.discarded):
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(pid, os.WNOHANG)[0] == 0:
                    continue
            self.discarded.remove(pid)

    def _report(self, status: int) -> None:
        send(self.ctl, {"op": "exit", "id": self.id, "status": status,
                        "denied": self.denied})
        os._exit(0)

    def _on_term(self, signum: int, frame: object) -> None:
        self.kill_now = True

    def _watch(self, child: int, listener: int | None, request: dict[str, Any]) -> int:
        wake_r = self.wake_r
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


class Prepared:
    """A bubblewrap sandbox built ahead of time, its ``sandbox_waiter`` waiting for the command:
    what it was built for, its channel, and the audit's listener (whose notifications it
    answers until the command comes, recording nothing)."""

    def __init__(self, child: int, confine: str, channel: socket.socket,
                 listener: int | None) -> None:
        self.child = child  # bubblewrap's pid
        self.confine = confine
        self.channel = channel
        self.listener = listener
        self.ready = False
        self.alive = True
        self.auditor = (sandbox_audit.Auditor(listener, sandbox_audit.WriteMap(()))
                        if listener is not None else None)

    def watch(self, poller: select.poll) -> None:
        poller.register(self.channel, select.POLLIN)
        if self.listener is not None:
            poller.register(self.listener, select.POLLIN)

    def event(self, fd: int, events: int, poller: select.poll) -> None:
        if fd == self.listener and self.auditor is not None:
            if events & select.POLLIN:
                self.auditor.handle()
            else:
                poller.unregister(fd)
        elif fd == self.channel.fileno():
            word = b""
            with contextlib.suppress(OSError):
                word = self.channel.recv(1)
            if word == b"r":
                self.ready = True
            else:  # it ended: bubblewrap could not build it, or the waiter failed
                self.alive = False
                poller.unregister(fd)

    def take(self, raw: bytes, fds: list[int], request: dict[str, Any],
             owner: CommandSupervisor) -> bool:
        """Hand the request to the waiter if it was prepared for it and still stands."""
        if request.get("op") != "spawn" or request.get("confine") != self.confine:
            return False
        poller = select.poll()
        self.watch(poller)
        deadline = time.monotonic() + READY_TIMEOUT
        while self.alive and not self.ready and time.monotonic() < deadline:
            with contextlib.suppress(InterruptedError):
                for fd, events in poller.poll(100):
                    self.event(fd, events, poller)
            if owner.kill_now:
                return False
        if not (self.alive and self.ready):
            return False
        try:
            socket.send_fds(self.channel, [raw], fds)
            while True:  # its answer: it execs (x), or its mounts moved (s), or it died
                ready = dict(poller.poll(int(READY_TIMEOUT * 1000)))
                if not ready:
                    return False
                if self.listener in ready and self.auditor is not None:
                    if ready[self.listener] & select.POLLIN:
                        self.auditor.handle()
                        continue
                    poller.unregister(self.listener)  # (nothing uses the filter any more)
                if self.channel.fileno() in ready:
                    return self.channel.recv(1) == b"x"
        except OSError:
            return False

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            os.kill(self.child, signal.SIGKILL)  # its inner bubblewrap dies with it
        self.channel.close()
        if self.listener is not None:
            with contextlib.suppress(OSError):
                os.close(self.listener)
