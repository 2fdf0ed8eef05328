"""Replaying the real byte stream through a terminal emulator (pyte) for render tests."""

from __future__ import annotations

import io

import pyte
from pyte.screens import Char
from rich.console import Console

from swebash.render.markdown import MarkdownMaker

# A 2.4 KB answer with everything that used to get lost: a title, a table, a block quote, a
# nested list, a fence with blank lines, an apostrophe, and long paragraphs that wrap.
LONG_ANSWER = """# Why `git push` doesn't work

Your branch has **no upstream** configured, so git doesn't know where to push. This happens \
after creating a branch locally with `git switch -c feature` and never pushing it before.

## What to check

| check | command | expected |
|---|---|---|
| current branch | `git branch --show-current` | `feature` |
| remotes | `git remote -v` | `origin` with a URL |
| upstream | `git rev-parse @{u}` | an error right now |

> **Note:** the error message already suggests the fix; git prints it as a hint, and many \
people skip over it because it is long and grey.

1. Set the upstream once:
   - either push with `-u`:
     ```bash
     git push -u origin feature
     ```
   - or configure it without pushing:

     ```bash
     git branch --set-upstream-to=origin/feature
     ```
2. From then on a plain `git push` works.
   - `git status` shows *ahead 1* or *behind 2* relative to the remote.
   - `git pull` knows where to pull from.

## If it still fails

```text
! [rejected]        feature -> feature (non-fast-forward)
error: failed to push some refs to 'origin'

hint: Updates were rejected because the tip of your current branch is behind
```

That one means someone pushed before you: run `git pull --rebase`, fix any conflicts, then \
push again. Never use `--force` on a shared branch; `--force-with-lease` is the safer choice \
when you really rewrote history on purpose.

## Background

Git keeps, for every local branch, an optional *upstream*: the remote branch it tracks. The \
upstream is what `git status` compares against, what `git pull` merges from and what a plain \
`git push` pushes to. A branch created from a remote branch (`git switch feature` when only \
`origin/feature` exists) gets one automatically; a branch you start yourself does not.

> Tip: `git branch -vv` lists every branch with its upstream in brackets, so a missing one
> stands out at a glance.
>
> - `[origin/main]` — tracking, nothing to do
> - no brackets — no upstream yet

1. Run `git branch -vv`.
2. Find branches without brackets.
   1. Push each once with `-u`.
   2. Or delete the ones you don't need.

---

- Automatic upstream: `git config --global push.autoSetupRemote true` makes the first \
`git push` set it for you.
- Check your credentials with `ssh -T git@github.com` if the remote uses SSH.

That's all — the short version: **`git push -u origin HEAD`**.
"""


def terminal_console(width: int, height: int = 24) -> Console:
    return Console(file=io.StringIO(), width=width, height=height, force_terminal=True,
                   color_system="256", legacy_windows=False)


def _row(line: dict[int, Char], columns: int) -> str:
    return "".join(line[x].data for x in range(columns)).rstrip()


def replay(output: str, columns: int, lines: int = 24,
           resizes: dict[int, int] | None = None) -> list[str]:
    """Feed ``output`` (as a tty with ONLCR would pass it) to an emulator; scrollback + screen.

    ``resizes`` maps a character offset in ``output`` to a new width applied there.
    """
    screen = pyte.HistoryScreen(columns, lines, history=100_000, ratio=0.001)
    stream = pyte.Stream(screen)
    data = output.replace("\n", "\r\n")
    offsets = sorted((resizes or {}).items())
    position = 0
    for offset, width in offsets:
        stream.feed(data[position:offset])
        screen.resize(lines, width)
        position = offset
    stream.feed(data[position:])
    rows = [_row(line, screen.columns) for line in screen.history.top]
    rows += [row.rstrip() for row in screen.display]
    while rows and not rows[-1]:
        rows.pop()
    return rows


def render_once(text: str, width: int, height: int = 24, before: str = "") -> str:
    console = terminal_console(width, height)
    if before:
        console.file.write(before)
    console.print(MarkdownMaker().make(text), crop=False)
    value: str = console.file.getvalue()  # type: ignore[attr-defined]
    return value


# --------------------------------------------------------------------------- a reflowing terminal

# Marks a row the terminal wrapped on its own (autowrap): it continues on the next row, and a
# reflowing terminal joins the two when the width changes. Kept under a key no column uses, so
# it moves with the row when the screen scrolls and an erase of the row clears it.
_WRAPPED = Char("\x00wrapped")


class ReflowScreen(pyte.HistoryScreen):
    """A terminal that rewraps its lines when the width changes, the way tmux 3.3 does.

    Measured in tmux (see the design note in swebash/render/terminal.py): rows it wrapped itself
    are joined and rewrapped at the new width, rows ended by CR LF stay separate lines; the
    cursor keeps its screen row, so when the lines above it grow on narrowing, the top ones go
    into the scrollback (out of reach of cursor-up), and on widening lines come back from it.
    And tmux's ``scroll-on-clear`` (on by default): erasing to the end of the screen from its
    top-left corner moves what was on screen into the scrollback instead of erasing it.
    """

    def erase_in_display(self, how: int = 0, *args: object, **kwargs: object) -> None:
        if how == 0 and self.cursor.x == 0 and self.cursor.y == 0:
            used = [y for y in range(self.lines)
                    if any(self.buffer[y][x].data != " " for x in range(self.columns))]
            for y in range(used[-1] + 1 if used else 0):
                self.history.top.append(self.buffer[y])
                self.buffer[y] = pyte.screens.StaticDefaultDict(self.default_char)
        super().erase_in_display(how, *args, **kwargs)

    def draw(self, data: str) -> None:
        for char in data:  # one at a time, to see which row wraps
            if (self.cursor.x == self.columns and pyte.modes.DECAWM in self.mode
                    and pyte.screens.wcwidth(char) > 0):
                self.buffer[self.cursor.y][-1] = _WRAPPED
            super().draw(char)

    def erase_in_line(self, how: int = 0, private: bool = False) -> None:
        super().erase_in_line(how, private)
        if how == 2 or (how == 0 and self.cursor.x == 0):
            self.buffer[self.cursor.y].pop(-1, None)

    def resize(self, lines: int | None = None, columns: int | None = None) -> None:
        lines = lines or self.lines
        columns = columns or self.columns
        if columns == self.columns:
            super().resize(lines, columns)
            return
        assert lines == self.lines, "only the width changes in these tests"
        old = self.columns
        rows = list(self.history.top) + [self.buffer[y] for y in range(self.lines)]
        cursor_row = len(self.history.top) + self.cursor.y
        logical: list[list[Char]] = []
        current: list[Char] = []
        cursor_at = (0, 0)
        for index, row in enumerate(rows):
            wrapped = row.get(-1) is _WRAPPED
            cells = [row[x] for x in range(old)]
            if not wrapped:
                while cells and cells[-1].data == " ":
                    cells.pop()
            if index == cursor_row:
                cursor_at = (len(logical), len(current) + self.cursor.x)
            current.extend(cells)
            if not wrapped:
                logical.append(current)
                current = []
        if current:
            logical.append(current)
        new_rows: list[dict[int, Char]] = []
        cursor_y = cursor_x = 0
        for number, cells in enumerate(logical):
            count = max(1, -(-len(cells) // columns))
            if number == cursor_at[0]:
                offset = cursor_at[1]
                row_in, cursor_x = divmod(offset, columns)
                if offset and not cursor_x and offset >= len(cells):
                    row_in, cursor_x = row_in - 1, columns  # at the end: pending wrap
                count = max(count, row_in + 1)
                cursor_y = len(new_rows) + row_in
            for part in range(count):
                line = pyte.screens.StaticDefaultDict(self.default_char)
                for x, char in enumerate(cells[part * columns:(part + 1) * columns]):
                    line[x] = char
                if part < count - 1 and (part + 1) * columns < len(cells):
                    line[-1] = _WRAPPED
                new_rows.append(line)
        history = max(0, cursor_y - self.cursor.y)
        self.history.top.clear()
        self.history.top.extend(new_rows[:history])
        self.buffer.clear()
        for y, line in enumerate(new_rows[history:history + lines]):
            self.buffer[y] = line
        self.columns = columns
        self.cursor.y, self.cursor.x = cursor_y - history, cursor_x
        self.set_margins()
        self.dirty.update(range(lines))


def replay_on(screen: pyte.HistoryScreen, output: str,
              resizes: dict[int, int] | None = None) -> list[str]:
    """Feed ``output`` (as a tty with ONLCR passes it) to ``screen``, changing its width at the
    given offsets; scrollback + screen as rows, trailing blank rows dropped."""
    stream = pyte.Stream(screen)
    data = output.replace("\n", "\r\n")
    position = 0
    for offset, width in sorted((resizes or {}).items()):
        shifted = offset + output.count("\n", 0, offset)  # the same place after ONLCR
        stream.feed(data[position:shifted])
        screen.resize(screen.lines, width)
        position = shifted
    stream.feed(data[position:])
    rows = [_row(line, screen.columns) for line in screen.history.top]
    rows += [row.rstrip() for row in screen.display]
    while rows and not rows[-1]:
        rows.pop()
    return rows


def all_rows(screen: pyte.HistoryScreen) -> list[dict[int, Char]]:
    """Scrollback and screen rows of ``screen``, top to bottom."""
    return list(screen.history.top) + [screen.buffer[y] for y in range(screen.lines)]


def copied(screen: pyte.HistoryScreen, first: int, last: int) -> str:
    """The text a person gets selecting rows ``first``..``last`` (indices into ``all_rows``)
    and copying it: like terminals do, a row the terminal wrapped itself runs on into the next
    without a line break, trailing blanks of other rows are dropped."""
    rows = all_rows(screen)
    out: list[str] = []
    for row in rows[first:last + 1]:
        text = "".join(row[x].data for x in range(screen.columns))
        out.append(text if row.get(-1) is _WRAPPED else text.rstrip() + "\n")
    return "".join(out).removesuffix("\n")


def replay_screen(output: str, columns: int, lines: int = 24) -> ReflowScreen:
    """``output`` fed (as a tty with ONLCR passes it) to a fresh tmux-like screen."""
    screen = ReflowScreen(columns, lines, history=100_000, ratio=0.001)
    pyte.Stream(screen).feed(output.replace("\n", "\r\n"))
    return screen


def row_texts(screen: pyte.HistoryScreen) -> list[str]:
    return [_row(row, screen.columns) for row in all_rows(screen)]
