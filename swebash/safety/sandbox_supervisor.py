"""The supervisor: one small process that starts every AI tool command, and ends them all.

Design note. Problem: a command the AI runs must not outlive swebash — nor its background
children, nor when swebash is killed with SIGKILL — and processes it leaves behind must be reaped
when it ends. What does not work: ``PR_SET_PDEATHSIG`` on the command (it fires when the *thread*
that forked it exits — swebash starts commands from worker threads — and reaches one process,
not its children); a process group (a child leaves it with ``setsid``); cleanup in swebash's
exit path (SIGKILL skips it); forking from swebash to set things up (it has threads).

Chosen approach. swebash starts this process once (``python -I``, standard library only),
connected by a ``SOCK_SEQPACKET`` socketpair. It is single-threaded, so forking is cheap and
safe, and it is a child subreaper. For each command it forks, ahead of time, a *per-command
supervisor* (a subreaper too) with the command's process waiting beside it, and lends its
channel to swebash: the request goes straight to it (then swebash says "taken"; without a
lent one, a request comes here and is passed on). The command's process starts: new session,
output on the pipes swebash passed over the socket, stdin ``/dev/null``, every other
descriptor closed, the confinement applied (``sandbox_confine``), exec. When the command's
first process exits, its supervisor kills everything it left behind — orphans are reparented
to it, whatever sessions they made — reports the status and the audit's records
(``sandbox_audit``), and exits. When swebash goes away by any means the socket reaches
end-of-file: every per-command supervisor gets SIGTERM and kills its
tree, and this process exits. A per-command supervisor whose parent dies gets SIGTERM too
(``PR_SET_PDEATHSIG``, set in a single-threaded process, where it means what it says).

With the bubblewrap backend and the network proxy, this process also creates, once, the user and
network namespace the commands share (``make_netns``): only a loopback, on which it listens for
the proxy; the listening socket goes to swebash, which serves it. With the network off, it
creates one with nothing listening, which the commands enter instead of making their own.

Messages are JSON (a memfd carries a large one); see ``sandbox_process`` for the other end.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import gc
import json
import os
import select
import signal
import socket
import struct
import sys
import time
from typing import Any

from swebash.safety import sandbox_seccomp
from swebash.safety.sandbox_command import (
    PR_SET_CHILD_SUBREAPER,
    PR_SET_PDEATHSIG,
    CommandSupervisor,
    children,
    kill_tree,
    prctl,
    reap_all,
)
from swebash.safety.sandbox_wire import MAX_FDS, MAX_MESSAGE, peek, send

CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000
SIOCSIFFLAGS, IFF_UP, IFF_RUNNING = 0x8914, 0x1, 0x40
PREFORK_DELAY = 0.05  # seconds of quiet before the next spare supervisor is forked

_libc = ctypes.CDLL(None, use_errno=True)


# ---------------------------------------------------------------------------- the proxy's netns


def make_netns(listen: bool = True) -> tuple[socket.socket | None, int, int, int]:
    """(listening socket on the namespace's 127.0.0.1, user ns fd, net ns fd, holder pid).

    A forked holder enters new user and network namespaces (its uid and gid mapped to
    themselves), brings the loopback up, listens, hands the socket and both namespaces back and
    then waits for this process to end (its /proc entry names the namespaces for launchers).
    ``listen=False``: the namespace of ``network = "off"``, a loopback with nothing on it —
    made once, as a new one for each command costs bubblewrap about a millisecond."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    uid, gid = os.getuid(), os.getgid()
    holder = os.fork()
    if holder == 0:
        try:
            ours.close()
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            if _libc.unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "unshare(user, net)")
            for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                               ("gid_map", f"{gid} {gid} 1")):
                with open(f"/proc/self/{name}", "w") as handle:
                    handle.write(text)
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                fcntl.ioctl(probe, SIOCSIFFLAGS,
                            struct.pack("16sH14s", b"lo", IFF_UP | IFF_RUNNING, b""))
            listener = socket.socket()
            if listen:
                listener.bind(("127.0.0.1", 0))
                listener.listen(128)
            user = os.open("/proc/self/ns/user", os.O_RDONLY | os.O_CLOEXEC)
            net = os.open("/proc/self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
            socket.send_fds(theirs, [b"ok"], [listener.fileno(), user, net])
            listener.close()
            theirs.recv(1)  # end of file: the supervisor is gone
        except BaseException as exc:
            with contextlib.suppress(OSError):
                theirs.send(str(exc).encode()[:200])
        os._exit(0)
    theirs.close()
    data, fds, _f, _a = socket.recv_fds(ours, 256, 3)
    if data != b"ok" or len(fds) != 3:
        for fd in fds:
            os.close(fd)
        raise OSError(errno.EPERM, data.decode(errors="replace") or "no network namespace")
    ours.detach()  # kept open: the holder waits for its end of file, i.e. for our exit
    if not listen:
        os.close(fds[0])
        return None, fds[1], fds[2], holder
    return socket.socket(fileno=fds[0]), fds[1], fds[2], holder


# ---------------------------------------------------------------------------- the main loop


class Supervisor:
    def __init__(self, ctl: socket.socket, options: dict[str, Any]) -> None:
        self.ctl = ctl
        self.options = options
        self.commands: dict[int, str] = {}  # per-command supervisor pid -> request id
        self.netns_fds: tuple[int, int] | None = None
        self.offline_fds: tuple[int, int] | None = None  # network "off" (bubblewrap)
        self.holder = 0
        self.offline_holder = 0
        self.spare: tuple[int, socket.socket] | None = None  # a forked, waiting supervisor
        # the spare whose channel swebash holds: it sends the next request straight to it (one
        # process and one wake-up fewer on the way to the command) and then says "taken"
        self.lent = 0
        self.gone: set[int] = set()  # helpers reaped before swebash said it took them

    def run(self) -> None:
        prctl(PR_SET_CHILD_SUBREAPER, 1)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, lambda *_: self.shutdown())
        wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        for sockets in ("off", "proxy", "on"):  # built once here, not in every child
            for audit, watch in ((False, False), (True, False), (True, True)):
                for bwrap in (False, True):  # (called as install calls it: one cache key)
                    with contextlib.suppress(OSError):
                        sandbox_seccomp.program(sockets, audit, watch, bwrap=bwrap)
        self.ready()
        gc.freeze()  # what exists now is never collected: forks copy fewer pages
        self.prefork()
        while True:
            with contextlib.suppress(InterruptedError):
                # the next spare is forked when nothing else happens: a fork competes for the
                # CPU with the command being started
                idle = PREFORK_DELAY if self.spare is None and not self.lent else None
                ready, _, _ = select.select([self.ctl.fileno(), wake_r], [], [], idle)
                if not ready:
                    self.prefork()
                if wake_r in ready:
                    with contextlib.suppress(OSError):
                        os.read(wake_r, 512)
                    self.reap()
                if self.ctl.fileno() in ready:
                    raw, fds, _flags, _addr = socket.recv_fds(self.ctl, MAX_MESSAGE, MAX_FDS)
                    if not raw:
                        self.shutdown()
                    self.handle(peek(raw, fds), raw, fds)

    def ready(self) -> None:
        reply: dict[str, Any] = {"op": "ready", "pid": os.getpid()}
        fds: list[int] = []
        if self.options.get("netns"):
            try:
                listener, user, net, self.holder = make_netns()
                assert listener is not None
                self.netns_fds = (user, net)
                reply.update(netns_port=listener.getsockname()[1], holder=self.holder)
                fds = [listener.fileno()]
            except OSError as exc:
                reply["netns_error"] = exc.strerror or str(exc)
        if self.options.get("offline"):
            try:
                _none, user, net, self.offline_holder = make_netns(listen=False)
                self.offline_fds = (user, net)
                reply["offline"] = True
            except OSError:
                pass  # each command makes its own (bwrap --unshare-net)
        send(self.ctl, reply, fds)
        for fd in fds:
            os.close(fd)

    def prefork(self) -> None:
        """Fork the next per-command supervisor now, so a request finds it waiting (a fork of
        this process is the slowest step of starting a command), and lend it to swebash."""
        if self.spare is not None or self.lent:
            return
        self.fork_spare()
        assert self.spare is not None
        pid, ours = self.spare
        try:
            send(self.ctl, {"op": "spare", "pid": pid}, [ours.fileno()])
        except OSError:
            return  # kept for a request that comes through here
        ours.close()
        self.spare, self.lent = None, pid

    def fork_spare(self) -> None:
        if self.spare is not None:
            return
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            gc.disable()  # a collection would touch (and so copy) every page
            ours.close()
            signal.set_wakeup_fd(-1)
            for sig in (signal.SIGCHLD, signal.SIGTERM):
                signal.signal(sig, signal.SIG_DFL)
            try:
                CommandSupervisor(self.ctl, {"proxy": self.netns_fds,
                                             "offline": self.offline_fds}).run(theirs)
            finally:
                os._exit(0)
        theirs.close()
        self.spare = (pid, ours)

    def handle(self, message: dict[str, Any], raw: bytes, fds: list[int]) -> None:
        op = message.get("op")
        if op == "spawn":  # swebash held no spare: through here, as before lending
            self.fork_spare()
            assert self.spare is not None
            pid, channel = self.spare
            self.spare = None
            try:
                socket.send_fds(channel, [raw], fds)  # as it came: parsed once more, in C
            except OSError as exc:
                send_quietly(self.ctl, {"op": "error", "id": message["id"], "errno": exc.errno,
                                        "message": "the sandbox supervisor lost a helper"})
            channel.close()
            self.commands[pid] = message["id"]
        elif op == "taken":
            pid = int(message.get("pid", 0))
            if pid == self.lent:
                self.lent = 0
            if pid in self.gone:
                self.gone.discard(pid)  # it has already ended (and said so itself)
            elif pid:
                self.commands[pid] = message["id"]
        elif op == "kill":
            for pid, ident in self.commands.items():
                if ident == message.get("id"):
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGTERM)
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)

    def reap(self) -> None:
        for pid, status in reap_all():
            if pid == self.lent:
                self.lent = 0  # swebash dropped it (a new link, a failed send)
            if pid not in self.commands:
                if len(self.gone) > 256:
                    self.gone.clear()
                self.gone.add(pid)
            ident = self.commands.pop(pid, None)
            if ident is not None and status != 0:
                # a per-command supervisor died before reporting: its command is orphaned
                # to us — end it, and say so
                kill_tree(None, keep=self._keep())
                send_quietly(self.ctl, {"op": "exit", "id": ident, "status": -9,
                                        "denied": [], "lost": True})
        strays = [p for p in children(os.getpid()) if p not in self._keep()]
        for pid in strays:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if not self.commands:
            self.prefork()  # nothing runs now: the model is reading the result

    def _keep(self) -> frozenset[int]:
        return frozenset({*self.commands, self.holder, self.offline_holder, self.lent,
                          *(self.spare[:1] if self.spare else ())})

    def shutdown(self) -> None:
        if self.spare is not None:
            self.spare[1].close()  # it reads end of file and exits
        for pid in list(self.commands):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 2.0
        while self.commands and time.monotonic() < deadline:
            for pid, _status in reap_all():
                self.commands.pop(pid, None)
            time.sleep(0.005)
        kill_tree(None, keep=frozenset({self.holder, self.offline_holder}))
        os._exit(0)


def send_quietly(ctl: socket.socket, message: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        send(ctl, message)


def main() -> None:
    """``python -I -c … FD OPTIONS``: serve swebash on the socket FD until it closes."""
    fd = int(sys.argv[1])
    options = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
    ctl = socket.socket(fileno=fd)
    Supervisor(ctl, options).run()
