"""``search_text`` (grep-like), ``list_files`` and ``task_complete`` (the model says it is done)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

from swebash.api import JsonObject, JsonValue, ToolSchema
from swebash.errors import ExecutionFailed, InvalidArguments, SwebashError
from swebash.tools.base import Category, GateSubject, ToolContext, ToolExecutor, ToolOutput
from swebash.tools.files import read_text, resolve
from swebash.tools.fs import list_directory
from swebash.tools.schema import str_arg

MAX_MATCHES = 200
MAX_FILES = 5000
MAX_LINE = 300
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", ".tox",
                       ".mypy_cache"})
SEARCH_FILE_CAP = 2 * 1024 * 1024


class SearchTextTool(ToolExecutor):
    name = "search_text"
    category: Category = "fs"

    def definition(self) -> ToolSchema:
        return ToolSchema(self.name, "Search text files for a regular expression (like grep -rn)."
                          " Returns file, line number and line for each match (capped); skips "
                          "binary files and .git.", {
                              "type": "object",
                              "properties": {
                                  "pattern": {"type": "string",
                                              "description": "Python regular expression"},
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
        try:
            regex = re.compile(str_arg(args, "pattern"))
        except re.error as exc:
            raise InvalidArguments(f"bad pattern: {exc}") from None
        root = resolve(str_arg(args, "path") or ".", ctx.cwd)
        if not root.exists():
            raise ExecutionFailed(f"{root}: no such file or directory")
        matches: list[JsonValue] = []
        files = 0
        for path in walk(str(root)):
            files += 1
            if files > MAX_FILES or len(matches) >= MAX_MATCHES:
                break
            try:
                text = read_text(Path(path), SEARCH_FILE_CAP)
            except SwebashError:
                continue
            for number, line in enumerate(text.splitlines(), 1):
                if regex.search(line):
                    matches.append({"file": os.path.relpath(path, ctx.cwd), "line": number,
                                    "text": line[:MAX_LINE]})
                    if len(matches) >= MAX_MATCHES:
                        break
        capped = len(matches) >= MAX_MATCHES or files > MAX_FILES
        result: JsonObject = {"matches": matches, "truncated": capped}
        return ToolOutput(json.dumps(result), summary=f"{len(matches)} matches",
                          truncated=capped)


def walk(root: str) -> Iterator[str]:
    if os.path.isfile(root):
        yield root
        return
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            yield os.path.join(dirpath, name)


class ListFilesTool(ToolExecutor):
    name = "list_files"
    category: Category = "fs"

    def definition(self) -> ToolSchema:
        return ToolSchema(self.name, "List files in a directory (name, type, size).", {
            "type": "object",
            "properties": {"path": {"type": "string", "default": ".",
                                    "description": "Directory path (default: current)"}},
        })

    def describe_call(self, args: JsonObject) -> str:
        return f"list {args.get('path') or '.'}"

    def gate_subject(self, args: JsonObject) -> GateSubject:
        return GateSubject("read_path", str(args.get("path") or "."))

    async def execute(self, args: JsonObject, ctx: ToolContext) -> ToolOutput:
        return list_directory(str(resolve(str_arg(args, "path") or ".", ctx.cwd)))


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
