"""What a person sees of a tool result: a status and the few lines that matter.

A ``ToolCallEnd`` carries the JSON text the model sees (``{"exit_code": 0, "stdout": …}``,
``{"path": …, "content": …}``, ``{"matches": […]}``, a list of web hits, ``{"error": …}``) and,
usually, a one-line ``summary`` written by the tool. The compact and boxed displays and the
plain printer all draw from the same ``ResultView``, so they say the same thing. Known shapes
get their own words — a search is counted in matches and shown grep-style (``file:line:
text``), a directory in entries, web hits in results, a file read is one count, not its text —
and every count has its plural right ("1 line", "2 matches"). Unknown shapes fall back to the
raw text, so a new tool never breaks the display.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from swebash.api import ToolCallEnd
from swebash.visible import one_line
from swebash.wording import counted, plural

OUTPUT_KEYS = ("stdout", "content", "output", "text", "diff", "result", "message")
EXIT_KEYS = ("exit_code", "exit_status", "returncode", "status_code")

# What a failed call's status says, by the error type the agent gave its result.
FAILURE_WORDS = {"PermissionDenied": "refused", "UserDeclined": "declined",
                 "ConfirmationRequired": "not confirmed", "LimitReached": "not run",
                 "Timeout": "timed out", "UserStopped": "stopped", "Interrupted": "interrupted"}


def format_duration(ms: float) -> str:
    if ms < 1000:
        return f"{ms:.0f} ms"
    if ms < 60_000:
        return f"{ms / 1000:.1f} s"
    return f"{int(ms // 60_000)} min {int(ms % 60_000 // 1000)} s"


@dataclass(frozen=True)
class ResultView:
    ok: bool  # the call worked and, for a command, exited 0
    lines: tuple[str, ...]  # the items to show: the first, or the last for a failure
    more: int  # items not shown; len(lines) + more == count
    count: int  # items in the output: lines, matches, entries, results
    noun: str  # what an item is: "line", "match", "entry", "result"
    truncated: bool  # the tool itself cut the output
    tail: bool = False  # lines are the last ones (a failure: errors come at the end)
    exit_code: int | None = None
    outcome: str = ""  # "exit 1", "refused", "failed"; "" for a plain success
    measure: str = ""  # "120 lines", "8 matches in 3 files", a tool's summary
    duration: str = ""  # "12 ms"; "" for a call that never ran

    @property
    def headline(self) -> str:
        """Everything about the result on one line: "exit 0 · 3 lines · 12 ms"."""
        count = ""
        if self.exit_code is not None:
            count = counted(self.count, "line") if self.count else "no output"
        return " · ".join(part for part in (self.outcome, count or self.measure, self.duration)
                          if part)

    @property
    def status(self) -> str:
        """The status next to a call in the compact display: what its shown items do not
        say (a command's lines are shown and "+N lines" counts the rest)."""
        count = "no output" if self.exit_code is not None and not self.count else ""
        return " · ".join(part for part in (self.outcome, count or self.measure, self.duration)
                          if part)

    @property
    def more_text(self) -> str:
        return f"+{self.more} {plural(self.more, self.noun)}"


def error_kind(data: object) -> str | None:
    """The ``type`` of an error result (``{"error": true, "type": …, "message": …}``)."""
    if isinstance(data, dict) and data.get("error") and isinstance(data.get("type"), str):
        return str(data["type"])
    return None


@dataclass
class _Output:
    items: list[str]
    noun: str = "line"
    measure: str = ""  # how the items are counted in the status, when not "N lines"
    show: bool = True  # a file read is counted, not shown
    exit_code: int | None = None
    truncated: bool = False
    error: str | None = None


def _output_of(data: object) -> _Output:
    if isinstance(data, str):
        return _Output(_split(data))
    if isinstance(data, list):  # web search hits
        return _Output([_item_line(item) for item in data], "result")
    if not isinstance(data, dict):
        return _Output(_split(json.dumps(data)))
    exit_code = next((data[k] for k in EXIT_KEYS if isinstance(data.get(k), int)
                      and not isinstance(data.get(k), bool)), None)
    truncated = bool(data.get("truncated"))
    error = data.get("error")
    error_text = error if isinstance(error, str) else (
        str(error.get("message", error)) if isinstance(error, dict) else None)
    if error is True and isinstance(data.get("message"), str):
        error_text = str(data["message"])
    if isinstance(data.get("matches"), list):
        matches = data["matches"]
        files = {m.get("file") for m in matches if isinstance(m, dict)}
        measure = counted(len(matches), "match") + (
            f" in {counted(len(files), 'file')}" if matches else "") + _left_out(data)
        return _Output([_match_line(m) for m in matches], "match", measure,
                       truncated=truncated, error=error_text)
    if isinstance(data.get("entries"), list):
        entries = data["entries"]
        hidden = _leading_int(data.get("truncated"))
        count = len(entries) + hidden
        items = [_entry_line(e) for e in entries] + [""] * hidden
        return _Output(items, "entry", counted(count, "entry") + _left_out(data),
                       error=error_text)
    if isinstance(data.get("results"), list):
        return _Output([_item_line(item) for item in data["results"]], "result",
                       truncated=truncated, error=error_text)
    if set(data) == {"path", "content"} and isinstance(data["content"], str):  # a file read
        return _Output(_split(data["content"]), show=False)
    parts = [data[k] for k in OUTPUT_KEYS if isinstance(data.get(k), str) and data[k]]
    stderr = data.get("stderr")
    if isinstance(stderr, str) and stderr:
        parts.append(stderr)
    text = "\n".join(part.rstrip("\n") for part in parts)
    return _Output(_split(text), exit_code=exit_code, truncated=truncated, error=error_text)


def _left_out(data: dict[str, object]) -> str:
    """What a search or listing left out, short (" · skipped 10 secret files · …"): the file
    tools' notes without the names (the model reads those in the result)."""
    parts: list[str] = []
    for key, cut, suffix in (("skipped", ":", ""), ("not_searched", "", " not searched"),
                             ("stopped", ";", "")):
        value = data.get(key)
        if isinstance(value, str) and value:
            parts.append(one_line((value.split(cut)[0] if cut else value).strip()) + suffix)
    return "".join(f" · {part}" for part in parts)


def _split(text: str) -> list[str]:
    # Split on newlines only: a bare CR inside a line is content to show, not a line break.
    if not text.strip():
        return []
    return [line.removesuffix("\r") for line in text.rstrip("\n").split("\n")]


def _leading_int(value: object) -> int:
    if isinstance(value, str) and value.split(" ", 1)[0].isdigit():
        return int(value.split(" ", 1)[0])
    return 0


def _match_line(item: object) -> str:
    if isinstance(item, dict) and "file" in item:
        line = item.get("line")
        return f"{item['file']}:{line}: {item.get('text', '')}" if line else str(item["file"])
    return _item_line(item)


def _entry_line(item: object) -> str:
    if isinstance(item, dict) and "name" in item:
        return str(item["name"]) + ("/" if item.get("type") == "directory" else "")
    return _item_line(item)


def _item_line(item: object) -> str:
    if isinstance(item, dict):
        title = item.get("title") or item.get("name") or item.get("path")
        url = item.get("url") or item.get("href")
        if title and url:
            return f"{title} — {url}"
        if title:
            return str(title)
        return json.dumps(item, ensure_ascii=False)
    return str(item)


def view_result(end: ToolCallEnd, max_lines: int = 5, fail_lines: int | None = None
                ) -> ResultView:
    """Status and visible items for one finished tool call: the first ``max_lines`` items of
    a success, the last ``fail_lines`` (default: as many) of a failure."""
    try:
        data: object = json.loads(end.result)
    except (ValueError, RecursionError):  # not JSON, or nested past the decoder's depth
        data = end.result
    output = _output_of(data)
    kind = error_kind(data)
    items = output.items
    if output.error and output.error not in "\n".join(items):
        items = [*items, output.error]
    ok = end.ok and not output.error and kind is None and output.exit_code in (None, 0)
    tail = not ok
    limit = max_lines if ok else (max_lines if fail_lines is None else fail_lines)
    shown: list[str] = []
    if output.show and limit:
        shown = items[-limit:] if tail else items[:limit]
    shown = [line for line in shown if line] if output.noun == "entry" else shown
    if output.exit_code is not None:
        outcome = f"exit {output.exit_code}"
    elif not ok:
        outcome = FAILURE_WORDS.get(kind or "", "failed")
    else:
        outcome = ""
    if output.exit_code is not None:
        measure = ""
    elif not ok:
        measure = counted(len(items), output.noun) if len(items) > 1 else ""
    elif output.measure:
        measure = output.measure
    elif items or not output.show or output.noun != "line":
        measure = counted(len(items), output.noun)
    else:
        measure = end.summary  # nothing to show: the tool's own words ("created a.txt, 9 bytes")
    duration = format_duration(end.duration_ms) if end.duration_ms > 0 or ok else ""
    return ResultView(ok, tuple(shown), len(items) - len(shown), len(items), output.noun,
                      output.truncated, tail, output.exit_code, outcome, measure, duration)
