"""``execute_command``: run a command in a fresh bash, with bounded output.

Design note. The command runs as ``bash -c`` in its own session (process group), with the shell
session's cwd and exported environment and stdin from /dev/null. Output is read as it comes into
a ``CappedBuffer`` that keeps the first and last 50 KB of each stream, so a ``yes`` flood costs
constant memory. On timeout, on cancellation (Ctrl-C in the UI cancels the task or sets the
context's cancel event) and when the command exits but leaves children holding its pipes, the
WHOLE process group is killed (SIGTERM, then SIGKILL) — ``sleep 100 & wait`` dies with it.

When the context carries a sandbox (``safety/sandbox.py``) the process is started by it: through
the sandbox's supervisor, which ends the command and whatever it left behind when it exits, is
killed, or when swebash dies by any means; confined by the policy (writes to the working tree
and a private TMPDIR, secrets hidden, network by domain through the proxy). What the sandbox
itself stopped (writes its audit saw refused, domains its proxy refused) is named in
``sandbox_blocked`` so the agent can offer to run the command again outside it. The process is
started from a worker thread (the sandbox may build a policy and talk to its supervisor) and its
pipes are handed to the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import time
from typing import IO, TYPE_CHECKING, Any, Union

from swebash.api import ToolSchema
from swebash.errors import ExecutionFailed, InvalidArguments
from swebash.tools.base import Category, GateSubject, ToolContext, ToolExecutor, ToolOutput

if TYPE_CHECKING:
    from swebash.safety.sandbox import SandboxedProcess

Process = Union["subprocess.Popen[bytes]", "SandboxedProcess"]

STREAM_CAP = 100 * 1024
MAX_COMMAND = 16 * 1024
LINGER = 0.5  # seconds to drain pipes after the command itself exited
TERM_GRACE = 0.5


class CappedBuffer:
    """Keeps the head and the tail of a byte stream, ``cap`` bytes in all."""

    def __init__(self, cap: int = STREAM_CAP) -> None:
        self.head_cap = cap // 2
        self.tail_cap = cap - self.head_cap
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0

    def add(self, data: bytes) -> None:
        room = self.head_cap - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if not data:
            return
        self.tail += data
        excess = len(self.tail) - self.tail_cap
        if excess > 0:
            del self.tail[:excess]
            self.dropped += excess

    @property
    def truncated(self) -> bool:
        return self.dropped > 0

    def text(self) -> str:
        head = self.head.decode("utf-8", "replace")
        tail = self.tail.decode("utf-8", "replace")
        if self.dropped:
            return f"{head}\n… [{self.dropped} bytes omitted] …\n{tail}"
        return head + tail


def kill_group(pgid: int, sig: int) -> None:
    if pgid <= 1:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def end_tree(proc: Process) -> None:
    """SIGKILL the command's group — and, through the supervisor, everything it started."""
    kill_group(proc.pid, signal.SIGKILL)
    if not isinstance(proc, subprocess.Popen):
        proc.kill()


async def terminate_group(proc: Process) -> None:
    kill_group(proc.pid, signal.SIGTERM)
    try:
        await asyncio.wait_for(exited(proc), TERM_GRACE)
    except TimeoutError:
        pass
    end_tree(proc)  # also the group's stragglers after bash exited
    with contextlib.suppress(Exception):
        await asyncio.wait_for(exited(proc), TERM_GRACE)


async def exited(proc: Process) -> None:
    """Wait for the command itself to exit — not for every pipe to close, i.e. not for
    background children such as ``sleep 100 &`` that inherited them."""
    while proc.poll() is None:
        await asyncio.sleep(0.02)


async def pump(stream: asyncio.StreamReader, sink: CappedBuffer) -> None:
    while True:
        chunk = await stream.read(65536)
        if not chunk:
            return
        sink.add(chunk)


async def reader_for(pipe: IO[bytes] | None
                     ) -> tuple[asyncio.StreamReader, asyncio.BaseTransport | None]:
    reader = asyncio.StreamReader()
    if pipe is None:
        reader.feed_eof()
        return reader, None
    loop = asyncio.get_running_loop()
    transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), pipe)
    return reader, transport


def start(argv: list[str], ctx: ToolContext) -> Process:
    """Started (and confined) by the context's sandbox; without one (tests, embedders) a plain
    process group."""
    if ctx.sandbox is not None:
        return ctx.sandbox.spawn(argv, ctx.cwd, ctx.env)
    return subprocess.Popen(argv, cwd=ctx.cwd, env=dict(ctx.env), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


class ExecuteCommandTool(ToolExecutor):
    name = "execute_command"
    category: Category = "exec"

    def definition(self) -> ToolSchema:
        return ToolSchema(self.name, (
            "Execute a shell command with bash in the user's current directory and return its "
            "exit code, stdout and stderr. Use it to run terminal commands, inspect the system "
            "or the project. Commands that change things are shown to the user for approval."), {
            "type": "object",
            "properties": {
                "command": {"type": "string", "description": "The shell command to execute"},
                "timeout_seconds": {"type": "integer", "minimum": 1, "maximum": 300,
                                    "description": "Maximum execution time in seconds "
                                                   "(default: 30)"},
            },
            "required": ["command"],
        })

    def requires_confirmation(self, args: dict[str, Any]) -> bool:
        return True

    def describe_call(self, args: dict[str, Any]) -> str:
        return f"$ {args.get('command', '')}"

    def gate_subject(self, args: dict[str, Any]) -> GateSubject:
        return GateSubject("command", str(args.get("command", "")))

    async def execute(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        command = args["command"]
        if not command.strip():
            raise InvalidArguments("command is empty")
        if len(command) > MAX_COMMAND:
            raise InvalidArguments(f"command is longer than {MAX_COMMAND} characters")
        timeout = min(int(args.get("timeout_seconds") or ctx.config.exec_timeout),
                      ctx.config.exec_max_timeout)
        started = time.monotonic()
        # in a worker thread: a sandbox builds its policy and may start a thread of its own
        spawning = asyncio.ensure_future(asyncio.to_thread(start, ["bash", "-c", command], ctx))
        try:
            proc = await asyncio.shield(spawning)
        except asyncio.CancelledError:  # the process may start anyway: it must not outlive us
            with contextlib.suppress(BaseException):
                end_tree(await spawning)
            raise
        except OSError as exc:
            raise ExecutionFailed(f"cannot start bash in {ctx.cwd}: "
                                  f"{exc.strerror or exc}") from None
        out, err = CappedBuffer(), CappedBuffer()
        transports: list[asyncio.BaseTransport] = []
        try:
            (out_reader, t1), (err_reader, t2) = (await reader_for(proc.stdout),
                                                  await reader_for(proc.stderr))
            transports += [t for t in (t1, t2) if t is not None]
        except BaseException:
            end_tree(proc)
            raise
        readers = asyncio.gather(pump(out_reader, out), pump(err_reader, err))
        cancelled = asyncio.ensure_future(ctx.cancel.wait())
        waiter = asyncio.ensure_future(exited(proc))
        timed_out = False
        try:
            done, _ = await asyncio.wait({waiter, cancelled}, timeout=timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
            if cancelled in done:
                await terminate_group(proc)
                raise ExecutionFailed("cancelled by the user; the command was killed")
            if waiter not in done:
                timed_out = True
                await terminate_group(proc)
            try:
                await asyncio.wait_for(asyncio.shield(readers), LINGER)
            except TimeoutError:
                end_tree(proc)  # background children hold the pipes
        except asyncio.CancelledError:
            await terminate_group(proc)
            raise
        finally:
            cancelled.cancel()
            waiter.cancel()
            if not readers.done():
                readers.cancel()
                with contextlib.suppress(BaseException):
                    await readers
            # close the pipes now, or asyncio complains about them when the loop closes
            for transport in transports:
                transport.close()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(exited(proc), TERM_GRACE * 2)
        duration_ms = (time.monotonic() - started) * 1000
        code = proc.returncode if proc.returncode is not None else -9
        truncated = out.truncated or err.truncated
        stdout = out.text()
        result: dict[str, Any] = {"exit_code": code, "stdout": stdout, "stderr": err.text(),
                  "duration_ms": round(duration_ms), "truncated": truncated}
        if timed_out:
            result["timed_out"] = True
            result["error"] = f"timed out after {timeout} s; the process group was killed"
        blocked = None
        writes = None
        if ctx.sandbox is not None:
            reported = ctx.sandbox.blocked(proc)  # asked always: it also ends the bookkeeping
            blocked = reported if code != 0 and not timed_out else None
            writes = ctx.sandbox.refused_writes(proc) if blocked is not None else None
            if blocked is not None:
                result["sandbox_blocked"] = blocked
                if not ctx.sandbox.rerun_useful(proc):
                    result["sandbox_rerun"] = False  # a person already refused what it needed
        lines = stdout.count("\n")
        summary = (f"timed out after {timeout} s" if timed_out else f"exit {code}") + \
            f" · {lines} lines · {duration_ms / 1000:.1f} s" + (" · truncated" if truncated else "")
        if blocked is not None:
            summary += f" · sandbox blocked {blocked}"
        return ToolOutput(json.dumps(result), summary=summary, exit_code=code,
                          truncated=truncated, sandbox_blocked=blocked, sandbox_writes=writes)
