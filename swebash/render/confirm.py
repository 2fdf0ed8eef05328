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

Only ``y`` runs; ``a`` (offered only when the call is not dangerous) asks for how long — this
session, this project, always; ``a`` at a dangerous prompt says why it is not offered and asks
again; ``v`` shows a folded long command whole. Ctrl-C and Esc (alone, not the start of an
arrow key's sequence) stop: the call is not run and the turn ends, no further request — what
Ctrl-C means everywhere else. Everything else — n, Enter, end of input, any other key — is No,
and the model goes on without the call. The terminal's settings are restored in ``finally``.
A non-tty never confirms. A dangerous question says so in words (``DANGEROUS``), not only in
red, so it stands out with NO_COLOR too.

A sandbox rerun the user already approved (the gate asked about exactly that write outside the
tree) is not asked again: one question per action; the line says what happens instead.

Short on purpose: each reason once, without repeating the command; a command longer than three
rows is folded to its first and last row with "… N more lines". At 50 columns a prompt stays
within about 8 rows.

The pure parts (prompt text, preview, key → answer) are separate from the tty reader so they
are testable without a terminal.
"""

from __future__ import annotations

import os
import select
import termios
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from swebash.api import ConfirmAnswer, ConfirmRequest
from swebash.render import theme
from swebash.render.terminal import LiveTerminal
from swebash.visible import make_visible, one_line

MAX_PREVIEW_LINES = 12
MAX_COMMAND_ROWS = 3  # a longer command is folded: first row, "… N more lines", last row
MAX_REASON_CHARS = 70
DANGER_WORD = "DANGEROUS"
UNKNOWN_WORD = "UNKNOWN"
CTRL_C, ESC = b"\x03", b"\x1b"  # Ctrl-C, and Esc alone (not an arrow's ESC [ A): stop
_DRAIN_SECONDS = 0.03  # the tail of a multi-byte key arrives within this after its first byte
_ESC_WAIT = 0.1  # … and after a lone ESC, this long (vim's ttimeoutlen)


@dataclass(frozen=True)
class ConfirmPrompt:
    line: Text  # the question: subject, reasons, choices (may wrap; newlines when folded)
    preview: RenderableType | None  # diff or new file head for write/edit tools
    offers_always: bool
    full: str | None = None  # the whole command when ``line`` shows it folded (key v)
    scopes: bool = False  # a asks how long (session / project / always): commands only

    @property
    def plain(self) -> str:
        return self.line.plain


def can_allow_always(request: ConfirmRequest) -> bool:
    """``a`` is never offered for a call known to be dangerous, nor for running outside the
    sandbox; for a domain it means "always, in this project". A call dangerous only because
    the classifier does not know a part of it may be vouched for: that is what a rule is."""
    known = request.verdict.dangerous and not request.verdict.unknown
    return not known and request.kind in ("run", "network")


def choices(request: ConfirmRequest, folded: bool = False) -> str:
    keys = "y/N/a" if can_allow_always(request) else "y/N"
    return f"[{keys}{'/v' if folded else ''}]"


def fold(text: str, width: int, max_rows: int = MAX_COMMAND_ROWS) -> tuple[str, bool]:
    """``text`` cut to about ``max_rows`` rows of ``width``: first row, a count, last row."""
    width = max(20, width)
    lines = text.split("\n")
    rows = sum(max(1, -(-len(line) // width)) for line in lines)
    if rows <= max_rows:
        return text, False
    if len(lines) > 2:
        first, last = lines[0], lines[-1]
        hidden = f"… {len(lines) - 2} more lines"
    else:
        flat = " ".join(lines)
        first, last = flat[: width - 2], flat[-(width - 2):]
        hidden = f"… {len(flat) - len(first) - len(last)} more characters"
    first = first if len(first) <= width else first[: width - 1] + "…"
    last = last if len(last) <= width else "…" + last[-(width - 1):]
    return f"{first}\n{hidden} (v shows all)\n{last}", True


def subject(request: ConfirmRequest) -> str:
    """What is being confirmed, made visible: "run: rm -rf build/", "write src/app.py"."""
    if request.command is not None:
        return f"run: {make_visible(request.command)}"
    if request.description:
        return make_visible(request.description)
    if request.path:
        return f"{request.tool}: {make_visible(request.path)}"
    return request.tool


def short_reasons(request: ConfirmRequest) -> list[str]:
    """Each reason once and short; the command itself is not repeated inside a reason."""
    seen: set[str] = set()
    out: list[str] = []
    command = (request.command or "").strip()
    shown = one_line(command)
    for raw in request.verdict.reasons:
        reason = one_line(raw.strip())
        if shown and len(shown) > 3:  # "deletes files: rm -rf x" when the prompt shows it
            for form in (f": {shown}", f" ({shown})", f" '{shown}'", f" `{shown}`"):
                reason = reason.replace(form, "")
            reason = reason.replace(shown, "it")
        reason = reason.strip(" :;-—")
        if len(reason) > MAX_REASON_CHARS:
            reason = reason[: MAX_REASON_CHARS - 1] + "…"
        key = reason.lower()
        if reason and key not in seen:
            seen.add(key)
            out.append(reason)
    # "deletes files" says nothing "deletes files recursively" does not: keep the longer.
    return [r for r in out if not any(o != r and o.lower().startswith(r.lower() + " ")
                                      for o in out)]


def build_confirm_prompt(request: ConfirmRequest, max_preview_lines: int = MAX_PREVIEW_LINES,
                         width: int = 80) -> ConfirmPrompt:
    unknown = request.verdict.unknown and request.kind == "run"
    dangerous = request.verdict.dangerous and not unknown
    style = theme.DANGER if dangerous else "bold"
    line = Text()
    line.append("⚠ ", style=theme.DANGER if dangerous else theme.WARN)
    if dangerous and request.kind == "run":  # a word, not only a colour (NO_COLOR, mono)
        line.append(f"{DANGER_WORD} ", style=f"bold {theme.DANGER}")
    elif unknown:  # not known to be safe: --yes would not run it either
        line.append(f"{UNKNOWN_WORD} ", style=f"bold {theme.WARN}")
    if request.kind == "sandbox_retry":  # the whole command, folded like any other
        blocked = make_visible(one_line(request.blocked or "something"))
        command = make_visible(request.command or request.description)
        head = f"the sandbox blocked {blocked} — run outside it: "
        shown, folded = fold(command, width - 2)
        if folded or "\n" in shown or len(head) + len(shown) + 10 > width:
            head = head.rstrip() + "\n"  # the command starts a row of its own
        line.append(head + shown, style=style)
        line.append("  " + choices(request, folded), style="bold")
        return ConfirmPrompt(line, None, False, command if folded else None)
    if request.kind == "network":
        host = make_visible(request.domain or request.description)
        line.append(f"network: let the sandboxed command reach {host}? ", style=style)
        if request.command:  # context only: the question is about the domain
            command = one_line(request.command)
            room = max(20, width - len(host) - 60)
            command = command if len(command) <= room else command[:room - 1] + "…"
            line.append(f"({command}) ", style=theme.DIM)
        line.append("[y/N/a]", style="bold")
        line.append(" (a: always in this project)", style=theme.DIM)
        return ConfirmPrompt(line, None, True, None)
    shown, folded = fold(subject(request), width - 2)
    line.append(shown, style=style)
    reasons = short_reasons(request)
    if reasons:
        line.append(" — " + "; ".join(reasons), style=theme.DANGER if dangerous else theme.DIM)
    line.append("  " + choices(request, folded), style="bold")
    preview = (render_preview(request.preview, request.path, max_preview_lines)
               if request.preview else None)
    return ConfirmPrompt(line, preview, can_allow_always(request),
                         subject(request) if folded else None,
                         scopes=request.command is not None)


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
    """Map the bytes of one keypress to an answer; only y (and a, when offered) say yes;
    Ctrl-C or a lone Esc stop the turn."""
    if key[:1] == CTRL_C or key == ESC:
        return ConfirmAnswer.STOP
    first = key[:1].lower()
    if first == b"y":
        return ConfirmAnswer.YES
    if first == b"a" and offers_always:
        return ConfirmAnswer.ALWAYS
    return ConfirmAnswer.NO


SCOPE_KEYS = {b"s": ConfirmAnswer.ALWAYS, b"a": ConfirmAnswer.ALWAYS,
              b"p": ConfirmAnswer.PROJECT, b"f": ConfirmAnswer.FOREVER}
SCOPE_QUESTION = "allow it from now on: [s] this session  [p] this project  [f] always  "
NOT_OFFERED = "(a is not offered: the gate marked this dangerous; y runs it once) "


def scope_for_key(key: bytes) -> ConfirmAnswer:
    """The second key after ``a``: how long the approval lasts; Ctrl-C / Esc stop; anything
    else is No."""
    if key[:1] == CTRL_C or key == ESC:
        return ConfirmAnswer.STOP
    return SCOPE_KEYS.get(key[:1].lower(), ConfirmAnswer.NO)


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
        key = _read_key(fd)
    except OSError:
        return ConfirmAnswer.NO
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)
    return answer_for_key(key, offers_always=offers_always)


def _drain(fd: int, first_wait: float = _DRAIN_SECONDS) -> bytes:
    """What is left of a multi-byte key (e.g. the "[A" after an arrow's ESC), read so it does
    not land in the next prompt; returned so the key is judged whole."""
    rest = b""
    wait = first_wait
    while select.select([fd], [], [], wait)[0]:
        chunk = os.read(fd, 64)
        if not chunk:
            break
        rest += chunk
        wait = _DRAIN_SECONDS
    return rest


ANSWER_WORDS = {ConfirmAnswer.YES: "yes", ConfirmAnswer.NO: "no",
                ConfirmAnswer.ALWAYS: "yes, for this session",
                ConfirmAnswer.PROJECT: "yes, from now on in this project",
                ConfirmAnswer.FOREVER: "yes, from now on",
                ConfirmAnswer.STOP: "stopped — the turn ends here"}


class _Asker:
    """Shows the question and reacts to keys: v expands, a asks for a scope or says why not."""

    def __init__(self, console: Console, prompt: ConfirmPrompt,
                 terminal: LiveTerminal | None) -> None:
        self.console = console
        self.prompt = prompt
        self.terminal = terminal

    def show(self, *parts: Text | str, end: str = " ") -> None:
        with self.console.capture() as capture:
            self.console.print(*parts, end=end)
        text = capture.get()
        if self.terminal is not None:
            self.terminal.write_raw(text)
        else:
            self.console.file.write(text)
            self.console.file.flush()

    def ask(self, fd: int) -> ConfirmAnswer:
        if not os.isatty(fd):
            self.show(self.prompt.line)
            return ConfirmAnswer.NO
        try:
            saved = termios.tcgetattr(fd)
        except termios.error:
            self.show(self.prompt.line)
            return ConfirmAnswer.NO
        try:
            termios.tcsetattr(fd, termios.TCSANOW, _raw_attributes(saved))
            termios.tcflush(fd, termios.TCIFLUSH)  # type-ahead must not answer
            self.show(self.prompt.line)
            return self._keys(fd)
        except OSError:
            return ConfirmAnswer.NO
        finally:
            termios.tcsetattr(fd, termios.TCSANOW, saved)

    def _keys(self, fd: int) -> ConfirmAnswer:
        expanded = False
        for _ in range(8):  # v and a-when-not-offered ask again; a few times is plenty
            key = _read_key(fd)
            first = key[:1].lower()
            if first == b"v" and self.prompt.full is not None and not expanded:
                expanded = True
                self.show(Text("\n" + self.prompt.full, style="bold"), end="\n")
                self.show(Text(self.prompt.line.plain.rsplit("  ", 1)[-1], style="bold"))
                continue
            if first == b"a" and not self.prompt.offers_always:
                self.show(Text("\n" + NOT_OFFERED, style=theme.DIM))
                continue
            if first == b"a" and self.prompt.scopes:
                self.show(Text("\n" + SCOPE_QUESTION, style="bold"))
                return scope_for_key(_read_key(fd))
            return answer_for_key(key, offers_always=self.prompt.offers_always)
        return ConfirmAnswer.NO


def _read_key(fd: int) -> bytes:
    """One keypress, whole. A lone ESC waits a little longer for the rest of a sequence
    (a slow link can split an arrow key), so only Esc itself is read as Esc."""
    key = os.read(fd, 64)
    return key + _drain(fd, _ESC_WAIT if key == b"\x1b" else _DRAIN_SECONDS)


def ask_confirm(console: Console, request: ConfirmRequest, fd: int,
                terminal: LiveTerminal | None = None) -> ConfirmAnswer:
    """Show the preview and the question on ``console``, read keys from ``fd``, echo the answer."""
    if request.kind == "sandbox_retry" and request.approved:  # asked once already, at the gate
        line = Text(f"↻ the sandbox blocked {one_line(request.blocked or 'it')}; you approved "
                    "that — running it again outside the sandbox", style=theme.DIM)
        if terminal is not None:
            terminal.print(line)
        else:
            console.print(line)
        return ConfirmAnswer.YES
    prompt = build_confirm_prompt(request, width=console.width)
    if prompt.preview is not None:
        if terminal is not None:
            terminal.print(prompt.preview)
        else:
            console.print(prompt.preview)
    asker = _Asker(console, prompt, terminal)
    answer = asker.ask(fd)
    style = theme.OK if answer is not ConfirmAnswer.NO else theme.DIM
    asker.show(Text(ANSWER_WORDS[answer], style=style), end="\n")
    return answer
