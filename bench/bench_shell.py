"""Shell benchmarks: time to first prompt in a pty, per-command overhead, piped throughput.

Targets (issue 2): first prompt ≤ 150 ms; per-command overhead ≤ 5 ms; 300 × /bin/true piped
≤ 1.3× bash. Printed as ratios against bash (and fish/xonsh when installed).
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _pty import SWEBASH, Pty, median_ms, prompt_shown, quiet_env

RUNS = 7


def first_prompt(argv: list[str], env: dict[str, str], live: bool = False) -> float:
    samples = []
    for _ in range(RUNS):
        term = Pty(argv, env)
        try:
            if live:  # prompt-toolkit is up when it enables bracketed paste
                samples.append(term.read_until(lambda out: b"\x1b[?2004h" in out))
            else:
                samples.append(term.read_until(prompt_shown))
        finally:
            term.close()
    return median_ms(samples)


def per_command_overhead() -> tuple[float, float]:
    from swebash.shell.session import ShellSession

    session = ShellSession.start(rcfile=None)
    null = os.open(os.devnull, os.O_WRONLY)
    session.stdin_fd, session.stdout_fd = os.open(os.devnull, os.O_RDONLY), null
    session.wait_ready()
    for _ in range(20):
        session.run("true")
    n = 300
    started = time.perf_counter()
    for _ in range(n):
        session.run("true")
    builtin = (time.perf_counter() - started) / n
    started = time.perf_counter()
    for _ in range(100):
        session.run("/bin/true")
    external = (time.perf_counter() - started) / 100
    session.close()
    # the same external command inside one bash, for its own cost
    script = "for i in $(seq 100); do /bin/true; done"
    started = time.perf_counter()
    subprocess.run(["bash", "-c", script], check=True)
    bare = (time.perf_counter() - started) / 100
    return builtin * 1000, (external - bare) * 1000


def idle_throughput(argv: list[str], env: dict[str, str], size: int = 50_000_000) -> float:
    """MB/s of a background job's output reaching the terminal while the prompt is idle."""
    term = Pty(argv, env)
    try:
        term.read_until(prompt_shown, timeout=20)
        term.out = b""
        term.send(f"(yes | head -c {size}; echo; echo bg-end-$((6*7))) &\r".encode())
        started = time.monotonic()
        tail = b""  # only the tail is kept: the reader must not be the slow part
        while b"bg-end-42" not in tail and time.monotonic() - started < 600:
            if select.select([term.fd], [], [], 0.01)[0]:
                tail = (tail + os.read(term.fd, 1 << 16))[-256:]
        return size / (time.monotonic() - started) / 1e6
    finally:
        term.close()


def piped(argv: list[str], text: bytes) -> float:
    samples = []
    for _ in range(RUNS):
        started = time.perf_counter()
        subprocess.run(argv, input=text, stdout=subprocess.DEVNULL, check=True)
        samples.append(time.perf_counter() - started)
    return median_ms(samples)


def main() -> int:
    home = tempfile.mkdtemp()
    env = quiet_env(home)
    swebash = first_prompt([SWEBASH], env)
    live = first_prompt([SWEBASH], env, live=True)
    bash = first_prompt(["bash", "--norc", "--noprofile", "-i"], env)
    print(f"first prompt in a pty: swebash {swebash:.0f} ms (prompt drawn), "
          f"{live:.0f} ms (line editor live); bash {bash:.0f} ms; "
          f"ratio {swebash / bash:.1f}x bash   [target <= 150 ms]")
    for other in ("fish", "xonsh"):
        path = shutil.which(other)
        if path:
            try:
                peer = first_prompt([path], env)
            except TimeoutError:  # a prompt the simple detector does not recognise
                continue
            print(f"  {other}: {peer:.0f} ms (swebash/{other} = {swebash / peer:.2f}x)")
    builtin, external = per_command_overhead()
    print(f"per-command: `true` round trip {builtin:.2f} ms; overhead on /bin/true "
          f"{external:.2f} ms over bash running it   [target <= 5 ms]")
    ours_bg = idle_throughput([SWEBASH], env)
    bash_bg = idle_throughput(["bash", "--norc", "--noprofile", "-i"], env)
    print(f"background output at an idle prompt (yes | head -c 50000000 &): swebash "
          f"{ours_bg:.0f} MB/s, bash {bash_bg:.0f} MB/s, {ours_bg / bash_bg:.0%} of bash"
          "   [target >= 80%]")
    text = b"/bin/true\n" * 300
    ours = piped([SWEBASH], text)
    theirs = piped(["bash"], text)
    print(f"piped 300 x /bin/true: swebash {ours:.0f} ms, bash {theirs:.0f} ms, "
          f"ratio {ours / theirs:.2f}x   [target <= 1.3x]")
    shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
