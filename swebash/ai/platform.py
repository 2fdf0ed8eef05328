"""The parts of the AI half that outlive one question: the recorded conversation, the session
store and the MCP servers. Built once by the composition root and shared by the engine (which
uses them to answer) and the `ai` builtins (which list, resume, reset and restart them), so the
builtins need nothing from the engine beyond the ``AiService`` Protocol.

Light on purpose: nothing here imports the MCP SDK or a provider; servers start on the first
`?` on the AI loop.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

from swebash.ai.sessions import RecordedConversation, SessionInfo, SessionStore
from swebash.config import Config
from swebash.tools.mcp import McpManager, Report
from swebash.visible import one_line
from swebash.wording import counted


def report_to_stderr(line: str) -> None:
    print(f"swebash: {line}", file=sys.stderr, flush=True)


@dataclass
class AiPlatform:
    conversation: RecordedConversation
    sessions: SessionStore
    mcp: McpManager | None

    def resume(self, which: str) -> str:
        """``ai resume [N|last]``: load conversation N of ``ai sessions`` (1 = newest);
        ``last`` is the newest one before the current conversation — after a question in this
        shell the current one is the newest, and resuming it would change nothing."""
        found = self.sessions.sessions()
        if which in ("", "last"):
            earlier = [s for s in found if s.path != self.conversation.path]
            if not earlier:
                return ("no earlier conversation to resume" if found
                        else "no stored conversations to resume")
            return self.load(earlier[0])
        if not found:
            return "no stored conversations to resume"
        if which.isdigit() and 1 <= int(which) <= len(found):
            index = int(which)
        else:
            return f"ai resume: give a number from 1 to {len(found)} (see ai sessions) or last"
        return self.load(found[index - 1])

    def load(self, info: SessionInfo) -> str:
        problem = self.conversation.resume(info)
        if problem is not None:
            return one_line(f"cannot resume {info.path}: {problem}")
        return (f"resumed the conversation of {format_date(info.started)} in "
                f"{one_line(info.cwd)} ({counted(info.turns, 'turn')}): "
                f"{first_line(info.first_question)}")

    def continue_last(self, cwd: str) -> str | None:
        """``--continue``: the newest conversation begun in ``cwd``; a message when none."""
        info = self.sessions.latest_for(cwd)
        if info is None:
            return f"no earlier conversation in {one_line(cwd)} to continue; starting a new one"
        problem = self.conversation.resume(info)
        if problem is not None:
            return one_line(f"cannot resume {info.path}: {problem}; starting a new "
                            "conversation")
        return None

    def list_sessions(self) -> list[str]:
        found = self.sessions.sessions()
        if not self.sessions.enabled:
            return ["conversations are not stored ([sessions] enabled = false, or the state "
                    "directory is not writable)"]
        if not found:
            return ["no stored conversations yet"]
        current = self.conversation.path
        lines = []
        for n, info in enumerate(found, 1):
            mark = "*" if info.path == current else " "
            turns = "turn " if info.turns == 1 else "turns"  # the columns stay aligned
            lines.append(f"{mark}{n:>3}  {format_date(info.started)}  {info.turns:>3} {turns}  "
                         f"{one_line(info.cwd)}  {first_line(info.first_question, 60)}")
        return lines

    def close(self) -> None:
        """Let go of the conversation file (later runs may prune it) and stop every MCP
        server process (safe to call more than once, from any thread but the AI loop's)."""
        self.conversation.release()
        if self.mcp is not None:
            self.mcp.close()


def build_platform(config: Config, cwd: Callable[[], str],
                   report: Report | None = report_to_stderr) -> AiPlatform:
    paths = config.paths
    store = SessionStore(paths.sessions_dir, config.sessions, persistent=paths.persistent,
                         report=report)
    conversation = RecordedConversation(store, cwd)
    mcp = None
    if config.mcp_servers:
        mcp = McpManager(config.mcp_servers, paths.log_dir if paths.persistent else None,
                         report, config.environ)
    return AiPlatform(conversation, store, mcp)


def format_date(stamp: float) -> str:
    """A stored time as a person reads it ("?" for one no calendar shows; files are checked
    on reading, this only keeps a listing alive if something slips through)."""
    import time

    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))
    except (ValueError, OverflowError, OSError):
        return "????-??-?? ??:??"


def first_line(text: str, limit: int = 80) -> str:
    line = one_line(" ".join(text.split()))
    return line if len(line) <= limit else line[:limit - 1] + "…"
