"""``filesystem``: read | list | exists | metadata. Never writes."""

from __future__ import annotations

import json
import os
import stat
import time

from swebash.api import JsonObject, JsonValue, ToolSchema
from swebash.errors import ExecutionFailed, InvalidArguments
from swebash.tools.base import Category, GateSubject, ToolContext, ToolExecutor, ToolOutput
from swebash.tools.files import kind_of, read_text, resolve
from swebash.tools.schema import str_arg

MAX_LIST = 500


class FilesystemTool(ToolExecutor):
    name = "filesystem"
    category: Category = "fs"

    def definition(self) -> ToolSchema:
        return ToolSchema(self.name, (
            "Read files and inspect directories (read-only). Can read a text file's contents, "
            "list a directory, check whether a path exists, and get size/mtime/permissions. "
            "Paths are absolute or relative to the shell's current directory."), {
            "type": "object",
            "properties": {
                "operation": {"type": "string", "enum": ["read", "list", "exists", "metadata"],
                              "description": "The operation to perform"},
                "path": {"type": "string",
                         "description": "The file or directory path (absolute or relative "
                                        "to cwd)"},
            },
            "required": ["operation", "path"],
        })

    def describe_call(self, args: JsonObject) -> str:
        verb = {"read": "read", "list": "list", "exists": "exists?", "metadata": "stat"}
        return f"{verb.get(str(args.get('operation')), 'fs')} {args.get('path', '')}"

    def gate_subject(self, args: JsonObject) -> GateSubject:
        return GateSubject("read_path", str(args.get("path", "")))

    async def execute(self, args: JsonObject, ctx: ToolContext) -> ToolOutput:
        path = resolve(str_arg(args, "path"), ctx.cwd)
        op = str_arg(args, "operation")
        if op == "read":
            text = read_text(path, ctx.config.fs_max_size)
            lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
            return ToolOutput(json.dumps({"path": str(path), "content": text}),
                              summary=f"read {lines} lines")
        if op == "exists":
            exists = os.path.lexists(path)
            return ToolOutput(json.dumps({"path": str(path), "exists": exists}),
                              summary="exists" if exists else "does not exist")
        if op == "metadata":
            try:
                info = os.stat(path)
            except OSError as exc:
                raise ExecutionFailed(f"{path}: {exc.strerror}") from None
            meta = {"path": str(path), "type": kind_of(info.st_mode), "size": info.st_size,
                    "modified": time.strftime("%Y-%m-%dT%H:%M:%S%z",
                                              time.localtime(info.st_mtime)),
                    "permissions": stat.filemode(info.st_mode)}
            return ToolOutput(json.dumps(meta), summary=f"{meta['type']}, {info.st_size} bytes")
        if op == "list":
            return list_directory(str(path))
        raise InvalidArguments(f"unknown operation '{op}'")


def list_directory(path: str) -> ToolOutput:
    try:
        with os.scandir(path) as it:
            entries = sorted(it, key=lambda e: e.name)
    except NotADirectoryError:
        raise ExecutionFailed(f"{path}: not a directory") from None
    except OSError as exc:
        raise ExecutionFailed(f"{path}: {exc.strerror}") from None
    shown: list[JsonValue] = []
    for entry in entries[:MAX_LIST]:
        try:
            info = entry.stat(follow_symlinks=False)
            shown.append({"name": entry.name, "type": kind_of(info.st_mode),
                          "size": info.st_size})
        except OSError:
            shown.append({"name": entry.name, "type": "unknown", "size": 0})
    result: JsonObject = {"path": path, "entries": shown}
    if len(entries) > MAX_LIST:
        result["truncated"] = f"{len(entries) - MAX_LIST} more entries not shown"
    return ToolOutput(json.dumps(result), summary=f"{len(entries)} entries",
                      truncated=len(entries) > MAX_LIST)
