"""Whole-or-nothing appends, proven with a real short write: RLIMIT_FSIZE makes the kernel
accept only part of a record (then EFBIG), exactly as a disk that fills up mid-write does."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from swebash.durable import FailureNotice, append_whole

CHILD_PRELUDE = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
"""


def run_limited(code: str, path: Path, limit: int) -> subprocess.CompletedProcess[str]:
    script = CHILD_PRELUDE + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", script, str(path), str(limit)],
                          capture_output=True, text=True, timeout=30)


def test_append_whole_appends(tmp_path: Path) -> None:
    log = tmp_path / "log"
    append_whole(log, b"one\n")
    append_whole(log, b"two\n")
    assert log.read_bytes() == b"one\ntwo\n"
    assert log.stat().st_mode & 0o777 == 0o600


def test_a_short_write_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.write_bytes(b"x" * 100 + b"\n")
    done = run_limited("""
        from pathlib import Path
        from swebash.durable import append_whole
        try:
            append_whole(Path(sys.argv[1]), b"y" * 200 + b"\\n")
        except OSError as exc:
            print("failed", exc.errno)
    """, log, 150)
    assert done.stdout.startswith("failed"), done.stderr
    assert log.read_bytes() == b"x" * 100 + b"\n"  # not 150 bytes with half a record


def test_audit_lines_are_json_or_absent_and_the_loss_is_said_once(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    done = run_limited("""
        from pathlib import Path
        from swebash.safety.audit import AuditLog

        class Plain:
            def redact(self, text): return text

        audit = AuditLog(Path(sys.argv[1]), Plain())
        for i in range(6):
            audit.record(tool="execute_command", arguments={"command": "ls " + "a" * 40 * i})
    """, log, 400)
    assert done.returncode == 0, done.stderr
    lines = log.read_text().splitlines()
    assert 0 < len(lines) < 6
    assert all(json.loads(line)["tool"] == "execute_command" for line in lines)
    assert log.read_text().endswith("\n")
    complaints = [line for line in done.stderr.splitlines() if line]
    assert len(complaints) == 1 and "cannot write the audit log" in complaints[0]


def test_failure_notice_speaks_once() -> None:
    notice = FailureNotice("history")
    first = notice(OSError(28, "No space left on device"))
    assert first is not None and "No space left on device" in first
    assert notice(OSError(28, "No space left on device")) is None
