"""The OS sandbox: one boundary object the tools are given (``ToolContext.sandbox``).

Design note. A classifier cannot be the only wall (bash evaluates text in too many places), so
every process an AI tool starts goes through this object:

* ``spawn`` starts a command through the supervisor (``sandbox_supervisor``): its own session,
  no terminal, output on pipes; killed with everything it started when it ends, when it is
  cancelled, and when swebash dies by any means — with either backend and with the sandbox off;
* confined by the policy (``sandbox_policy``: read all but secrets, write the working tree and a
  private temp dir, ``.git`` and startup files read-only, $HOME's dotfiles read-only when the
  tree holds $HOME) through bubblewrap or Landlock, a seccomp filter (no terminal input
  injection, no keyring, no named unix sockets), no capabilities even as root, and a network
  that reaches only the domain proxy (``sandbox_proxy``), or nothing, or everything;
* ``blocked`` says what the sandbox itself stopped — writes its audit saw refused, domains its
  proxy refused — never what a command printed;
* ``prepare`` has bubblewrap build the sandbox of a command in a directory ahead of time (a
  question starts there; after each command the supervisor does it with that command's
  policy), so that the command finds it built (``sandbox_command.Prepared``);
* ``outside`` is the same supervision without confinement (a rerun the user approved);
* ``launcher`` wraps a command line that someone else starts (stdio MCP servers), confined by
  the same policy;
* ``writable_roots`` / ``allows_write`` expose the write policy to the in-process file tools.

Backends, best first: **bubblewrap** (needs unprivileged user namespaces, which some
distributions block) and **Landlock** (Linux >= 5.13, no privileges). Where neither works,
commands run unconfined (still supervised) and ``ai status`` and the first ``?`` say so once.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from swebash import lifecycle
from swebash.config import SandboxConfig
from swebash.safety import sandbox_bwrap, sandbox_landlock, sandbox_report, sandbox_seccomp
from swebash.safety.sandbox_audit import WriteMap
from swebash.safety.sandbox_confine import Confinement, launcher_argv
from swebash.safety.sandbox_domains import DomainGate, DomainStore, asker
from swebash.safety.sandbox_policy import (
    Policy,
    ScanCache,
    build_policy,
    proxy_env,
    runtime_places,
    secret_name,
    session_env,
    work_root,
)
from swebash.safety.sandbox_process import SupervisedProcess, Supervisor

if TYPE_CHECKING:
    from swebash.api import ConfirmHook
    from swebash.safety.sandbox_proxy import DomainProxy

__all__ = ["OsSandbox", "Policy", "Sandbox", "SandboxedProcess", "secret_name", "work_root"]



class SandboxedProcess(Protocol):
    """A started command (``Popen``'s vocabulary): output pipes, status, a kill for its tree."""

    pid: int
    stdout: IO[bytes] | None
    stderr: IO[bytes] | None
    returncode: int | None

    def poll(self) -> int | None: ...

    def kill(self) -> None:
        """End the command and everything it started."""


class Sandbox(Protocol):
    """The boundary every tool that starts a process, or writes a file, is given."""

    def spawn(self, argv: Sequence[str], cwd: str,
              env: Mapping[str, str]) -> SandboxedProcess:
        """Start ``argv`` confined, in its own session, supervised (no orphans)."""
        ...

    def blocked(self, process: SandboxedProcess) -> str | None:
        """What the sandbox itself stopped during ``process``'s life, in one line."""
        ...

    def rerun_useful(self, process: SandboxedProcess) -> bool:
        """Whether running it again outside could help (not when a person already refused
        what was stopped, e.g. a domain)."""
        ...

    def refused_writes(self, process: SandboxedProcess) -> tuple[str, ...] | None:
        """The paths of the writes the sandbox refused, when refused writes are all it
        stopped (no socket, connection or domain); None otherwise."""
        ...

    def outside(self) -> Sandbox:
        """The same supervision, no confinement: for a rerun the user approved."""
        ...

    def launcher(self, argv: Sequence[str], cwd: str,
                 env: Mapping[str, str] | None = None) -> list[str]:
        """A command line that runs ``argv`` confined by this policy, for a process someone
        else starts (stdio MCP servers); ``argv`` unchanged when nothing confines."""
        ...

    def writable_roots(self, cwd: str) -> tuple[str, ...]:
        """Where a command started in ``cwd`` may write (the file tools' write policy)."""
        ...

    def allows_write(self, path: str, cwd: str) -> bool:
        """Whether the write policy lets ``path`` (a real path) be changed from ``cwd``."""
        ...


class ManagedSandbox(Sandbox, Protocol):
    """What the engine does with the session's sandbox beyond handing it to the tools: start
    it early, describe it in `ai status`, say once when it cannot confine, let its proxy ask
    about new domains through the turn's confirmation, stop it."""

    def warm(self) -> None: ...

    def describe(self, cwd: str | None = None) -> str: ...

    def prepare(self, cwd: str, env: Mapping[str, str]) -> None: ...

    def notice(self) -> str | None: ...

    def set_confirm(self, confirm: ConfirmHook | None,
                    loop: asyncio.AbstractEventLoop | None) -> None: ...

    def close(self) -> None: ...


class OsSandbox:
    """The sandbox of one swebash process: picks a backend once, confines each command."""

    def __init__(self, config: SandboxConfig, home: str,
                 environ: Mapping[str, str] | None = None, *,
                 protect: Sequence[str | Path] = (), state_dir: Path | None = None) -> None:
        self.config = config
        self.home = os.path.realpath(home)
        self.environ = dict(os.environ if environ is None else environ)
        self.protect = tuple(str(p) for p in protect)  # swebash's config and state dirs
        self._lock = threading.Lock()
        self._backend: str | None = None
        self._why_none = ""
        self._probed = False
        self._tmpdir: str | None = None
        self._noticed = False
        self._supervisor: Supervisor | None = None
        self._proxy: DomainProxy | None = None
        self._cwd = os.getcwd()
        self._running: dict[int, str] = {}  # id(process) -> the command, for domain questions
        self._scans = ScanCache()  # secret scans and Landlock's read rules, while still true
        lifecycle.clean_once()  # temp dirs a SIGKILLed swebash left (AI runs in -c too)
        self.domains = DomainGate(config.allow_domains, DomainStore(
            state_dir / "sandbox-domains.json" if state_dir is not None else None),
            lambda: work_root(self._cwd))

    # ------------------------------------------------------------------ backend

    @property
    def enabled(self) -> bool:
        return self.config.enabled

    @property
    def network(self) -> str:
        return self.config.network

    def backend(self) -> str | None:
        """"bwrap", "landlock" or None (off, or nothing works here; see ``describe``)."""
        with self._lock:
            if not self._probed:
                self._backend, self._why_none = self._probe()
                self._probed = True
            return self._backend

    def _probe(self) -> tuple[str | None, str]:
        if not self.config.enabled:
            return None, "off"
        wanted = self.config.backend
        reasons: list[str] = []
        if wanted in ("auto", "bwrap"):
            why = sandbox_bwrap.probe(self.network == "on")
            if why is None:
                return "bwrap", ""
            reasons.append(why)
        if wanted in ("auto", "landlock"):
            abi = sandbox_landlock.abi_version()
            if abi >= 1:
                return "landlock", ""
            reasons.append("the kernel has no Landlock")
        return None, "; ".join(reasons)

    def warm(self) -> None:
        """Probe the backend and start the supervisor (call off the UI thread)."""
        self.backend()
        try:
            self.supervisor()
            self.proxy()
        except OSError:
            pass  # said when a command needs it

    def supervisor(self) -> Supervisor:
        backend = self.backend()  # decides whether the proxy's namespace is made
        with self._lock:
            if self._supervisor is None:
                self._supervisor = Supervisor(
                    netns=backend == "bwrap" and self.network == "proxy",
                    offline=backend == "bwrap" and self.network == "off")
            supervisor = self._supervisor
        supervisor.start()
        return supervisor

    def proxy(self) -> DomainProxy | None:
        """The domain proxy, started with its listeners (None unless network = "proxy")."""
        if self.backend() is None or self.network != "proxy":
            return None
        supervisor = self.supervisor()
        with self._lock:
            if self._proxy is None:
                from swebash.safety.sandbox_proxy import DomainProxy

                self._proxy = DomainProxy(self.domains)
                self._proxy.listen()
            netns = supervisor.netns  # (a new one if the supervisor had to be restarted)
            if netns is not None and not self._proxy.serves(netns.listener):
                self._proxy.serve(netns.listener)
            return self._proxy

    # ------------------------------------------------------------------ for people

    def describe(self, cwd: str | None = None) -> str:
        """One line for ``ai status``: the backend and the policy, or why there is none."""
        backend = self.backend()
        if backend is None:
            return sandbox_report.unconfined_line(self._why_none)
        return sandbox_report.status_line(backend, work_root(cwd or os.getcwd()), self.home,
                                          self.network, self.config.allow_domains)

    def notice(self) -> str | None:
        """Once per session, when the sandbox should be on but no backend works."""
        if self._noticed or not self.config.enabled or self.backend() is not None:
            return None
        self._noticed = True
        return f"sandbox unavailable ({self._why_none}); AI commands run unconfined"

    # ------------------------------------------------------------------ policy

    def tmpdir(self) -> str:
        with self._lock:
            if self._tmpdir is None or not os.path.isdir(self._tmpdir):
                self._tmpdir = os.path.realpath(lifecycle.private_dir("swebash-sandbox-"))
                atexit.register(shutil.rmtree, self._tmpdir, True)  # (a SIGKILL: next start)
            return self._tmpdir

    def policy(self, cwd: str, environ: Mapping[str, str]) -> Policy:
        return build_policy(cwd, self.home, {**self.environ, **environ}, self.tmpdir(),
                            self.network, self.protect, self._scans,
                            runtime_places() if self.backend() == "bwrap" else ())

    def writable_roots(self, cwd: str) -> tuple[str, ...]:
        backend = self.backend()
        policy = self.policy(cwd, {})
        return policy.landlock_writable if backend == "landlock" else policy.writable

    def allows_write(self, path: str, cwd: str) -> bool:
        return self.write_map(self.policy(cwd, {})).allows(path)

    def write_map(self, policy: Policy) -> WriteMap:
        if self.backend() == "landlock":
            return WriteMap(policy.landlock_writable)
        return WriteMap(policy.writable, (*policy.readonly, *policy.hidden))

    def confinement(self, policy: Policy, cwd: str, audit: bool,
                    shared_offline: bool = False) -> Confinement:
        """``shared_offline``: with network "off", enter the supervisor's offline namespace
        (commands it starts; a launcher makes its own)."""
        backend = self.backend()
        watch = audit and policy.network != "on"
        if backend == "bwrap":
            # the network namespace does the confining: INET sockets may be made (bwrap needs
            # one to bring the loopback up), unix sockets still may not
            offline = shared_offline and policy.network == "off"
            argv = sandbox_bwrap.bwrap_argv(sandbox_bwrap.BwrapPolicy(
                policy.mounts, policy.hidden, policy.network, offline), cwd)
            return Confinement("bwrap", tuple(argv), sockets="on", audit=audit,
                               watch_connect=watch,
                               join_netns="proxy" if policy.network == "proxy" else
                               "offline" if offline else "")
        if backend == "landlock":
            proxy = self.proxy()
            grants = self._scans.get(("landlock", policy.guarded), lambda seen: (
                sandbox_landlock.read_grants(policy.guarded, seen.scandir)))
            return Confinement("landlock", landlock={
                "writable": list(policy.landlock_writable), "hidden": list(policy.guarded),
                "grants": grants, "network": policy.network,
                "proxy_port": proxy.port if proxy else 0,
                "abi": sandbox_landlock.abi_version()}, sockets=policy.network, audit=audit,
                watch_connect=watch)
        return Confinement()

    def command_env(self, policy: Policy, env: Mapping[str, str]) -> dict[str, str]:
        out = session_env(env)
        out["TMPDIR"] = policy.tmpdir
        if policy.network == "proxy":
            supervisor = self.supervisor()
            if self.backend() == "bwrap" and supervisor.netns is not None:
                out = proxy_env(out, f"http://127.0.0.1:{supervisor.netns.port}")
            else:
                proxy = self.proxy()
                out = proxy_env(out, proxy.url() if proxy else "http://127.0.0.1:0")
        return out

    # ------------------------------------------------------------------ Sandbox

    def spawn(self, argv: Sequence[str], cwd: str,
              env: Mapping[str, str]) -> SupervisedProcess:
        backend = self.backend()
        if backend is None:
            return self.supervisor().spawn(argv, cwd, env, Confinement())
        self._cwd = cwd
        policy, confine = self._confined(cwd, env, self.supervisor())
        writes = self.write_map(policy)
        write_map = {"writable": list(writes.writable), "readonly": list(writes.readonly)}
        ignore = [os.path.realpath(confine.bwrap[0])] if confine.bwrap else []
        if policy.network == "proxy":
            self.proxy()  # listening before the command can connect
        netns = self.supervisor().netns if backend == "bwrap" else None
        port = netns.port if netns is not None else self._proxy.port if self._proxy else 0
        net = {"proxy_port": port if policy.network == "proxy" else 0}
        process = self.supervisor().spawn(argv, cwd, self.command_env(policy, env), confine,
                                          write_map, ignore, net)
        self._running[id(process)] = " ".join(argv[2:] if argv[:2] == ["bash", "-c"]
                                              else argv)
        return process

    def prepare(self, cwd: str, env: Mapping[str, str]) -> None:
        """Build the sandbox a command in ``cwd`` would get now (bubblewrap, once the
        supervisor runs; call off the UI thread): when a question starts, so that the model's
        first command finds it built even in a directory no command ran in yet."""
        with self._lock:
            supervisor = self._supervisor
        if supervisor is None or self.backend() != "bwrap":
            return
        try:
            supervisor.prepare_for(self._confined(cwd, env, supervisor)[1], cwd)
        except OSError:
            pass  # the command will say it

    def _confined(self, cwd: str, env: Mapping[str, str],
                  supervisor: Supervisor) -> tuple[Policy, Confinement]:
        """The policy and confinement of a command in ``cwd`` — one computation for a command
        and for the sandbox prepared for it, which it must match byte for byte."""
        policy = self.policy(cwd, env)
        bwrap = self.backend() == "bwrap"
        if policy.network == "proxy" and bwrap and supervisor.netns is None:
            raise OSError(f"the sandbox's network namespace could not be made "
                          f"({supervisor.netns_error}); set [sandbox] network = "
                          "\"off\" or \"on\"")
        return policy, self.confinement(policy, cwd, sandbox_seccomp.supported(),
                                        bwrap and supervisor.offline)

    def finished(self, process: SandboxedProcess) -> None:
        self._running.pop(id(process), None)

    def blocked(self, process: SandboxedProcess) -> str | None:
        self.finished(process)
        if self.backend() is None or not isinstance(process, SupervisedProcess):
            return None
        return sandbox_report.denied_line(process.denied, [f"network access to {r.host} ({r.why})"
                                                for r in self._refusals(process)])

    def refused_writes(self, process: SandboxedProcess) -> tuple[str, ...] | None:
        if self.backend() is None or not isinstance(process, SupervisedProcess):
            return None
        if self._refusals(process) or any(not d.startswith("write:") for d in process.denied):
            return None
        return tuple(d[6:] for d in process.denied) or None

    def rerun_useful(self, process: SandboxedProcess) -> bool:
        if not isinstance(process, SupervisedProcess):
            return False
        refusals = self._refusals(process)
        return bool(process.denied) or any(not r.asked for r in refusals)

    def _refusals(self, process: SupervisedProcess) -> list[Any]:
        proxy = self._proxy
        if proxy is None:
            return []
        end = process.ended if process.ended is not None else time.monotonic()
        return proxy.refused_between(process.started, end + 0.05)

    def outside(self) -> Unconfined:
        return Unconfined(self)

    def launcher(self, argv: Sequence[str], cwd: str,
                 env: Mapping[str, str] | None = None) -> list[str]:
        backend = self.backend()
        if backend is None:
            return list(argv)
        path = (env if env is not None else self.environ).get("PATH", os.defpath)
        if not argv or shutil.which(argv[0], path=path) is None:
            # said as the unwrapped command would have: not found (not "the launcher failed")
            raise FileNotFoundError(2, "command not found", argv[0] if argv else "")
        policy = self.policy(cwd, {})
        if policy.network == "proxy":
            self.proxy()  # listening before the server can connect
        confine = self.confinement(policy, cwd, audit=False)
        if confine.join_netns:
            supervisor = self.supervisor()
            netns = supervisor.netns
            if netns is None:
                raise OSError(f"the sandbox's network namespace could not be made "
                              f"({supervisor.netns_error or 'unknown reason'})")
            confine = Confinement(confine.backend, confine.bwrap, confine.landlock,
                                  confine.sockets, audit=False, join_netns="proxy",
                                  netns_paths=netns.paths)
        return launcher_argv(confine, list(argv))

    def launcher_env(self, cwd: str, env: Mapping[str, str]) -> dict[str, str]:
        """The environment for a process started through ``launcher``."""
        if self.backend() is None:
            return dict(env)
        return self.command_env(self.policy(cwd, env), env)

    # ------------------------------------------------------------------ asking about domains

    def set_confirm(self, confirm: ConfirmHook | None,
                    loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Ask new domains through ``confirm`` (on ``loop``) from now on; None: nobody."""
        self.domains.ask = (None if confirm is None or loop is None else
                            asker(confirm, loop, lambda: list(self._running.values())))

    # ------------------------------------------------------------------ end

    def close(self) -> None:
        with self._lock:
            supervisor, self._supervisor = self._supervisor, None
            proxy, self._proxy = self._proxy, None
            tmp, self._tmpdir = self._tmpdir, None
        if supervisor is not None:
            supervisor.close()
        if proxy is not None:
            proxy.close()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


class Unconfined:
    """``OsSandbox.outside()``: supervised (no orphans), not confined."""

    def __init__(self, sandbox: OsSandbox) -> None:
        self.sandbox = sandbox

    def spawn(self, argv: Sequence[str], cwd: str,
              env: Mapping[str, str]) -> SupervisedProcess:
        return self.sandbox.supervisor().spawn(argv, cwd, env, Confinement())

    def blocked(self, process: SandboxedProcess) -> str | None:
        return None

    def rerun_useful(self, process: SandboxedProcess) -> bool:
        return False

    def refused_writes(self, process: SandboxedProcess) -> tuple[str, ...] | None:
        return None

    def outside(self) -> Unconfined:
        return self

    def launcher(self, argv: Sequence[str], cwd: str,
                 env: Mapping[str, str] | None = None) -> list[str]:
        return list(argv)

    def writable_roots(self, cwd: str) -> tuple[str, ...]:
        return ("/",)

    def allows_write(self, path: str, cwd: str) -> bool:
        return True
