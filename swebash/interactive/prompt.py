"""The prompt: user@host, cwd with ~, git branch, last exit status when non-zero; or the
user's own PS1/PS2 as bash expanded them.

The git branch is read from ``.git/HEAD`` walking up from the cwd (worktrees and submodules
follow their ``gitdir:`` file) — no git process per prompt.

The user's prompt reaches the terminal as bash would write it: colours become prompt-toolkit
styles, every other escape sequence (window title, OSC 7/133/633 marks, OSC 8 links, anything
shaped like one) is passed through with zero width (see ``userprompt.split_escapes``).
prompt-toolkit writes a zero-width escape just before the character drawn in its cell, so an
escape at the end of a prompt line, with nothing after it, would never be written; those are
written together with the line's last character instead: save the cursor, draw that character,
write the escapes (now right after the prompt, where bash writes them), restore the cursor, and
prompt-toolkit draws the character again in the same cell.
"""

from __future__ import annotations

import getpass
import os
from pathlib import Path

from swebash.config import PromptConfig
from swebash.shell.userprompt import split_escapes

Fragments = list[tuple[str, str]]
# the default prompt's colours (prompt-toolkit style strings); the first prompt is drawn from
# these before prompt-toolkit is loaded (``ansi_text``), then by prompt-toolkit, identically
PROMPT_STYLE = {"userhost": "ansigreen bold", "cwd": "ansiblue bold", "git": "ansimagenta",
                "status": "ansired bold"}
_SGR = {"bold": "1", **{f"ansi{name}": str(30 + code) for code, name in enumerate(
    ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"))}}
ZERO_WIDTH = "[ZeroWidthEscape]"
SAVE_CURSOR, RESTORE_CURSOR = "\x1b7", "\x1b8"


def git_branch(cwd: str) -> str | None:
    here = Path(cwd)
    for folder in (here, *here.parents):
        dot_git = folder / ".git"
        try:
            if dot_git.is_file():
                target = dot_git.read_text().strip().removeprefix("gitdir:").strip()
                dot_git = (folder / target).resolve()
            head = (dot_git / "HEAD").read_text().strip()
        except OSError:
            continue
        if head.startswith("ref:"):
            return head.split("/", 2)[-1] if head.startswith("ref: refs/heads/") else head[5:]
        return head[:7] or None
    return None


def shorten_home(cwd: str, home: str) -> str:
    home = home.rstrip("/")
    if home and (cwd == home or cwd.startswith(home + "/")):
        return "~" + cwd[len(home):]
    return cwd


def who() -> tuple[str, str]:
    try:
        user = getpass.getuser()
    except Exception:
        user = "?"
    return user, os.uname().nodename.split(".")[0]  # gethostname(), without socket


def prompt_fragments(cwd: str, home: str, status: int, config: PromptConfig,
                     color: bool = True) -> Fragments:
    def style(name: str) -> str:
        return name if color else ""

    parts: Fragments = []
    if config.show_user_host:
        user, host = who()
        parts.append((style("class:userhost"), f"{user}@{host}"))
        parts.append(("", ":"))
    parts.append((style("class:cwd"), shorten_home(cwd, home)))
    if config.show_git:
        branch = git_branch(cwd)
        if branch:
            parts.append((style("class:git"), f" ({branch})"))
    if status:
        parts.append((style("class:status"), f" [{status}]"))
    parts.append(("", " # " if os.geteuid() == 0 else " $ "))
    return parts


def plain(fragments: Fragments) -> str:
    return "".join(text for _, text in fragments)


def ansi_text(fragments: Fragments) -> str:
    """The default prompt's fragments as the terminal gets them (no prompt-toolkit needed)."""
    out = []
    for style, text in fragments:
        words = PROMPT_STYLE.get(style.removeprefix("class:"), "").split() if style else []
        codes = [_SGR[word] for word in words if word in _SGR]
        out.append(f"\x1b[0;{';'.join(codes)}m{text}\x1b[0m" if codes else text)
    return "".join(out)


def user_prompt(expanded: str, color: bool = True) -> Fragments:
    """Fragments for a prompt bash expanded (``${PS1@P}``): colours as styles (dropped when
    ``color`` is off), every other escape zero-width, in place."""
    from prompt_toolkit.formatted_text import ANSI  # (the first prompt is drawn without it)

    marked = []
    escapes: list[str] = []  # one \x01…\x02 group for escapes in a row: prompt-toolkit's ANSI
    for kind, piece in split_escapes(expanded):  # takes a \x01 right after a \x02 for text
        if kind == "escape":
            escapes.append(piece.replace("\x01", "").replace("\x02", ""))
            continue
        if escapes:
            marked.append("\x01" + "".join(escapes) + "\x02")
            escapes.clear()
        if kind == "text" or color:
            marked.append(piece)
    if escapes:
        marked.append("\x01" + "".join(escapes) + "\x02")
    fragments: Fragments = [(style, text) for style, text, *_ in
                            ANSI("".join(marked)).__pt_formatted_text__()]
    return _escapes_after_last_character(fragments)


def _escapes_after_last_character(fragments: Fragments) -> Fragments:
    lines: list[Fragments] = [[]]
    for fragment in fragments:
        lines[-1].append(fragment)
        if fragment[1] == "\n" and ZERO_WIDTH not in fragment[0]:
            lines.append([])
    out: Fragments = []
    carried = ""  # escapes of a line with nothing visible go to the start of the next one
    for number, line in enumerate(lines):
        if carried:
            line.insert(0, (ZERO_WIDTH, carried))
            carried = ""
        body = line[:-1] if line and line[-1][1] == "\n" else line
        newline = line[len(body):]
        last = max((i for i, (style, text) in enumerate(body)
                    if ZERO_WIDTH not in style and text), default=None)
        tail = "".join(text for _, text in body[last + 1 if last is not None else 0:])
        if not tail:
            out += line
        elif last is None:
            if number == len(lines) - 1:
                out += line  # a prompt of escapes only: written with the first key typed
            else:
                carried = tail
                out += newline
        else:
            style, char = body[last]
            out += body[:last]
            out.append((ZERO_WIDTH, SAVE_CURSOR + char + tail + RESTORE_CURSOR))
            out.append((style, char))
            out += newline
    return out
