"""ShellSession costs: start to ready, per-command round trip, completion, continuation check.

Per-command overhead target (issue 2): ≤ 5 ms over the command itself. Compared with bash
running the same command (in a loop inside one bash, and as `bash -c` per command, which is
what a naive "subprocess per line" shell pays), and completion against its 100 ms budget.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from swebash.shell.continuation import needs_more_input
from swebash.shell.session import ShellSession

N = 200


def per_call_ms(fn: object, n: int) -> float:
    assert callable(fn)
    started = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - started) / n * 1000


def bash_loop_ms(command: str, n: int) -> float:
    """One bash running ``command`` n times: the command's own cost."""
    script = f"for ((i = 0; i < {n}; i++)); do {command}; done"
    started = time.perf_counter()
    subprocess.run(["bash", "--norc", "-c", script], check=True)
    return (time.perf_counter() - started) / n * 1000


def main() -> int:
    null = os.open(os.devnull, os.O_RDWR)
    work = tempfile.mkdtemp()
    ready = []
    for _ in range(7):
        started = time.perf_counter()
        probe = ShellSession.start(rcfile=None, cwd=work)
        forked = time.perf_counter()
        probe.wait_ready()
        ready.append(((forked - started) * 1000, (time.perf_counter() - started) * 1000))
        probe.close()
    start_ms = statistics.median(r[0] for r in ready)
    ready_ms = statistics.median(r[1] for r in ready)
    print(f"start(): {start_ms:.2f} ms to return (bash forked), {ready_ms:.1f} ms until "
          f"wait_ready() — bash boots while swebash imports")

    session = ShellSession.start(rcfile=None, cwd=work)
    session.stdin_fd = session.stdout_fd = null
    session.wait_ready()
    for _ in range(20):
        session.run("true")
    ours_builtin = per_call_ms(lambda: session.run("true"), N)
    ours_external = per_call_ms(lambda: session.run("/bin/true"), N)
    naive = per_call_ms(lambda: subprocess.run(["bash", "--norc", "-c", "true"], check=True), N)
    loop_builtin = bash_loop_ms("true", N * 10)
    loop_external = bash_loop_ms("/bin/true", N)
    print(f"run('true') x{N}: {ours_builtin:.2f} ms/command; overhead over bash's own loop "
          f"{ours_builtin - loop_builtin:.2f} ms   [target <= 5 ms]")
    print(f"run('/bin/true') x{N}: {ours_external:.2f} ms/command vs {loop_external:.2f} ms "
          f"inside bash (overhead {ours_external - loop_external:.2f} ms); naive `bash -c` per "
          f"line {naive:.2f} ms ({naive / ours_builtin:.1f}x slower than run('true'))")

    session.complete("git che", timeout=5)  # loads the completion file once
    words = per_call_ms(lambda: session.complete("ech", timeout=5), 50)
    paths = per_call_ms(lambda: session.complete("ls /usr/", timeout=5), 50)
    spec = per_call_ms(lambda: session.complete("git che", timeout=5), 20)
    print(f"complete(): command {words:.1f} ms, path {paths:.1f} ms, git compspec {spec:.1f} ms "
          f"  [budget 100 ms]")
    session.close()

    plain = per_call_ms(lambda: needs_more_input("ls -la /tmp"), 1000)
    needs_more_input("if true; then")  # loads the parser once
    shaped = per_call_ms(lambda: needs_more_input("for f in *; do echo \"$f\"; done"), 200)
    open_ = per_call_ms(lambda: needs_more_input("if true; then"), 50)
    print(f"needs_more_input(): plain line {plain * 1000:.0f} us, complete compound "
          f"{shaped:.2f} ms, open compound (asks bash -n) {open_:.1f} ms")
    os.close(null)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
