"""Ending swebash from outside: a signal becomes SystemExit in the main thread.

Problem: SIGHUP (the window closed) or SIGTERM kills a Python process without running its
``finally`` blocks, leaving tool process groups, MCP servers, the private temp dir and a raw
terminal behind. Approach: the handler raises SystemExit(128 + signal), so the way out is the
same as `exit` and every cleanup runs; further signals are ignored while that happens.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterable
from types import FrameType
from typing import Any

Saved = dict[int, Any]  # signal number → the handler signal.signal() handed back


def exit_on_signals(signals: Iterable[signal.Signals]) -> Saved:
    """Install the handler for ``signals``; return the previous handlers (main thread only)."""
    chosen = tuple(signals)
    saved: Saved = {}
    if threading.current_thread() is not threading.main_thread():
        return saved

    def on_signal(signum: int, frame: FrameType | None) -> None:
        for sig in chosen:
            signal.signal(sig, signal.SIG_IGN)
        raise SystemExit(128 + signum)

    for sig in chosen:
        try:
            saved[sig] = signal.signal(sig, on_signal)
        except (OSError, ValueError):
            pass
    return saved


def restore_signals(saved: Saved) -> None:
    for sig, handler in saved.items():
        try:
            signal.signal(sig, handler)
        except (OSError, ValueError):
            pass
    saved.clear()
