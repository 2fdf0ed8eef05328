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
    ok: bool
    headline: str  # "exit 0 · 3 lines · 12 ms"
    lines: tuple[str, ...]  # the first output lines to show
    more: int  # how many further lines were not shown
    truncated: bool  # the tool itself cut the output


def format_duration(ms: float) -> str:
    if ms < 1000:
        return f"{ms:.0f} ms"
    if ms < 60_000:
        return f"{ms / 1000:.1f} s"
    return f"{int(ms // 60_000)} min {int(ms % 60_000 // 1000)} s"


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
    except ValueError:
        data = end.result
    text, exit_code, truncated, error = _output_of(data)
    # Split on newlines only: a bare CR inside a line is content to show, not a line break.
    all_lines = [line.removesuffix("\r") for line in text.rstrip("\n").split("\n")
                 ] if text.strip() else []
    if error and error not in text:
        all_lines.insert(0, error)
    shown = tuple(all_lines[:max_lines])
    more = len(all_lines) - len(shown)
    if end.summary:
        head_parts = [end.summary]
    else:
        head_parts = []
        if exit_code is not None:
            head_parts.append(f"exit {exit_code}")
        elif not end.ok:
            head_parts.append("failed")
        count = len(all_lines)
        head_parts.append(f"{count} line" + ("" if count == 1 else "s"))
    head_parts.append(format_duration(end.duration_ms))
    headline = " · ".join(head_parts)
    return ResultView(end.ok, headline, shown, more, truncated)
