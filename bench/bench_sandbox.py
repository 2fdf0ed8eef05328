"""Sandbox benchmark (issues 10 and 16): what the sandbox adds to each command the AI runs
(target <= 15 ms), per backend and network mode, against the same ``bash -c true`` started
unconfined with ``subprocess``; and what the domain proxy adds to a local HTTP request
(target <= 5 ms).

Start-up is measured end to end as the tool does it: build the policy (secret paths, the
bounded scan of the working tree), hand the command to the supervisor, which forks, confines
(Landlock ruleset or bwrap, seccomp filter, capabilities) and execs it; wait for its exit
report (after the leftovers check), with a pause between commands as the model leaves one
(the supervisor forks the next helper processes in it and, with bubblewrap, builds the next
command's sandbox with the last one's policy: ``sandbox_command.Prepared``; the line under it
is the same without that — a command whose policy differs pays it). The supervisor itself
starts once per swebash (reported separately). Run in this repository (a real working tree
with a .venv) and in a small temp tree.
"""

from __future__ import annotations

import base64
import http.server
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _timing as timing

from swebash.config import SandboxConfig
from swebash.safety import sandbox_bwrap, sandbox_landlock
from swebash.safety.sandbox import OsSandbox
from swebash.safety.sandbox_domains import DomainGate, DomainStore
from swebash.safety.sandbox_proxy import DomainProxy

RUNS = 40
GAP = 0.1  # seconds between two commands (untimed)
ARGV = ["bash", "-c", "true"]


def plain(cwd: str, env: dict[str, str], argv: list[str] | None = None) -> None:
    subprocess.Popen(argv or ARGV, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     start_new_session=True).communicate()


def confined(sandbox: OsSandbox, cwd: str, env: dict[str, str]) -> Callable[[], object]:
    def once() -> None:
        process = sandbox.spawn(ARGV, cwd, env)
        process.communicate()
        sandbox.blocked(process)
    return once


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def paired(base: Callable[[], object], fn: Callable[[], object],
           runs: int) -> tuple[list[float], list[float]]:
    """(base samples, fn samples) in ms, taken in turns: on 2 shared cores the load drifts
    within seconds, so an overhead is only meaningful between runs taken side by side. A pause
    before each ``fn`` (not timed): the model issues one command at a time and reads its
    result, and the supervisor prepares the next process in that pause."""
    base()
    fn()
    bases, samples = [], []
    for _ in range(runs):
        bases.append(timed(base))
        time.sleep(GAP)
        samples.append(timed(fn))
    return bases, samples


def overhead(bases: list[float], samples: list[float]) -> tuple[float, float, float]:
    """(median run, median of the paired differences, quickest run - quickest base)."""
    return (statistics.median(samples),
            statistics.median(s - b for b, s in zip(bases, samples, strict=True)),
            min(samples) - min(bases))


def startup(env: dict[str, str]) -> None:
    home = os.path.expanduser("~")
    small = tempfile.mkdtemp(prefix="swebash-bench-")
    os.makedirs(os.path.join(small, ".git/hooks"))
    backends = ["off"]
    if sandbox_bwrap.probe(False) is None:
        backends.append("bwrap")
    else:
        print(f"bubblewrap: not measured ({sandbox_bwrap.probe(False)})")
    if sandbox_landlock.abi_version() >= 1:
        backends.append("landlock")
    else:
        print("landlock: not measured (no Landlock in this kernel)")
    try:
        for where, cwd in (("this repository", os.getcwd()), ("a small temp tree", small)):
            base = timing.median_ms(lambda cwd=cwd: plain(cwd, env), RUNS,  # type: ignore[misc]
                                    warm=True)
            print(f"{where}: unconfined bash -c true {base:.1f} ms median "
                  f"(each figure below: against unconfined runs taken in turns with it)")
            for backend in backends:
                for network in (("off",) if backend == "off" else ("proxy", "off")):
                    config = SandboxConfig(mode="off" if backend == "off" else "auto",
                                           backend="auto" if backend == "off" else backend,
                                           network=network)
                    sandbox = OsSandbox(config, home=home, environ=env)
                    started = time.perf_counter()
                    sandbox.warm()
                    warm_ms = (time.perf_counter() - started) * 1000
                    policy_ms = timing.median_ms(
                        lambda s=sandbox, c=cwd: s.policy(c, env), RUNS)  # type: ignore[misc]
                    total, extra, quickest = overhead(*paired(
                        lambda c=cwd: plain(c, env), confined(sandbox, cwd, env),  # type: ignore[misc]
                        RUNS))
                    verdict = "ok" if extra <= 15 else "OVER"
                    label = f"{backend}/{network}" if backend != "off" else "sandbox off"
                    print(f"  {label:16s} {total:6.1f} ms  (+{extra:.1f} ms per command median, "
                          f"+{quickest:.1f} ms best; policy {policy_ms:.1f} ms; supervisor "
                          f"start once {warm_ms:.0f} ms)   [target <= 15 ms: {verdict}]")
                    if backend == "bwrap":
                        unprepared(sandbox, cwd, env)
                    if backend == "bwrap" and network == "off":
                        bwrap_alone(sandbox, cwd, env)
                    sandbox.close()
    finally:
        shutil.rmtree(small, ignore_errors=True)


def unprepared(sandbox: OsSandbox, cwd: str, env: dict[str, str]) -> None:
    """The same, with no sandbox prepared ahead of time: the first command, a command in
    another directory, or after the tree's secrets or the settings changed."""
    sandbox.supervisor().prepare = False
    try:
        total, extra, quickest = overhead(*paired(
            lambda: plain(cwd, env), confined(sandbox, cwd, env), RUNS))
    finally:
        sandbox.supervisor().prepare = True
    print(f"    (not prepared {total:6.1f} ms  (+{extra:.1f} ms median, +{quickest:.1f} ms best): "
          f"a new sandbox, when the policy differs from the last command's)   "
          f"[target <= 15 ms: {'ok' if extra <= 15 else 'OVER'}]")


def bwrap_alone(sandbox: OsSandbox, cwd: str, env: dict[str, str]) -> None:
    """bubblewrap's own share: the same bwrap command line, started directly (no supervisor,
    no seccomp filter, no Python on the way) — what no change on swebash's side can remove."""
    policy = sandbox.policy(cwd, env)
    argv = [*sandbox.confinement(policy, cwd, False).bwrap, "--", *ARGV]
    total, extra, quickest = overhead(*paired(
        lambda: plain(cwd, env), lambda: plain(cwd, env, argv), RUNS))
    print(f"    (bwrap alone   {total:6.1f} ms  (+{extra:.1f} ms median, +{quickest:.1f} ms best): "
          f"its namespaces and mounts, part of the line above)")


class _Quiet(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self) -> None:
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def exchange(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(request)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    return data


def proxy_overhead() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    proxy = DomainProxy(DomainGate(("bench.localhost",), DomainStore(None), lambda: "/"))
    proxy_port = proxy.listen()
    key = base64.b64encode(f"swebash:{proxy.token}".encode()).decode()
    auth = f"Proxy-Authorization: Basic {key}\r\n"
    direct = b"GET / HTTP/1.0\r\nHost: bench.localhost\r\n\r\n"
    absolute = (f"GET http://bench.localhost:{port}/ HTTP/1.1\r\nHost: bench.localhost\r\n"
                f"{auth}\r\n").encode()
    tunnel = f"CONNECT bench.localhost:{port} HTTP/1.1\r\n{auth}\r\n".encode() + direct
    runs = 200
    try:
        base = timing.median_ms(lambda: exchange(port, direct), runs, warm=True)
        for label, request in (("plain HTTP", absolute), ("CONNECT tunnel", tunnel)):
            assert exchange(proxy_port, request).endswith(b"ok\n")
            via = timing.median_ms(lambda r=request: exchange(proxy_port, r),  # type: ignore[misc]
                                   runs, warm=True)
            extra = via - base
            print(f"proxy, {label}: {via:.2f} ms per local request vs {base:.2f} ms direct "
                  f"(+{extra:.2f} ms)   [target <= 5 ms: {'ok' if extra <= 5 else 'OVER'}]")
    finally:
        proxy.close()
        server.shutdown()
        server.server_close()


def main() -> int:
    env = dict(os.environ)
    startup(env)
    proxy_overhead()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
