"""Tools on real files and processes."""

from __future__ import annotations

import asyncio
import json
import os
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from swebash.config import ToolConfig
from swebash.errors import ExecutionFailed, InvalidArguments, PermissionDenied
from swebash.tools.base import ToolContext, ToolExecutor
from swebash.tools.edit import EditFileTool, WriteFileTool
from swebash.tools.exec import CappedBuffer, ExecuteCommandTool
from swebash.tools.fs import FilesystemTool
from swebash.tools.registry import default_registry
from swebash.tools.schema import parse_arguments, validate
from swebash.tools.search import ListFilesTool, SearchTextTool, TaskCompleteTool


def ctx_for(cwd: Path, **config: Any) -> ToolContext:
    return ToolContext(cwd=str(cwd), env=dict(os.environ), config=ToolConfig(**config))


def run(tool: ToolExecutor, args: dict[str, Any], ctx: ToolContext) -> dict[str, Any]:
    checked = validate(tool.definition().parameters, args)
    out = asyncio.run(tool.execute(checked, ctx))
    result: dict[str, Any] = json.loads(out.content) if out.content.startswith("{") else {
        "list": json.loads(out.content)}
    result["_summary"] = out.summary
    return result


# ------------------------------------------------------------------ schema


def test_parse_arguments_accepts_text_object_and_double_encoding() -> None:
    assert parse_arguments('{"a": 1}') == {"a": 1}
    assert parse_arguments({"a": 1}) == {"a": 1}
    assert parse_arguments(json.dumps('{"a": 1}')) == {"a": 1}
    assert parse_arguments("") == {}
    with pytest.raises(InvalidArguments, match="not valid JSON"):
        parse_arguments('{"a": ')
    with pytest.raises(InvalidArguments, match="JSON object"):
        parse_arguments("[1]")


def test_validate_required_types_enum_and_defaults() -> None:
    schema = FilesystemTool().definition().parameters
    with pytest.raises(InvalidArguments, match="missing required argument 'path'"):
        validate(schema, {"operation": "read"})
    with pytest.raises(InvalidArguments, match="must be one of"):
        validate(schema, {"operation": "write", "path": "x"})
    with pytest.raises(InvalidArguments, match="must be string"):
        validate(schema, {"operation": "read", "path": 3})
    exec_schema = ExecuteCommandTool().definition().parameters
    with pytest.raises(InvalidArguments, match="at most 300"):
        validate(exec_schema, {"command": "ls", "timeout_seconds": 999})
    with pytest.raises(InvalidArguments, match="must be integer"):
        validate(exec_schema, {"command": "ls", "timeout_seconds": True})
    assert validate(SearchTextTool().definition().parameters, {"pattern": "x"})["path"] == "."


def test_registry_honours_categories() -> None:
    everything = default_registry(ToolConfig())
    assert set(everything.names()) == {"filesystem", "execute_command", "web_search",
                                       "write_file", "edit_file", "search_text", "list_files",
                                       "task_complete"}
    no_exec = default_registry(ToolConfig(enable_exec=False))
    assert no_exec.get("execute_command") is None and "execute_command" not in no_exec.names()
    nothing = default_registry(ToolConfig(enable_fs=False, enable_exec=False, enable_web=False))
    assert nothing.definitions() == []


# ------------------------------------------------------------------ filesystem


def test_read_list_exists_metadata_relative_to_cwd(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("print('hi')\nprint('bye')\n")
    ctx = ctx_for(tmp_path)
    fs = FilesystemTool()
    got = run(fs, {"operation": "read", "path": "src/app.py"}, ctx)
    assert got["content"] == "print('hi')\nprint('bye')\n" and got["_summary"] == "read 2 lines"
    listing = run(fs, {"operation": "list", "path": "src"}, ctx)
    assert listing["entries"] == [{"name": "app.py", "type": "file", "size": 25}]
    assert run(fs, {"operation": "exists", "path": "nope"}, ctx)["exists"] is False
    meta = run(fs, {"operation": "metadata", "path": "src/app.py"}, ctx)
    assert meta["size"] == 25 and meta["permissions"].startswith("-rw")


def test_binary_and_non_utf8_refused(tmp_path: Path) -> None:
    (tmp_path / "bin").write_bytes(b"\x7fELF\x00\x01\x02")
    (tmp_path / "latin").write_bytes("caf\xe9".encode("latin-1"))
    ctx = ctx_for(tmp_path)
    with pytest.raises(ExecutionFailed, match="binary file"):
        run(FilesystemTool(), {"operation": "read", "path": "bin"}, ctx)
    with pytest.raises(ExecutionFailed, match="not UTF-8"):
        run(FilesystemTool(), {"operation": "read", "path": "latin"}, ctx)


def test_fifo_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    started = time.monotonic()
    with pytest.raises(PermissionDenied, match="FIFO"):
        run(FilesystemTool(), {"operation": "read", "path": "pipe"}, ctx_for(tmp_path))
    assert time.monotonic() - started < 5


def test_huge_sparse_file_refused_instantly(tmp_path: Path) -> None:
    with open(tmp_path / "sparse", "wb") as handle:
        handle.truncate(2 * 1024 ** 3)
    with pytest.raises(ExecutionFailed, match="over the 1048576-byte limit"):
        run(FilesystemTool(), {"operation": "read", "path": "sparse"}, ctx_for(tmp_path))


def test_size_cap_is_configurable(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x" * 100)
    with pytest.raises(ExecutionFailed, match="limit"):
        run(FilesystemTool(), {"operation": "read", "path": "f"}, ctx_for(tmp_path, fs_max_size=50))


def test_symlink_is_read_through(tmp_path: Path) -> None:
    (tmp_path / "real.txt").write_text("target\n")
    (tmp_path / "link").symlink_to(tmp_path / "real.txt")
    got = run(FilesystemTool(), {"operation": "read", "path": "link"}, ctx_for(tmp_path))
    assert got["content"] == "target\n"


# ------------------------------------------------------------------ execute_command


def test_exec_captures_both_streams_exit_code_cwd_and_env(tmp_path: Path) -> None:
    ctx = ToolContext(cwd=str(tmp_path), env={**os.environ, "GREETING": "hello"},
                      config=ToolConfig())
    got = run(ExecuteCommandTool(), {"command": 'echo $GREETING; pwd; echo oops >&2; exit 3'},
              ctx)
    assert got["exit_code"] == 3
    assert got["stdout"] == f"hello\n{tmp_path}\n" and got["stderr"] == "oops\n"
    assert got["truncated"] is False and got["_summary"].startswith("exit 3 · 2 lines")


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def test_timeout_kills_the_whole_process_group(tmp_path: Path) -> None:
    marker = tmp_path / "pgid"
    started = time.monotonic()
    got = run(ExecuteCommandTool(),
              {"command": f"echo $$ > {marker}; sleep 100 & wait", "timeout_seconds": 1},
              ctx_for(tmp_path))
    assert time.monotonic() - started < 10
    assert got.get("timed_out") is True and "timed out" in got["error"]
    pgid = int(marker.read_text())
    deadline = time.monotonic() + 5
    while group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not group_alive(pgid)


def test_cancel_event_kills_the_command(tmp_path: Path) -> None:
    async def go() -> None:
        ctx = ctx_for(tmp_path)
        task = asyncio.ensure_future(ExecuteCommandTool().execute(
            {"command": "sleep 100 & wait"}, ctx))
        await asyncio.sleep(0.3)
        ctx.cancel.set()
        with pytest.raises(ExecutionFailed, match="cancelled"):
            await asyncio.wait_for(task, 10)

    asyncio.run(go())


def test_yes_flood_is_capped_in_memory(tmp_path: Path) -> None:
    tracemalloc.start()
    try:
        got = run(ExecuteCommandTool(), {"command": "yes | head -c 30000000"},
                  ctx_for(tmp_path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got["truncated"] is True and "bytes omitted" in got["stdout"]
    assert got["stdout"].startswith("y\ny\n") and got["stdout"].endswith("y\n")
    assert len(got["stdout"]) < 110 * 1024
    assert peak < 20 * 1024 * 1024  # 30 MB went through; memory stayed bounded


def test_background_child_holding_pipe_does_not_hang(tmp_path: Path) -> None:
    started = time.monotonic()
    got = run(ExecuteCommandTool(), {"command": "sleep 100 & echo done"}, ctx_for(tmp_path))
    assert got["stdout"] == "done\n" and time.monotonic() - started < 10


def test_capped_buffer_keeps_head_and_tail() -> None:
    buf = CappedBuffer(10)
    for piece in (b"abc", b"defgh", b"ijklmnop"):
        buf.add(piece)
    assert buf.truncated and buf.text() == "abcde\n… [6 bytes omitted] …\nlmnop"


# ------------------------------------------------------------------ write / edit / search


def test_write_file_creates_parents_atomically_and_keeps_mode(tmp_path: Path) -> None:
    ctx = ctx_for(tmp_path)
    got = run(WriteFileTool(), {"path": "a/b/new.txt", "content": "hello\n"}, ctx)
    assert (tmp_path / "a/b/new.txt").read_text() == "hello\n" and got["bytes_written"] == 6
    target = tmp_path / "script.sh"
    target.write_text("old\n")
    target.chmod(0o755)
    tool = WriteFileTool()
    preview = tool.preview({"path": "script.sh", "content": "new\n"}, ctx)
    assert preview is not None and "-old" in preview and "+new" in preview
    run(tool, {"path": "script.sh", "content": "new\n"}, ctx)
    assert target.read_text() == "new\n" and target.stat().st_mode & 0o777 == 0o755
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".swebash")] == []
    assert tool.requires_confirmation({})


def test_edit_file_needs_exactly_one_match(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_text("a = 1\nb = 1\n")
    ctx = ctx_for(tmp_path)
    tool = EditFileTool()
    with pytest.raises(ExecutionFailed, match="not found"):
        run(tool, {"path": "f.py", "old_text": "c = 1", "new_text": "x"}, ctx)
    with pytest.raises(ExecutionFailed, match="found 2 times"):
        run(tool, {"path": "f.py", "old_text": " = 1", "new_text": "x"}, ctx)
    preview = tool.preview({"path": "f.py", "old_text": "b = 1", "new_text": "b = 2"}, ctx)
    assert preview is not None and "+b = 2" in preview
    run(tool, {"path": "f.py", "old_text": "b = 1", "new_text": "b = 2"}, ctx)
    assert (tmp_path / "f.py").read_text() == "a = 1\nb = 2\n"


def test_a_redaction_placeholder_never_replaces_the_secret_it_hid(tmp_path: Path) -> None:
    """The model saw `password: [REDACTED:value]`; writing that back would lose the password.
    The write is refused with a reason; a new file, or one already about placeholders, is
    written as asked; an edit around the secret works."""
    config = tmp_path / "config.yml"
    config.write_text("db:\n  password: Tr0ub4dor-3x\n  pool: 5\n")
    ctx = ctx_for(tmp_path)
    shown = "db:\n  password: [REDACTED:value]\n  pool: 10\n"
    for tool, args in ((WriteFileTool(), {"path": "config.yml", "content": shown}),
                       (EditFileTool(), {"path": "config.yml",
                                         "old_text": "  password: [REDACTED:value]\n  pool: 5",
                                         "new_text": "  password: [REDACTED:value]\n  pool: 10"}),
                       (EditFileTool(), {"path": "config.yml", "old_text": "  pool: 5",
                                         "new_text": "  password: [REDACTED:value]"})):
        with pytest.raises(ExecutionFailed, match="placeholder"):
            tool.preview(args, ctx)
        with pytest.raises(ExecutionFailed, match="placeholder"):
            run(tool, args, ctx)
    assert "Tr0ub4dor-3x" in config.read_text()
    run(EditFileTool(), {"path": "config.yml", "old_text": "pool: 5", "new_text": "pool: 10"},
        ctx)
    assert config.read_text() == "db:\n  password: Tr0ub4dor-3x\n  pool: 10\n"
    run(WriteFileTool(), {"path": "new.md", "content": "shown as [REDACTED:value]\n"}, ctx)
    (tmp_path / "doc.md").write_text("a [REDACTED:x] marker\n")
    run(EditFileTool(), {"path": "doc.md", "old_text": "marker", "new_text": "[REDACTED:y]"},
        ctx)
    assert (tmp_path / "doc.md").read_text() == "a [REDACTED:x] [REDACTED:y]\n"


def test_search_text_skips_binary_and_git(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.py").write_text("import os\nTODO: fix\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git/config").write_text("TODO hidden\n")
    (tmp_path / "blob").write_bytes(b"TODO\x00\x00")
    got = run(SearchTextTool(), {"pattern": "TODO"}, ctx_for(tmp_path))
    assert got["matches"] == [{"file": "src/a.py", "line": 2, "text": "TODO: fix"}]
    with pytest.raises(InvalidArguments, match="bad pattern"):
        run(SearchTextTool(), {"pattern": "("}, ctx_for(tmp_path))


def test_list_files_and_task_complete(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x").write_text("")
    listing = run(ListFilesTool(), {}, ctx_for(tmp_path / "d"))
    assert [e["name"] for e in listing["entries"]] == ["x"]
    done = run(TaskCompleteTool(), {"summary": "all good"}, ctx_for(tmp_path))
    assert done["summary"] == "all good"
