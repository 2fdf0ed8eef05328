"""``filesystem``: read | list | exists | metadata. Never writes.

Every operation passes the file boundary on its argument; ``read`` also on the file really
opened and its whole content (a key under an innocent name past the gate's first look), and
``list`` on every entry (``tools/walk.py``).
"""

from __future__ import annotations

import json
import os
import stat
import time

from swebash.api import JsonObject, ToolSchema
from swebash.errors import ExecutionFailed, InvalidArguments
from swebash.tools.base import Category, GateSubject, ToolContext, ToolExecutor, ToolOutput
from swebash.tools.files import decode_text, files_of, guarded_read, kind_of
from swebash.tools.schema import str_arg
from swebash.tools.walk import listing


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
        boundary = files_of(ctx)
        where = str_arg(args, "path")
        path = boundary.resolve(where, ctx.cwd)
        boundary.require_read(where, ctx.cwd)  # the argument, as the gate judged it
        op = str_arg(args, "operation")
        if op == "read":  # and the file really opened, and its whole content
            data = guarded_read(boundary, path, where, ctx.config.fs_max_size)
            text = decode_text(path, data)
            lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
            return ToolOutput(json.dumps({"path": path, "content": text}),
                              summary=f"read {lines} lines")
        if op == "exists":
            exists = os.path.lexists(path)
            return ToolOutput(json.dumps({"path": path, "exists": exists}),
                              summary="exists" if exists else "does not exist")
        if op == "metadata":
            try:
                info = os.stat(path)
            except OSError as exc:
                raise ExecutionFailed(f"{path}: {exc.strerror}") from None
            meta = {"path": path, "type": kind_of(info.st_mode), "size": info.st_size,
                    "modified": time.strftime("%Y-%m-%dT%H:%M:%S%z",
                                              time.localtime(info.st_mtime)),
                    "permissions": stat.filemode(info.st_mode)}
            return ToolOutput(json.dumps(meta), summary=f"{meta['type']}, {info.st_size} bytes")
        if op == "list":
            return listing(boundary, where, ctx.cwd)
        raise InvalidArguments(f"unknown operation '{op}'")
