"""What a sandboxed process does to itself between ``fork`` and ``exec``.

Design note. Every restriction here applies to the calling process and is inherited by what it
starts, so it runs in a single-threaded process that is about to exec the command: the child
forked by the supervisor (``sandbox_supervisor``), or the small launcher that wraps an MCP
server's command (``main`` below, run as ``python -I -c …``). Never in swebash itself, which
has threads (some of these calls refuse a multi-threaded caller, others would silently apply to
one thread only).

Order: join the proxy's network namespace (bubblewrap with the proxy) → ``NO_NEW_PRIVS`` →
capabilities dropped, bounding and ambient sets included (Landlock; bubblewrap does it itself
inside its namespaces, and needs its own when swebash runs as root) → the Landlock ruleset →
the seccomp filter, last, so nothing before it is judged by it. The result: no capability even
as root, no way back to privileges through setuid files, no terminal ioctls, no keyring, no
named unix sockets, and the network the policy says.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import sys
from dataclasses import dataclass, field, fields, replace
from typing import Any

from swebash.safety import sandbox_landlock, sandbox_seccomp
from swebash.safety.sandbox_wire import python_main

PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 38, 24, 47, 4
CAP_VERSION_3 = 0x20080522
CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000

_libc = ctypes.CDLL(None, use_errno=True)


@dataclass(frozen=True)
class Confinement:
    """Everything the child needs, as plain data (it crosses a socket as JSON)."""

    backend: str = "none"  # "bwrap" | "landlock" | "none"
    bwrap: tuple[str, ...] = ()  # the bwrap argv before "--" (bwrap backend)
    landlock: dict[str, Any] = field(default_factory=dict)  # LandlockPolicy's fields
    sockets: str = "off"  # sandbox_seccomp.Sockets
    audit: bool = False  # report attempted writes through a seccomp listener
    watch_connect: bool = False  # …and connections (when the network is not "on")
    # enter one of the supervisor's network namespaces first (bubblewrap): "proxy", or
    # "offline" (network "off": a loopback of its own, made once)
    join_netns: str = ""
    netns_paths: tuple[str, ...] = ()  # (user, net) namespace files, for the MCP launcher

    def to_json(self) -> str:
        # the fields as they are (json writes tuples as lists): ``asdict`` would deep-copy
        # Landlock's grants, hundreds of pairs, for every command (~2 ms)
        return json.dumps({f.name: getattr(self, f.name) for f in fields(self)})

    @classmethod
    def from_json(cls, text: str) -> Confinement:
        data = json.loads(text)
        data["bwrap"] = tuple(data.get("bwrap", ()))
        data["netns_paths"] = tuple(data.get("netns_paths", ()))
        return cls(**data)


def _check(result: int, what: str) -> None:
    if result != 0:
        raise OSError(ctypes.get_errno(), f"{what} failed")


def join_netns(user_fd: int, net_fd: int) -> None:
    _check(_libc.setns(user_fd, CLONE_NEWUSER), "setns(user namespace)")
    _check(_libc.setns(net_fd, CLONE_NEWNET), "setns(network namespace)")


def no_new_privs() -> None:
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(NO_NEW_PRIVS)")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def last_cap() -> int:
    try:
        with open("/proc/sys/kernel/cap_last_cap") as handle:
            return int(handle.read())
    except (OSError, ValueError):
        return 63


def drop_capabilities() -> None:
    """Empty every capability set of this process. The bounding set needs CAP_SETPCAP to
    shrink: as root it is emptied (so exec cannot give capabilities back); without privileges
    there is nothing to drop and NO_NEW_PRIVS keeps it that way."""
    if os.geteuid() == 0 or _has_setpcap():
        for cap in range(last_cap() + 1):
            _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # EINVAL past the kernel's last: fine
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = _CapHeader(CAP_VERSION_3, 0)
    data = (_CapData * 2)()
    _check(_libc.capset(ctypes.byref(header), data), "capset")


def _has_setpcap() -> bool:
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("CapEff:"):
                    return bool(int(line.split()[1], 16) & (1 << 8))
    except (OSError, ValueError):
        pass
    return False


def confine(spec: Confinement, netns_fds: tuple[int, int] | None = None) -> int | None:
    """Apply ``spec`` to this process; the audit listener's fd when ``spec.audit``."""
    if spec.backend == "none":
        return None
    if spec.join_netns:
        if netns_fds is None:
            raise OSError("the proxy's network namespace is not available")
        join_netns(*netns_fds)
    no_new_privs()
    if spec.backend == "landlock":
        drop_capabilities()
        fields = dict(spec.landlock)
        policy = sandbox_landlock.LandlockPolicy(
            writable=tuple(fields.get("writable", ())), hidden=tuple(fields.get("hidden", ())),
            network=str(fields.get("network", "off")),
            proxy_port=int(fields.get("proxy_port", 0)))
        grants = fields.get("grants")
        sandbox_landlock.restrict(policy, int(fields.get("abi", 0)) or None,
                                  [(str(p), int(r)) for p, r in grants] if grants else None)
    if not sandbox_seccomp.supported():
        return None
    sockets = spec.sockets if spec.sockets in ("off", "proxy", "on") else "off"
    return sandbox_seccomp.install(sockets, spec.audit,  # type: ignore[arg-type]
                                   spec.audit and spec.watch_connect,
                                   bwrap=spec.backend == "bwrap")


def exec_argv(spec: Confinement, argv: list[str]) -> tuple[str, list[str]]:
    """(file to exec, argv): the command itself, or bubblewrap around it."""
    if spec.backend == "bwrap":
        return spec.bwrap[0], [*spec.bwrap, "--", *argv]
    return argv[0], argv


def launcher_argv(spec: Confinement, argv: list[str]) -> list[str]:
    """A command line that starts ``argv`` confined by ``spec`` — for processes swebash does not
    start itself (MCP servers, started by the SDK). Costs one Python start (~30 ms).

    One argument may not exceed 128 KiB (``MAX_ARG_STRLEN``; beyond it exec fails with E2BIG),
    so nothing that grows with the machine travels inside the spec's JSON: Landlock's read
    grants (one per entry beside every directory on the way to a secret: thousands in a
    crowded ``/tmp``) are left out and planned again by the launcher from the same hidden
    paths, and bubblewrap's options follow the spec as arguments of their own (their count
    first)."""
    landlock = {k: v for k, v in spec.landlock.items() if k != "grants"}
    slim = Confinement(spec.backend, (), landlock, spec.sockets, spec.audit, spec.watch_connect,
                       spec.join_netns, spec.netns_paths)
    return [*python_main("sandbox_confine"), slim.to_json(), str(len(spec.bwrap)), *spec.bwrap,
            "--", *argv]


def main() -> None:
    """The launcher: ``… SPEC N BWRAP_OPTION×N -- COMMAND ARGS``; confine, then exec (status
    126 on failure)."""
    args = sys.argv[1:]
    try:
        count = int(args[1])
        if args[2 + count] != "--":
            raise ValueError("malformed launcher arguments")
        spec = replace(Confinement.from_json(args[0]), bwrap=tuple(args[2:2 + count]))
        argv = args[3 + count:]
        fds = None
        if spec.join_netns:
            fds = (os.open(spec.netns_paths[0], os.O_RDONLY | os.O_CLOEXEC),
                   os.open(spec.netns_paths[1], os.O_RDONLY | os.O_CLOEXEC))
        confine(spec, fds)
        file, full = exec_argv(spec, argv)
        os.execvp(file, full)
    except (OSError, ValueError, IndexError, TypeError, KeyError) as exc:
        with contextlib.suppress(OSError):
            os.write(2, f"swebash sandbox: cannot start {' '.join(args[-1:])}: {exc}\n".encode())
        os._exit(126)
