"""The inline y/N confirmation asked before a tool call the safety gate marked ``ask``.

    ⚠ run: rm -rf build/ — deletes files recursively  [y/N]

Design note. The answer is one keypress, read from the terminal in raw mode, because a
line-buffered ``input()`` would need Enter and would let Ctrl-C raise in the middle of the
agent loop. Raw mode here means: no canonical line editing, no echo, and no signal keys
(ISIG off), so Ctrl-C arrives as byte 0x03 and simply declines. Two details matter for safety:

* keys typed before the question appeared (type-ahead) must not answer it, so pending input
  is discarded after entering raw mode and only then is the question shown (``ready``);
* a key that sends several bytes (arrows, Esc sequences, a UTF-8 letter) is read and drained
  entirely, so its tail does not land in the next prompt; only its first byte is judged.

Only ``y`` runs and ``a`` allows the exact call for the session (offered only when the call is
not dangerous); everything else — n, Enter, Esc, Ctrl-C, end of input, any other key — is No.
The terminal's settings are restored in ``finally``. A non-tty never confirms.

The pure parts (prompt text, preview, key → answer) are separate from the tty reader so they
are testable without a terminal.
"""

from __future__ import annotations

import asyncio
import os
import select
import termios
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from swebash.api import ConfirmAnswer, ConfirmHook, ConfirmRequest
from swebash.render import theme
from swebash.render.visible import make_visible

MAX_PREVIEW_LINES = 20
_DRAIN_SECONDS = 0.03  # the tail of a multi-byte key arrives within this after its first byte


@dataclass(frozen=True)
class ConfirmPrompt:
    line: Text  # the question, one line
    preview: RenderableType | None  # diff or new file head for write/edit tools
    offers_always: bool

    @property
    def plain(self) -> str:
        return self.line.plain


def can_allow_always(request: ConfirmRequest) -> bool:
    """``a`` (allow for the session) is never offered for a dangerous call."""
    return not request.verdict.dangerous


def choices(request: ConfirmRequest) -> str:
    return "[y/N/a]" if can_allow_always(request) else "[y/N]"


def subject(request: ConfirmRequest) -> str:
    """What is being confirmed, made visible: "run: rm -rf build/", "write src/app.py"."""
    if request.command is not None:
        return f"run: {make_visible(request.command)}"
    if request.description:
        return make_visible(request.description)
    if request.path:
        return f"{request.tool}: {make_visible(request.path)}"
    return request.tool


def build_confirm_prompt(request: ConfirmRequest,
                         max_preview_lines: int = MAX_PREVIEW_LINES) -> ConfirmPrompt:
    dangerous = request.verdict.dangerous
    line = Text()
    line.append("⚠ ", style=theme.DANGER if dangerous else theme.WARN)
    line.append(subject(request), style=theme.DANGER if dangerous else "bold")
    reasons = [make_visible(r) for r in request.verdict.reasons if r]
    if reasons:
        line.append(" — " + "; ".join(reasons),
                    style=theme.DANGER if dangerous else theme.DIM)
    line.append("  " + choices(request), style="bold")
    preview = (render_preview(request.preview, request.path, max_preview_lines)
               if request.preview else None)
    return ConfirmPrompt(line, preview, can_allow_always(request))


def is_unified_diff(text: str) -> bool:
    lines = text.splitlines()[:20]
    return any(line.startswith("@@") for line in lines) or (
        any(line.startswith("--- ") for line in lines)
        and any(line.startswith("+++ ") for line in lines))


def _diff_style(line: str) -> str:
    if line.startswith(("+++", "---")):
        return theme.DIFF_HEADER
    if line.startswith("@@"):
        return theme.DIFF_HUNK
    if line.startswith("+"):
        return theme.DIFF_ADD
    if line.startswith("-"):
        return theme.DIFF_REMOVE
    return ""


def render_preview(preview: str, path: str | None = None,
                   max_lines: int = MAX_PREVIEW_LINES) -> RenderableType:
    """A coloured unified diff, or the head of a new file, capped at ``max_lines`` lines."""
    lines = preview.splitlines()
    diff = is_unified_diff(preview)
    shown = lines[:max_lines]
    body: list[RenderableType] = [
        Text(make_visible(line.expandtabs(4)), style=_diff_style(line) if diff else "",
             no_wrap=True, overflow="ellipsis")
        for line in shown
    ]
    if len(lines) > len(shown):
        more = len(lines) - len(shown)
        body.append(Text(f"… {more} more line{'s' if more != 1 else ''}", style=theme.DIM))
    title = make_visible(path) if path else ("diff" if diff else "new file")
    return Panel(Group(*body), title=Text(title, style=theme.DIM), title_align="left",
                 border_style=theme.DIM, padding=(0, 1))


def answer_for_key(key: bytes, *, offers_always: bool) -> ConfirmAnswer:
    """Map the bytes of one keypress to an answer; only y (and a, when offered) say yes."""
    first = key[:1].lower()
    if first == b"y":
        return ConfirmAnswer.YES
    if first == b"a" and offers_always:
        return ConfirmAnswer.ALWAYS
    return ConfirmAnswer.NO


def _raw_attributes(attrs: list[Any]) -> list[Any]:
    new = list(attrs)
    new[3] = attrs[3] & ~(termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN)
    new[0] = attrs[0] & ~termios.IXON  # Ctrl-S / Ctrl-Q are keys here, not flow control
    chars = list(attrs[6])
    chars[termios.VMIN] = 1
    chars[termios.VTIME] = 0
    new[6] = chars
    return new


def read_confirm_key(fd: int, *, offers_always: bool = False,
                     ready: Callable[[], None] | None = None) -> ConfirmAnswer:
    """Read one keypress from the terminal ``fd`` and map it; a non-tty answers NO.

    ``ready`` runs once the terminal is in raw mode and type-ahead is discarded: show the
    question there, so that no key pressed before it was visible can answer it.
    """
    if not os.isatty(fd):
        return ConfirmAnswer.NO
    try:
        saved = termios.tcgetattr(fd)
    except termios.error:
        return ConfirmAnswer.NO
    try:
        termios.tcsetattr(fd, termios.TCSANOW, _raw_attributes(saved))
        termios.tcflush(fd, termios.TCIFLUSH)
        if ready is not None:
            ready()
        key = os.read(fd, 64)
        _drain(fd)
    except OSError:
        return ConfirmAnswer.NO
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)
    return answer_for_key(key, offers_always=offers_always)


def _drain(fd: int) -> None:
    """Swallow what is left of a multi-byte key (e.g. the "[A" after an arrow's ESC)."""
    while select.select([fd], [], [], _DRAIN_SECONDS)[0]:
        if not os.read(fd, 64):
            return


ANSWER_WORDS = {ConfirmAnswer.YES: "yes", ConfirmAnswer.NO: "no",
                ConfirmAnswer.ALWAYS: "always (this session)"}


def ask_confirm(console: Console, request: ConfirmRequest, fd: int) -> ConfirmAnswer:
    """Show the preview and the question on ``console``, read one key from ``fd``, echo it."""
    prompt = build_confirm_prompt(request)
    if prompt.preview is not None:
        console.print(prompt.preview)

    def show_question() -> None:
        console.print(prompt.line, end=" ")
        console.file.flush()

    if not os.isatty(fd):
        show_question()
        answer = ConfirmAnswer.NO
    else:
        answer = read_confirm_key(fd, offers_always=prompt.offers_always, ready=show_question)
    style = theme.OK if answer is not ConfirmAnswer.NO else theme.DIM
    console.print(Text(ANSWER_WORDS[answer], style=style))
    return answer


def confirm_hook(console: Console, fd: int) -> ConfirmHook:
    """A ``ConfirmHook`` for the engine: asks inline, in a worker thread (the read blocks)."""

    async def hook(request: ConfirmRequest) -> ConfirmAnswer:
        return await asyncio.to_thread(ask_confirm, console, request, fd)

    return hook
