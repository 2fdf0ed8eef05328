"""A bash framework's dotfiles, side by side with ``bash -i``: oh-my-bash, extracted from its git
mirror at test time and installed the way its README does (its template ``~/.bashrc``, a theme,
plugins and completions), then the same keys typed into swebash and into bash, and the screens
(pyte, with colours) compared.

What it checks is what differed before: oh-my-bash's ``set -o noclobber`` broke swebash's own
helper files (an error at every prompt), its arrows bound to ``history-search-backward`` left the
cursor at the start of the recalled line, and its ``bind Space:magic-space`` did not expand
``!!``. Also the powerline theme's exit-status and git segments and PIPESTATUS. The theme is
``powerline`` (no clock in it, so the two prompts are equal to the character).

And what the side-by-side runs with frameworks turned up that is not theirs alone: an empty line
is a line bash reads (prompt expanded anew, a finished job's notice, the job forgotten).
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
import time
from pathlib import Path

import pyte
import pytest

from tests.e2e.conftest import Term

OMB_MIRROR = Path(os.environ.get("SWEBASH_TEST_OMB_MIRROR",
                                 "/work/.mirror/ohmybash+oh-my-bash/repo"))
BASH = shutil.which("bash") or "/bin/bash"
Cell = tuple[str, str, str, bool]


def install_oh_my_bash(home: Path, tree: Path) -> None:
    """Its install script's offline part: the template as ``~/.bashrc`` with the settings
    changed that a user changes (theme, plugins, completions)."""
    (home / ".oh-my-bash").symlink_to(tree)
    rc = (tree / "templates" / "bashrc.osh-template").read_text()
    rc = rc.replace('OSH_THEME="font"', 'OSH_THEME="powerline"')
    rc = rc.replace("  bashmarks\n", "  bashmarks\n  progress\n").replace("  composer\n", "")
    assert 'OSH_THEME="powerline"' in rc and "  progress\n" in rc  # the template still says this
    (home / ".bashrc").write_text(rc)


def extract(mirror: Path, into: Path) -> None:
    archive = subprocess.run(["git", "-C", str(mirror), "archive", "HEAD"], check=True,
                             capture_output=True, timeout=60).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def row(term: Term) -> tuple[int, list[Cell]]:
    """The cursor's row as a person sees it: characters with their colours, and the column."""
    screen: pyte.Screen = term.screen
    line = screen.buffer[screen.cursor.y]
    cells = [(line[x].data, line[x].fg, line[x].bg, line[x].bold) for x in range(screen.columns)]
    while cells and cells[-1] == (" ", "default", "default", False):
        cells.pop()
    return screen.cursor.x, cells


def text_of(cells: list[Cell]) -> str:
    return "".join(cell[0] for cell in cells)


def settle(term: Term, quiet: float = 0.4, limit: float = 10.0) -> None:
    """Until nothing more arrives for ``quiet`` seconds (bash has no marker to wait for)."""
    started = changed = time.monotonic()
    seen = len(term.raw)
    while time.monotonic() - started < limit:
        term.pump(0.05)
        if len(term.raw) != seen:
            seen, changed = len(term.raw), time.monotonic()
        elif time.monotonic() - changed > quiet:
            return


@pytest.mark.skipif(not OMB_MIRROR.is_dir(), reason=f"no oh-my-bash mirror at {OMB_MIRROR}")
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_oh_my_bash_like_bash(term_env: dict[str, str], tmp_path: Path) -> None:
    tree = tmp_path / "oh-my-bash"
    extract(OMB_MIRROR, tree)
    repo = tmp_path / "work" / "repo"
    repo.mkdir(parents=True)
    git_env = {**term_env, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q", str(repo)],
                   check=True, env=git_env)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "one"],
                   check=True, env=git_env)

    terms: dict[str, Term] = {}
    for name in ("bash", "swebash"):
        home = tmp_path / f"home-{name}"
        (home / ".config").mkdir(parents=True)
        install_oh_my_bash(home, tree)
        env = {k: v for k, v in term_env.items() if k != "NO_COLOR"}
        # both read the system's /etc/bash.bashrc, as an interactive bash does
        env.update({"HOME": str(home), "SWEBASH_SYSTEM_DIR": "/etc"})
        cwd = str(tmp_path / "work")
        terms[name] = (Term(env, ["-i"], program=BASH, cwd=cwd) if name == "bash"
                       else Term(env, [], cwd=cwd))
    bash, ours = terms["bash"], terms["swebash"]
    try:
        steps = ["", "false\r", "cd repo\r", "true | false | true; echo ${PIPESTATUS[@]}\r",
                 "echo first\r", "\x1b[A", "\x15echo !! ", "\r"]
        # oh-my-bash's start-up takes a while under load: bash's prompt first, then quiet
        bash.wait_for(lambda t: text_of(row(t)[1]).strip() != "", 30, "bash's prompt")
        for keys in steps:
            for term in (bash, ours):
                term.send(keys)
            settle(bash)
            want = row(bash)
            # on a line being edited the colours are swebash's own (its syntax colouring)
            edited = keys in ("\x1b[A", "\x15echo !! ")

            def seen(term: Term, edited: bool = edited) -> tuple[int, object]:
                x, cells = row(term)
                return (x, text_of(cells)) if edited else (x, cells)

            def same(t: Term) -> bool:
                bash.pump(0.01)  # whatever bash still draws counts too
                return seen(t) == seen(bash) or "cannot overwrite" in t.text()

            ours.wait_for(same, 10, f"the row bash shows after {keys!r}: {text_of(want[1])!r}")
            assert "cannot overwrite" not in ours.text()  # noclobber vs swebash's own files
        screen = ours.text()
        assert "0 1 0" in screen and "echo echo first" in screen
    finally:
        for term in (bash, ours):
            term.close()


def test_empty_line_and_case_blind_patterns_like_bash(term_env: dict[str, str],
                                                      tmp_path: Path) -> None:
    """An empty line is a line bash reads: its prompt is expanded anew and a finished job's
    notice prints, and the job is gone (the next one is [1] again), with no PROMPT_COMMAND
    (swebash only went back to bash for an empty line when there was one). And an rc with
    ``shopt -s nocasematch`` and ``set -E``: swebash read the E in ``$-`` as errexit and the
    shell ended at the first failing command."""
    terms: dict[str, Term] = {}
    for name in ("bash", "swebash"):
        home = tmp_path / f"home-{name}"
        (home / ".config").mkdir(parents=True)
        (home / ".bashrc").write_text("shopt -s nocasematch\nset -E\n"
                                      "PS1='$? [$(cat ~/mark)] $ '\n")
        (home / "mark").write_text("one")
        env = {**term_env, "HOME": str(home)}
        terms[name] = (Term(env, ["--noprofile", "-i"], program=BASH) if name == "bash"
                       else Term(env, []))
    try:
        for name, term in terms.items():
            term.wait_text("0 [one] $")
            term.send("false\r")
            term.wait_text("1 [one] $")
            term.send("sleep 0.2 &\r")
            term.wait_text("[1] ")
            time.sleep(0.5)  # the job has ended
            (tmp_path / f"home-{name}" / "mark").write_text("two")
            term.send("\r")
            term.wait_text("0 [two] $")
            term.send("sleep 0.1 &\r")
            term.wait_for(lambda t: t.text().count("[1] ") == 2, 10, "the next job as [1]")
            settle(term, 0.3)
        bash, ours = (terms[name].text().splitlines() for name in ("bash", "swebash"))
        assert any("[1]+  Done" in line for line in bash)
        strip = [line.split("[1] ")[0] for line in bash], [line.split("[1] ")[0] for line in ours]
        assert strip[1] == strip[0], (bash, ours)  # same rows (job pids aside)
    finally:
        for term in terms.values():
            term.close()
