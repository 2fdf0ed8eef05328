"""run() against a real terminal: a tiny Python driver owns a pexpect pty as its stdin/stdout,
so raw mode, window-size copying, SIGWINCH and Ctrl-C go through a real tty."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

DRIVER = r"""
import sys, termios
from swebash.shell.session import ShellSession
session = ShellSession.start(rcfile=None, cwd=sys.argv[1])
session.wait_ready()
before = termios.tcgetattr(0)
print("READY", flush=True)
for line in sys.stdin:
    record = session.run(line.rstrip("\n"))
    same = termios.tcgetattr(0) == before
    print(f"STATUS={record.exit_status} TTY={'restored' if same else 'CHANGED'}", flush=True)
"""


@pytest.fixture
def term(tmp_path: Path) -> Iterator[pexpect.spawn]:
    child = pexpect.spawn(sys.executable, ["-c", DRIVER, str(tmp_path)], timeout=20,
                          dimensions=(33, 101), encoding="utf-8")
    child.expect("READY")
    yield child
    child.close(force=True)


def test_window_size_and_terminal_settings(term: pexpect.spawn) -> None:
    term.sendline("stty size")
    term.expect(r"33 101\r\n")
    term.expect("STATUS=0 TTY=restored")


def test_resize_while_a_command_runs_reaches_it(term: pexpect.spawn) -> None:
    term.sendline("echo go; read -r _; stty size")
    term.expect("go\r\n")  # output is pumped only once run() has the terminal in raw mode
    term.setwinsize(40, 120)
    term.send("\r")
    term.expect(r"40 120\r\n")
    term.expect("STATUS=0 TTY=restored")


def test_ctrl_c_interrupts_the_command_not_the_driver(term: pexpect.spawn) -> None:
    term.sendline("echo go; sleep 30")
    term.expect("go\r\n")  # a Ctrl-C any earlier would hit the driver, not the command
    term.send("\x03")
    term.expect("STATUS=130 TTY=restored", timeout=10)
    term.sendline("echo alive")
    term.expect("alive")
    term.expect("STATUS=0")
