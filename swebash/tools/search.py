"""``search_text`` (grep-like), ``list_files`` and ``task_complete`` (the model says it is done).

``search_text`` and ``list_files`` open and list through the file boundary (``tools/walk.py``):
every file and directory, not just the argument, so a search from ``~`` names the secrets it
skipped instead of reading them. The pattern runs in RE2 (``tools/pattern.py``) on each file's
redacted whole text, in a worker thread, bounded in files, bytes, entries and time.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading

from swebash.api import JsonObject, JsonValue, ToolSchema
from swebash.errors import ExecutionFailed
from swebash.safety.boundary import FileBoundary
from swebash.safety.paths import within
from swebash.tools.base import Category, GateSubject, ToolContext, ToolExecutor, ToolOutput
from swebash.tools.files import files_of, looks_binary
from swebash.tools.pattern import LinePattern
from swebash.tools.schema import str_arg
from swebash.tools.walk import Walk, WalkLimits, listing

MAX_MATCHES = 200
MAX_LINE = 300
WALK_LIMITS = WalkLimits()


class SearchTextTool(ToolExecutor):
    name = "search_text"
    category: Category = "fs"

    def definition(self) -> ToolSchema:
        return ToolSchema(self.name, "Search text files for a regular expression (like grep -rn)."
                          " Returns file, line number and line for each match (capped); skips "
                          "binary files, .git and secret files (it names the secrets skipped). "
                          "RE2 syntax: no look-around or backreferences.", {
                              "type": "object",
                              "properties": {
                                  "pattern": {"type": "string",
                                              "description": "Regular expression (RE2 syntax, "
                                                             "matched per line)"},
                                  "path": {"type": "string", "default": ".",
                                           "description": "File or directory to search"},
                              },
                              "required": ["pattern"],
                          })

    def describe_call(self, args: JsonObject) -> str:
        return f"search /{args.get('pattern', '')}/ in {args.get('path', '.')}"

    def gate_subject(self, args: JsonObject) -> GateSubject:
        return GateSubject("read_path", str(args.get("path", ".")))

    async def execute(self, args: JsonObject, ctx: ToolContext) -> ToolOutput:
        pattern = LinePattern(str_arg(args, "pattern"))
        boundary = files_of(ctx)
        where = str_arg(args, "path") or "."
        root = boundary.resolve(where, ctx.cwd)
        boundary.require_read(where, ctx.cwd)
        if not os.path.lexists(root):
            raise ExecutionFailed(f"{where}: no such file or directory")
        stop = threading.Event()
        try:
            return await asyncio.to_thread(search, pattern, boundary, root, ctx.cwd, stop)
        finally:
            stop.set()  # a cancelled call's walk ends at its next file


def search(pattern: LinePattern, boundary: FileBoundary, root: str, cwd: str,
           stop: threading.Event) -> ToolOutput:
    walk = Walk(boundary, root, WALK_LIMITS, stop)
    matches: list[JsonValue] = []
    for path, data in walk.texts():
        if looks_binary(data):
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        # redacted whole, before the pattern sees it: no per-line probe of a token or a key
        clean = boundary.redact(text).encode("utf-8")
        for number, line in pattern.lines(clean, walk.over):
            matches.append({"file": shown_path(path, cwd), "line": number,
                            "text": line.decode("utf-8", "replace")[:MAX_LINE]})
            if len(matches) >= MAX_MATCHES:
                walk.halt(f"stopped at {MAX_MATCHES} matches")
                break
        if walk.over():
            break
    notes = walk.notes()
    result: JsonObject = {"matches": matches, "truncated": walk.stopped is not None, **notes}
    summary = [f"{len(matches)} match{'' if len(matches) == 1 else 'es'}"]
    summary += [str(notes[k]).split(":")[0].split(";")[0] for k in ("skipped", "stopped")
                if k in notes]
    return ToolOutput(json.dumps(result), summary=" · ".join(summary),
                      truncated=walk.stopped is not None)


def shown_path(path: str, cwd: str) -> str:
    """Relative to the shell's directory when inside it, else absolute."""
    path = os.path.normpath(path)
    return os.path.relpath(path, cwd) if within(path, cwd) else path


class ListFilesTool(ToolExecutor):
    name = "list_files"
    category: Category = "fs"

    def definition(self) -> ToolSchema:
        return ToolSchema(self.name, "List files in a directory (name, type, size); secret "
                          "entries are not shown but named as skipped.", {
                              "type": "object",
                              "properties": {"path": {"type": "string", "default": ".",
                                                      "description": "Directory path "
                                                                     "(default: current)"}},
                          })

    def describe_call(self, args: JsonObject) -> str:
        return f"list {args.get('path') or '.'}"

    def gate_subject(self, args: JsonObject) -> GateSubject:
        return GateSubject("read_path", str(args.get("path") or "."))

    async def execute(self, args: JsonObject, ctx: ToolContext) -> ToolOutput:
        return listing(files_of(ctx), str_arg(args, "path") or ".", ctx.cwd)


class TaskCompleteTool(ToolExecutor):
    name = "task_complete"
    category: Category = "meta"

    def definition(self) -> ToolSchema:
        return ToolSchema(self.name, "Signal that the task is complete and give a summary of "
                          "what was accomplished. Ends the run.", {
                              "type": "object",
                              "properties": {"summary": {"type": "string",
                                                         "description": "What was done"}},
                              "required": ["summary"],
                          })

    def describe_call(self, args: JsonObject) -> str:
        return "task complete"

    async def execute(self, args: JsonObject, ctx: ToolContext) -> ToolOutput:
        return ToolOutput(json.dumps({"status": "complete", "summary": str_arg(args, "summary")}),
                          summary="task complete")
