"""One configured MCP server: its connection's whole life, on the AI loop.

Design note. The SDK's transports (``stdio_client``, ``streamable_http_client``) and its
``Client`` are anyio context managers holding task groups, and anyio requires a task group to
be entered and exited by the same task. A connection is therefore owned by one long-lived task
(``_run``) that enters the contexts, publishes the ready client, waits for a stop request and
unwinds them — nobody else ever enters or exits them. Other tasks (the agent's turn) only send
requests through the published client, which the SDK supports concurrently.

Starting is bounded by ``startup_timeout`` with a cancel-scope deadline set inside the owning
task (cancelling from outside with ``Task.cancel`` could pierce the SDK's shielded shutdown and
leak the process); the deadline is lifted once the tool list has arrived. Stopping sets an
event: the task leaves its ``async with`` normally and the SDK's shutdown closes stdin, waits,
then kills the server's process group — no zombies. A stdio server that is not ``trust = true``
is started through the sandbox's launcher (``McpSandbox``): confined by the same policy as the
AI's commands (writes to the working tree only, secrets hidden, network by domain). Its stderr
goes to ``<log_dir>/mcp-<name>.log``, never to the terminal. A server that exits (mid-call, or
killed while idle — found by ``alive``, a ping that fails at once on a closed connection) is
marked ``exited`` and its task unwinds; the manager starts it again before its next call.

``mode="legacy"`` (the initialize handshake) is used on purpose: every server, including small
hand-written ones, answers it, while the SDK's newer discovery probe may go unanswered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TextIO

from swebash.api import JsonObject
from swebash.config import McpServerConfig
from swebash.safety.redact import SECRET_NAME

if TYPE_CHECKING:
    from anyio import CancelScope
    from mcp import Client
    from mcp.client._transport import TransportStreams
    from mcp_types import CallToolResult

State = Literal["idle", "starting", "ready", "failed", "exited", "stopped", "disabled"]


class McpSandbox(Protocol):
    """What starting a stdio server needs of the sandbox (``safety.sandbox.OsSandbox``)."""

    def launcher(self, argv: Sequence[str], cwd: str,
                 env: Mapping[str, str] | None = None) -> list[str]: ...

    def launcher_env(self, cwd: str, env: Mapping[str, str]) -> dict[str, str]: ...

CONNECTION_CLOSED = -32000
PING_SECONDS = 5.0  # a server busy past this is alive, only slow: it is not restarted
LIST_PAGES = 50  # a server paging its tool list forever is cut off here


@dataclass(frozen=True)
class RemoteTool:
    """A tool as the server listed it."""

    name: str
    description: str
    input_schema: dict[str, Any]


class McpServer:
    def __init__(self, config: McpServerConfig, log_dir: Path | None,
                 environ: Mapping[str, str] | None = None) -> None:
        self.config = config
        self.environ = environ or {}
        self.name = config.name
        self.log_dir = log_dir
        self.state: State = "idle" if config.enabled else "disabled"
        self.error = ""
        self.tools: list[RemoteTool] = []
        self.reported = False  # the failure line was shown once already
        self.crashed = False  # it exited after it was ready: the next question restarts it
        self.log_path = ""  # where a stdio server's stderr goes
        self.sandbox: McpSandbox | None = None  # confines it unless `trust = true`
        self._client: Client | None = None
        self._task: asyncio.Task[None] | None = None
        self._scope: CancelScope | None = None  # the owning task's; cancel() is thread-local
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Start connecting in the background (call on the AI loop)."""
        if self.state not in ("idle", "failed", "exited", "stopped"):
            return
        route_sdk_logging(self.log_dir)
        self.state, self.error, self.tools, self.reported = "starting", "", [], False
        self.crashed = False
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(),
                                                            name=f"mcp-{self.name}")

    async def wait_ready(self) -> None:
        if self.state == "starting":
            # the task's own deadline ends a slow start; this bound only guards against bugs
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ready.wait(), self.config.startup_timeout + 15)

    async def stop(self) -> None:
        self._stop.set()
        if self.state == "starting" and self._scope is not None:
            self._scope.cancel()  # a handshake in progress ends now, not at its deadline
        task = self._task
        if task is not None and not task.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                # the SDK bounds its own shutdown (stdin close, 2 s, SIGTERM, 2 s, SIGKILL)
                await asyncio.wait_for(asyncio.shield(task), 10)
        if self.state in ("ready", "starting"):
            self.state = "stopped"

    async def _run(self) -> None:
        log = self._open_log()
        try:
            await asyncio.to_thread(import_sdk)  # off the loop, serialised with warm-up
            import anyio
            from mcp import Client
            from mcp_types import Implementation

            from swebash import __version__

            with anyio.CancelScope() as scope:
                self._scope = scope
                scope.deadline = anyio.current_time() + self.config.startup_timeout
                client = Client(self._transport(log), mode="legacy",
                                client_info=Implementation(name="swebash", version=__version__))
                async with client:
                    tools = await list_tools(client)
                    scope.deadline = math.inf
                    self.tools = tools
                    self._client = client
                    self.state = "ready"
                    self._ready.set()
                    await self._stop.wait()
            if scope.cancelled_caught and self.state == "starting":
                self.fail("stopped before it was ready" if self._stop.is_set() else
                          f"did not start within {self.config.startup_timeout:g} s")
        except Exception as exc:  # every failure of one server stays with that server
            detail = describe_error(exc)
            if self.state == "starting" and detail.endswith("Connection closed"):
                detail = "exited or closed the connection while starting" + (
                    f" (its stderr: {self.log_path})" if self.log_path else "")
            self.fail(detail)
        finally:
            self._client, self._scope = None, None
            if self.state == "starting":
                self.fail("stopped before it was ready")
            self._ready.set()
            log.close()

    def fail(self, message: str) -> None:
        if self.state in ("starting", "ready"):
            self.state, self.error = "failed", message

    def _open_log(self) -> TextIO:
        """The server's stderr: a log file, or nowhere when nothing may be written."""
        if self.log_dir is not None and self.config.command is not None:
            path = self.log_dir / f"mcp-{self.name}.log"
            try:
                self.log_dir.mkdir(parents=True, exist_ok=True)
                log = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed by _run)
                self.log_path = str(path)
                return log
            except OSError:
                pass
        return open(os.devnull, "w", encoding="utf-8")

    def _transport(self, log: TextIO) -> contextlib.AbstractAsyncContextManager[
            TransportStreams]:
        if self.config.command is not None:
            from mcp.client.stdio import StdioServerParameters, stdio_client

            argv = [self.config.command, *self.config.args]
            env = server_environment(self.environ, self.config.env)
            if self.sandbox is not None and not self.config.trust:
                # an untrusted server runs inside the sandbox, under the commands' policy
                cwd = self.config.cwd or os.getcwd()
                argv = self.sandbox.launcher(argv, cwd, env)
                env = self.sandbox.launcher_env(cwd, env)
            params = StdioServerParameters(command=argv[0], args=argv[1:], env=env,
                                           cwd=self.config.cwd)
            # stdin is a pipe: a server cannot read the user's keys, and it gets EOF (and
            # exits) even if swebash is killed with SIGKILL
            return stdio_client(params, errlog=log)
        return http_transport(self.config.url or "", dict(self.config.headers))

    # ------------------------------------------------------------------ calls

    def exited(self) -> None:
        """The connection is gone (the process exited or was killed): say so, and let the
        owning task unwind and reap the process."""
        if self.state in ("starting", "ready"):
            self.state, self.error = "exited", "the server exited"
        self.crashed = True
        self._stop.set()

    async def alive(self) -> bool:
        """Whether a ready server still answers: a ping. On a closed connection (a killed
        stdio server) it fails at once, without I/O; a slow answer counts as alive."""
        from mcp.shared.exceptions import MCPError

        client = self._client
        if client is None or self.state != "ready":
            return False
        try:
            await asyncio.wait_for(client.session.send_ping(), PING_SECONDS)
        except TimeoutError:
            return True
        except MCPError as exc:
            if exc.code != CONNECTION_CLOSED:
                return True  # it answered, with an error: alive
            self.exited()
            return False
        except Exception:  # the transport broke: gone as far as calls are concerned
            self.exited()
            return False
        return True

    async def call(self, tool: str, arguments: JsonObject) -> CallToolResult:
        """Call one tool; raises ``McpCallError`` with a message the model can read."""
        from mcp.shared.exceptions import MCPError

        client = self._client
        if client is None or self.state != "ready":
            raise McpCallError(f"MCP server '{self.name}' is {self.state}"
                               + (f": {self.error}" if self.error else ""))
        timeout = self.config.tool_timeout
        try:
            return await asyncio.wait_for(
                client.call_tool(tool, arguments, read_timeout_seconds=timeout), timeout + 5)
        except TimeoutError:
            raise McpCallError(f"MCP tool '{tool}' timed out after {timeout:g} s") from None
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                self.exited()
                raise McpCallError(f"MCP server '{self.name}' exited during the call") from exc
            if "timed out" in exc.message:
                raise McpCallError(f"MCP tool '{tool}' timed out after {timeout:g} s") from exc
            raise McpCallError(f"MCP error {exc.code}: {exc.message}") from exc
        except Exception as exc:  # transport failures: one line for the model
            raise McpCallError(f"MCP call failed: {describe_error(exc)}") from exc


_IMPORT_LOCK = threading.Lock()


def import_sdk() -> None:
    """Import the MCP SDK once; two threads importing it at the same time (the background
    warm-up and the first question) can trip over each other's half-initialised modules."""
    with _IMPORT_LOCK:
        import mcp.client.stdio
        import mcp.client.streamable_http  # noqa: F401


def server_environment(environ: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """What a stdio server inherits: swebash's environment without secrets (API keys, tokens,
    passwords — a server gets those only through its own ``env`` table) and without exported
    bash functions, then the configured ``env`` on top. PATH, LANG, PYTHONPATH, proxies and the
    like pass, so servers run as they would from the shell."""
    inherited = {k: v for k, v in environ.items()
                 if not SECRET_NAME.search(k) and not k.startswith("BASH_FUNC_")
                 and not v.startswith("()")}
    return {**inherited, **extra}


SDK_LOGGERS = ("mcp", "client", "mcp_types")  # "client" is the SDK session's logger name
_routed: list[tuple[Path | None, logging.Handler]] = []  # (log dir, handler) in use


def route_sdk_logging(log_dir: Path | None) -> None:
    """The SDK logs protocol trouble (a server printing a banner on stdout, a torn message)
    with tracebacks; with no handler configured Python would print them on the terminal. They
    go to ``<log_dir>/mcp.log`` (or nowhere) instead — the user sees the one-line failure."""
    if _routed and _routed[0][0] == log_dir:
        return
    handler: logging.Handler = logging.NullHandler()
    if log_dir is not None:
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
            handler = logging.FileHandler(log_dir / "mcp.log", encoding="utf-8", delay=True)
            handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s "
                                                   "%(message)s"))
        except OSError:
            pass
    for name in SDK_LOGGERS:
        logger = logging.getLogger(name)
        if _routed:
            logger.removeHandler(_routed[0][1])
        logger.addHandler(handler)
        logger.setLevel(logging.WARNING)
        logger.propagate = False
    if _routed:
        _routed[0][1].close()
    _routed[:] = [(log_dir, handler)]


class McpCallError(Exception):
    pass


async def list_tools(client: Client) -> list[RemoteTool]:
    tools: list[RemoteTool] = []
    cursor: str | None = None
    for _ in range(LIST_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(RemoteTool(t.name, t.description or "", dict(t.input_schema))
                     for t in page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


@contextlib.asynccontextmanager
async def http_transport(url: str, headers: dict[str, str]) -> AsyncIterator[TransportStreams]:
    """Streamable HTTP with the configured headers; the HTTP client closes with the transport."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    timeout = httpx2.Timeout(30.0, read=300.0)
    async with (httpx2.AsyncClient(headers=headers, timeout=timeout) as http,
                streamable_http_client(url, http_client=http) as streams):
        yield streams


def describe_error(exc: BaseException) -> str:
    """One line for a failure, looking inside anyio's exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or exc}"
    text = str(exc).strip().splitlines()
    detail = text[0] if text else ""
    message = getattr(exc, "message", None)
    if isinstance(message, str) and message:
        detail = message
    return f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
