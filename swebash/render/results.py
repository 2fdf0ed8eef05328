"""What a person sees of a tool result: a headline and the first lines of its output.

A ``ToolCallEnd`` carries the JSON text the model sees (``{"exit_code": 0, "stdout": …}``,
``{"content": …}``, a list of search hits, ``{"error": …}``) and, usually, a one-line
``summary`` written by the tool. Both the rich panels and the plain printer draw from the
same ``ResultView`` so interactive and piped output say the same thing. Unknown shapes fall
back to the raw text, so a new tool never breaks the display.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from swebash.api import ToolCallEnd

OUTPUT_KEYS = ("stdout", "content", "output", "text", "diff", "result", "message")
EXIT_KEYS = ("exit_code", "exit_status", "returncode", "status_code")


@dataclass(frozen=True)
class ResultView:
    ok: bool  # the call worked and, for a command, exited 0
    headline: str  # "exit 0 · 3 lines · 12 ms"
    lines: tuple[str, ...]  # the output lines to show: the first, or the last for a failure
    more: int  # how many lines were not shown; len(lines) + more == the headline's count
    truncated: bool  # the tool itself cut the output
    tail: bool = False  # lines are the last ones (a failure: errors come at the end)
    exit_code: int | None = None


def plural(count: int, word: str) -> str:
    return word if count == 1 else word + "s"


def format_duration(ms: float) -> str:
    if ms < 1000:
        return f"{ms:.0f} ms"
    if ms < 60_000:
        return f"{ms / 1000:.1f} s"
    return f"{int(ms // 60_000)} min {int(ms % 60_000 // 1000)} s"


# What a failed call's headline says, by the error type the agent gave its result.
FAILURE_WORDS = {"PermissionDenied": "refused", "UserDeclined": "declined",
                 "ConfirmationRequired": "not confirmed", "LimitReached": "not run",
                 "Timeout": "timed out", "UserStopped": "stopped", "Interrupted": "interrupted"}


def error_kind(data: object) -> str | None:
    """The ``type`` of an error result (``{"error": true, "type": …, "message": …}``)."""
    if isinstance(data, dict) and data.get("error") and isinstance(data.get("type"), str):
        return str(data["type"])
    return None


def _output_of(data: object) -> tuple[str, int | None, bool, str | None]:
    """(output text, exit code, truncated flag, error message) from a parsed result."""
    if isinstance(data, str):
        return data, None, False, None
    if isinstance(data, list):
        return "\n".join(_item_line(item) for item in data), None, False, None
    if not isinstance(data, dict):
        return json.dumps(data), None, False, None
    exit_code = next((data[k] for k in EXIT_KEYS if isinstance(data.get(k), int)), None)
    truncated = bool(data.get("truncated"))
    error = data.get("error")
    error_text = error if isinstance(error, str) else (
        str(error.get("message", error)) if isinstance(error, dict) else None)
    parts = [data[k] for k in OUTPUT_KEYS if isinstance(data.get(k), str) and data[k]]
    stderr = data.get("stderr")
    if isinstance(stderr, str) and stderr:
        parts.append(stderr)
    for key in ("results", "matches", "entries", "files"):
        if isinstance(data.get(key), list):
            parts.append("\n".join(_item_line(item) for item in data[key]))
    text = "\n".join(part.rstrip("\n") for part in parts)
    return text, exit_code, truncated, error_text


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


def view_result(end: ToolCallEnd, max_lines: int = 5) -> ResultView:
    """Headline and visible lines for one finished tool call."""
    try:
        data: object = json.loads(end.result)
    except (ValueError, RecursionError):  # not JSON, or nested past the decoder's depth
        data = end.result
    text, exit_code, truncated, error = _output_of(data)
    kind = error_kind(data)
    # Split on newlines only: a bare CR inside a line is content to show, not a line break.
    all_lines = [line.removesuffix("\r") for line in text.rstrip("\n").split("\n")
                 ] if text.strip() else []
    if error and error not in text:
        all_lines.append(error)
    ok = end.ok and not error and kind is None and exit_code in (None, 0)
    tail = not ok
    shown = tuple(all_lines[-max_lines:] if tail else all_lines[:max_lines]) if max_lines else ()
    more = len(all_lines) - len(shown)
    count = len(all_lines)
    lines_part = f"{count} {plural(count, 'line')}"
    if exit_code is not None:  # built from what is shown, so the count equals shown + more
        head_parts = [f"exit {exit_code}", lines_part]
    elif not ok:
        head_parts = [FAILURE_WORDS.get(kind or "", "failed")]
        if count > 1:
            head_parts.append(lines_part)
    elif end.summary:
        head_parts = [end.summary]
    else:
        head_parts = [lines_part]
    if end.duration_ms > 0 or ok:  # a call that never ran has no duration worth showing
        head_parts.append(format_duration(end.duration_ms))
    headline = " · ".join(head_parts)
    return ResultView(ok, headline, shown, more, truncated, tail, exit_code)
