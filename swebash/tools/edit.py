"""``write_file`` and ``edit_file``: always confirmed, atomic writes inside the file boundary.

``preview`` gives the confirmation panel a unified diff (or the new file's head) computed from
the file as it is now, so the user approves exactly the change that will be made.

Where a write may land is the file boundary's (``safety/boundary.py``): the sandbox's writable
tree asks as any write does; outside it or at a protected place (``.git``, startup files,
swebash's and git's config) only a person can approve. ``execute`` writes to the place
``FileBoundary.write_target`` returns — the one judged at approval, or none.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from swebash.api import JsonObject, ToolSchema
from swebash.errors import ExecutionFailed, SwebashError, ToolError
from swebash.safety.base import REDACTED
from swebash.tools.base import Category, GateSubject, ToolContext, ToolExecutor, ToolOutput
from swebash.tools.files import files_of, read_text, write_atomic
from swebash.tools.schema import str_arg

PREVIEW_LINES = 400


def unified_diff(old: str, new: str, name: str) -> str:
    diff = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                fromfile=f"a/{name}", tofile=f"b/{name}")
    lines = list(diff)[:PREVIEW_LINES]
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def current_text(path: Path, ctx: ToolContext) -> str | None:
    if not path.exists():
        return None
    return read_text(path, ctx.config.fs_max_size)


def argument_path(args: JsonObject, ctx: ToolContext) -> Path:
    return Path(files_of(ctx).resolve(str_arg(args, "path"), ctx.cwd))


class WriteFileTool(ToolExecutor):
    name = "write_file"
    category: Category = "fs"

    def definition(self) -> ToolSchema:
        return ToolSchema(self.name, "Write content to a file (creating or overwriting it). "
                          "Creates parent directories if needed. The user approves every write.", {
                              "type": "object",
                              "properties": {
                                  "path": {"type": "string",
                                           "description": "File path (relative to cwd)"},
                                  "content": {"type": "string",
                                              "description": "The complete new content"},
                              },
                              "required": ["path", "content"],
                          })

    def requires_confirmation(self, args: JsonObject) -> bool:
        return True

    def describe_call(self, args: JsonObject) -> str:
        content = str(args.get("content", ""))
        lines = len(content.splitlines()) or 1
        return f"write {args.get('path', '')} ({lines} line{'' if lines == 1 else 's'})"

    def gate_subject(self, args: JsonObject) -> GateSubject:
        return GateSubject("write_path", str(args.get("path", "")))

    def preview(self, args: JsonObject, ctx: ToolContext) -> str | None:
        try:
            path = argument_path(args, ctx)
            old = current_text(path, ctx)
        except SwebashError:
            return None
        keeps_secrets(old, old or "", str_arg(args, "content"), "content")
        if old is None:
            return "\n".join(str_arg(args, "content").splitlines()[:PREVIEW_LINES])
        return unified_diff(old, str_arg(args, "content"), str_arg(args, "path"))

    async def execute(self, args: JsonObject, ctx: ToolContext) -> ToolOutput:
        path = Path(files_of(ctx).write_target(str_arg(args, "path"), ctx.cwd))
        existed = path.exists()
        before = current_text(path, ctx) if existed else None
        keeps_secrets(before, before or "", str_arg(args, "content"), "content")
        written = write_atomic(path, str_arg(args, "content"))
        verb = "overwrote" if existed else "created"
        return ToolOutput(json.dumps({"path": str(path), "bytes_written": written,
                                      "created": not existed}),
                          summary=f"{verb} {path.name}, {written} bytes")


PLACEHOLDER = ("holds a [REDACTED:…] placeholder: the model was shown a placeholder instead of "
               "a secret, and writing it would replace the secret; leave that part of the file "
               "untouched (edit_file with old_text around it)")


def keeps_secrets(file: str | None, old: str, new: str, what: str) -> None:
    """Refuse a write that would put redaction placeholders in place of the secrets they hid:
    the model only ever saw the placeholder, so text it writes back holds it, not the value.
    A new file has no secret to lose, and a file that already holds the placeholder text is
    about redaction (its tests, its docs): both are written as asked."""
    if file is None or REDACTED in file or REDACTED not in new:
        return
    if new.count(REDACTED) > old.count(REDACTED):
        raise ExecutionFailed(f"{what} {PLACEHOLDER}")


class EditFileTool(ToolExecutor):
    name = "edit_file"
    category: Category = "fs"

    def definition(self) -> ToolSchema:
        return ToolSchema(self.name, "Replace one exact piece of text in a file. old_text must "
                          "occur exactly once (include enough context to make it unique). The "
                          "user approves every edit.", {
                              "type": "object",
                              "properties": {
                                  "path": {"type": "string", "description": "File path"},
                                  "old_text": {"type": "string",
                                               "description": "Exact text to replace"},
                                  "new_text": {"type": "string",
                                               "description": "Replacement text"},
                              },
                              "required": ["path", "old_text", "new_text"],
                          })

    def requires_confirmation(self, args: JsonObject) -> bool:
        return True

    def describe_call(self, args: JsonObject) -> str:
        return f"edit {args.get('path', '')}"

    def gate_subject(self, args: JsonObject) -> GateSubject:
        return GateSubject("write_path", str(args.get("path", "")))

    def _edited(self, args: JsonObject, ctx: ToolContext, path: Path | None = None
                ) -> tuple[Path, str, str]:
        path = path or argument_path(args, ctx)
        old = current_text(path, ctx)
        if old is None:
            raise ExecutionFailed(f"{path}: no such file (use write_file to create it)")
        needle = str_arg(args, "old_text")
        if not needle:
            raise ExecutionFailed("old_text is empty")
        if REDACTED in needle and needle not in old:
            raise ExecutionFailed(f"old_text {PLACEHOLDER}")
        keeps_secrets(old, needle, str_arg(args, "new_text"), "new_text")
        count = old.count(needle)
        if count != 1:
            where = "not found" if count == 0 else f"found {count} times"
            raise ExecutionFailed(f"old_text {where} in {path}; it must match exactly once")
        return path, old, old.replace(needle, str_arg(args, "new_text"), 1)

    def preview(self, args: JsonObject, ctx: ToolContext) -> str | None:
        """The diff to approve; raises ``ExecutionFailed`` when the edit cannot apply, so the
        user is not asked about an edit that would fail (the model reads the error instead)."""
        try:
            _, old, new = self._edited(args, ctx)
        except ToolError:
            raise
        except SwebashError as exc:
            raise ExecutionFailed(str(exc)) from exc
        return unified_diff(old, new, str_arg(args, "path"))

    async def execute(self, args: JsonObject, ctx: ToolContext) -> ToolOutput:
        target = Path(files_of(ctx).write_target(str_arg(args, "path"), ctx.cwd))
        path, _, new = self._edited(args, ctx, target)
        written = write_atomic(path, new)
        return ToolOutput(json.dumps({"path": str(path), "bytes_written": written}),
                          summary=f"edited {path.name}, {written} bytes")
