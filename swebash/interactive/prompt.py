"""The prompt: user@host, cwd with ~, git branch, last exit status when non-zero.

The git branch is read from ``.git/HEAD`` walking up from the cwd (worktrees and submodules
follow their ``gitdir:`` file) — no git process per prompt.
"""

from __future__ import annotations

import getpass
import os
import socket
from pathlib import Path

from swebash.config import PromptConfig

Fragments = list[tuple[str, str]]


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
    return user, socket.gethostname().split(".")[0]


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
