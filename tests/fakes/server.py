"""A scriptable local server speaking the real wire protocols of OpenAI (SSE), Anthropic (SSE)
and Ollama (NDJSON), for tests that go through the real SDKs.

One server answers all three by path: ``/v1/chat/completions`` or ``/chat/completions``
(OpenAI / Gemini / OpenAI-compatible), ``/v1/messages`` (Anthropic), ``/api/chat`` (Ollama),
plus ``/api/version`` so the Ollama probe finds it. Each request pops the next scripted reply:

    {"text": "Hello world", "chunks": 3, "delay": 0.0}           plain streamed text
    {"tools": [["execute_command", "{\"command\": \"ls\"}"]],    tool calls (args as raw JSON text)
     "text": "optional text before the calls"}
    {"status": 429, "retry_after": 0.01}                         an HTTP error (any status)
    {"status": 429, "error_type": "insufficient_quota",          … with the body's error type
     "error_code": "insufficient_quota"}                          and code (OpenAI; Anthropic
                                                                  reads error_type)
    {"status": 429, "google_status": "RESOURCE_EXHAUSTED",       … as Gemini's Google RPC array
     "google_details": [...]}
    {"cut_after": 2, ...}                                         drop the connection after N events
    {"stream_error": "Overloaded"}                                an error event inside a 200 stream
    {"quirk": "no_index" | "all_index_0" | "finish_stop"}         OpenAI-compatible server quirks
    {"string_args": true}                                         Ollama arguments as JSON strings
    {"body": "<html>…", "content_type": "text/html"}              a 200 reply that is no stream
    {"events": [{...}, "data: raw\\n\\n"]}                          exactly these events: objects
        are framed for the protocol (SSE ``data:``, Anthropic ``event:`` from "type", NDJSON),
        strings are sent verbatim — for malformed and wrong-typed events
    {"endless": "some text"}                                      stream this text forever
    {"endless_line": "xxxx"}                                      one line that never ends
    {"silent": true}                                              accept, then send nothing
        (with "headers": true the 200 stream headers are sent first)
    {"keepalive": 0.2}                                            stream headers, then SSE
        comments (``: ping``) or blank NDJSON lines at that interval, never an event
    {"trickle": 1.0, "text": "hi"}                                the normal reply, one byte
        every that many seconds
    {"redirect": "http://other:1/v1/chat/completions",            a redirect (307 by default)
     "redirect_status": 307}
    {"tools": [["write_file", {"fill": 10_000_000}]],             generated arguments: a string
     "arg_chunks": 3}                                             of N bytes, or {"depth": N}
                                                                  nested arrays; arg_chunks sets
                                                                  the number of fragments

With the script exhausted, it replies "(no more scripted replies)". Every request is recorded
(path, lower-cased headers, JSON body, monotonic arrival time of its first byte) in ``requests``.

Standalone, for end-to-end tests of the installed swebash:
    python -m tests.fakes.server --script replies.json   # prints "PORT <n>" then serves
"""

from __future__ import annotations

import argparse
import json
import queue
import select
import socket
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = dict[str, Any]


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    arrived: float


@dataclass
class FakeServer:
    replies: queue.Queue[Reply] = field(default_factory=queue.Queue)
    requests: list[Recorded] = field(default_factory=list)
    port: int = 0
    _httpd: ThreadingHTTPServer | None = None

    def script(self, *replies: Reply) -> None:
        for reply in replies:
            self.replies.put(reply)

    def next_reply(self) -> Reply:
        try:
            return self.replies.get_nowait()
        except queue.Empty:
            return {"text": "(no more scripted replies)"}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> FakeServer:
        server = self

        class Handler(_Handler):
            fake = server

        self._httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that hang up mid-stream (cancel tests) are expected, not news


def generated_arguments(spec: str | dict[str, int]) -> str:
    """Raw argument JSON: as given, or generated (huge strings and deep nesting for the caps)."""
    if isinstance(spec, str):
        return spec
    if "fill" in spec:
        return '{"path": "big.txt", "content": "' + "x" * int(spec["fill"]) + '"}'
    depth = int(spec["depth"])
    return '{"a": ' + "[" * depth + "]" * depth + "}"


def split_text(text: str, chunks: int) -> list[str]:
    if not text:
        return []
    size = max(1, -(-len(text) // max(1, chunks)))
    return [text[i:i + size] for i in range(0, len(text), size)]


class _Handler(BaseHTTPRequestHandler):
    fake: FakeServer
    protocol_version = "HTTP/1.1"
    trickle: float = 0

    def log_message(self, format: str, *args: Any) -> None:
        pass

    # -------------------------------------------------------------- plumbing

    def do_GET(self) -> None:
        arrived = time.monotonic()
        self.fake.requests.append(Recorded(self.path, self._headers(), {}, arrived))
        self._json(200, {"version": "0.12.0"} if self.path.startswith("/api/") else {})

    def do_POST(self) -> None:
        arrived = time.monotonic()
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b"{}"
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        self.fake.requests.append(Recorded(self.path, self._headers(), body, arrived))
        reply = self.fake.next_reply()
        self.trickle = reply.get("trickle", 0)
        if "redirect" in reply:
            return self._redirect(reply)
        if "silent" in reply:
            return self._silent(reply)
        if "keepalive" in reply:
            return self._keepalive(reply)
        if "status" in reply:
            return self._error(reply)
        if "body" in reply:
            return self._body(reply)
        if "endless_line" in reply:
            kind = "application/x-ndjson" if self.path.endswith("/api/chat") else \
                "text/event-stream"
            return self._events(reply, _chain(["data: "], _forever(str(reply["endless_line"]))),
                                kind)
        if self.path.endswith("/chat/completions"):
            self._openai(reply)
        elif self.path.endswith("/messages"):
            self._anthropic(reply)
        elif self.path.endswith("/api/chat"):
            self._ollama(reply)
        else:
            self._json(404, {"error": f"no route {self.path}"})

    def _headers(self) -> dict[str, str]:
        return {key.lower(): value for key, value in self.headers.items()}

    def _json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _error(self, reply: Reply) -> None:
        status = int(reply["status"])
        message = reply.get("message", f"scripted failure {status}")
        headers = {}
        if "retry_after" in reply:
            headers["retry-after-ms"] = str(int(float(reply["retry_after"]) * 1000))
            headers["retry-after"] = str(reply["retry_after"])
        if self.path.endswith("/messages"):
            kind = reply.get("error_type") or {429: "rate_limit_error",
                                               401: "authentication_error"}.get(status,
                                                                                "api_error")
            body: Any = {"type": "error", "error": {"type": kind, "message": message}}
        elif self.path.endswith("/api/chat"):
            body = {"error": message}
        elif "google_status" in reply:  # Gemini's OpenAI endpoint: a Google RPC error array
            body = [{"error": {"code": status, "message": message,
                               "status": reply["google_status"],
                               "details": reply.get("google_details", [])}}]
        else:
            body = {"error": {"message": message,
                              "type": reply.get("error_type", "server_error"), "param": None,
                              "code": reply.get("error_code")}}
        self._json(status, body, headers)

    def _body(self, reply: Reply) -> None:
        data = str(reply["body"]).encode()
        self.send_response(200)
        self.send_header("content-type", str(reply.get("content_type", "text/html")))
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _redirect(self, reply: Reply) -> None:
        self.send_response(int(reply.get("redirect_status", 307)))
        self.send_header("location", str(reply["redirect"]))
        self.send_header("content-length", "0")
        self.end_headers()

    def _client_gone(self, wait: float) -> bool:
        """Wait up to ``wait`` s; True when the client closed the connection meanwhile."""
        readable, _, _ = select.select([self.connection], [], [], wait)
        if not readable:
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _silent(self, reply: Reply) -> None:
        if reply.get("headers"):
            self._start_stream("text/event-stream")
        while not self._client_gone(0.2):
            pass
        self.close_connection = True

    def _keepalive(self, reply: Reply) -> None:
        ndjson = self.path.endswith("/api/chat")
        self._start_stream("application/x-ndjson" if ndjson else "text/event-stream")
        interval = float(reply["keepalive"])
        while not self._client_gone(interval):
            try:
                self._send("\n" if ndjson else ": ping\n\n")
            except OSError:
                return

    def _start_stream(self, content_type: str) -> None:
        self.send_response(200)
        self.send_header("content-type", content_type)
        self.send_header("transfer-encoding", "chunked")
        self.send_header("cache-control", "no-cache")
        self.end_headers()

    def _send(self, data: str) -> None:
        raw = data.encode()
        trickle = float(getattr(self, "trickle", 0) or 0)
        if not trickle:
            self.wfile.write(f"{len(raw):x}\r\n".encode() + raw + b"\r\n")
            self.wfile.flush()
            return
        for i in range(len(raw)):  # one byte per HTTP chunk, one chunk per interval
            self.wfile.write(b"1\r\n" + raw[i:i + 1] + b"\r\n")
            self.wfile.flush()
            if self._client_gone(trickle):
                raise BrokenPipeError("the client went away")

    def _events(self, reply: Reply, events: Iterable[str], content_type: str) -> None:
        """Send pre-framed events, honouring delay and cut_after."""
        self._start_stream(content_type)
        delay = float(reply.get("delay", 0))
        cut = reply.get("cut_after")
        for n, event in enumerate(events):
            if cut is not None and n >= int(cut):
                self.close_connection = True
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)  # mid-chunk-stream: a broken stream
                return
            if delay:
                time.sleep(delay)
            try:
                self._send(event)
            except (BrokenPipeError, ConnectionResetError):
                return  # the client went away (cancelled)
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    # -------------------------------------------------------------- OpenAI

    def _openai(self, reply: Reply) -> None:
        quirk = reply.get("quirk", "")
        base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1,
                "model": "fake-model", "system_fingerprint": "fp_fake", "service_tier": "default"}

        def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> str:
            data = {**base, "choices": [{"index": 0, "delta": delta, "logprobs": None,
                                         "finish_reason": finish}], **extra}
            return f"data: {json.dumps(data)}\n\n"

        if "events" in reply:
            return self._events(reply, (e if isinstance(e, str) else f"data: {json.dumps(e)}\n\n"
                                        for e in reply["events"]), "text/event-stream")
        if "endless" in reply:
            endless = chunk({"content": str(reply["endless"])})
            return self._events(reply, _forever(endless), "text/event-stream")
        events = []
        tools = reply.get("tools", [])
        arg_chunks = int(reply.get("arg_chunks", 3))
        events.append(chunk({"role": "assistant", "content": "" if not tools else None,
                             "refusal": None}))
        events.extend(chunk({"content": piece})
                      for piece in split_text(reply.get("text", ""), int(reply.get("chunks", 3))))
        if reply.get("stream_error"):
            events.append(f"data: {json.dumps({'error': {'message': reply['stream_error']}})}\n\n")
        finish = "stop" if quirk == "finish_stop" or not tools else "tool_calls"
        if quirk == "no_index" and tools:  # Gemini: whole calls, no index, finish on same chunk
            calls = [{"function": {"arguments": generated_arguments(args), "name": name},
                      "id": f"function-call-{n}", "type": "function"}
                     for n, (name, args) in enumerate(tools)]
            events.append(chunk({"role": "assistant", "tool_calls": calls}, finish))
        else:
            for n, (name, args) in enumerate(tools):
                index = 0 if quirk == "all_index_0" else n
                events.append(chunk({"tool_calls": [{"index": index, "id": f"call_{n}",
                                                     "type": "function",
                                                     "function": {"name": name,
                                                                  "arguments": ""}}]}))
                for piece in split_text(generated_arguments(args), arg_chunks):
                    events.append(chunk({"tool_calls": [{"index": index,
                                                         "function": {"arguments": piece}}]}))
            events.append(chunk({}, finish))
        usage = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
        events.append(f"data: {json.dumps({**base, 'choices': [], 'usage': usage})}\n\n")
        events.append("data: [DONE]\n\n")
        self._events(reply, events, "text/event-stream")

    # -------------------------------------------------------------- Anthropic

    def _anthropic(self, reply: Reply) -> None:
        def event(kind: str, data: dict[str, Any]) -> str:
            return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"

        if "events" in reply:
            return self._events(reply, (e if isinstance(e, str) else event(e["type"], e)
                                        for e in reply["events"]), "text/event-stream")
        tools = reply.get("tools", [])
        events = [event("message_start", {"message": {
            "id": "msg_fake", "type": "message", "role": "assistant", "model": "fake-model",
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 13, "output_tokens": 1}}}),
            "event: ping\ndata: {\"type\": \"ping\"}\n\n"]
        if "endless" in reply:
            events.append(event("content_block_start", {"index": 0, "content_block": {
                "type": "text", "text": ""}}))
            endless = event("content_block_delta", {"index": 0, "delta": {
                "type": "text_delta", "text": str(reply["endless"])}})
            return self._events(reply, _chain(events, _forever(endless)), "text/event-stream")
        index = 0
        text = reply.get("text", "")
        if text or not tools:
            events.append(event("content_block_start", {"index": 0, "content_block": {
                "type": "text", "text": ""}}))
            events.extend(event("content_block_delta", {"index": 0, "delta": {
                "type": "text_delta", "text": piece}})
                for piece in split_text(text, int(reply.get("chunks", 3))))
            events.append(event("content_block_stop", {"index": 0}))
            index = 1
        if reply.get("stream_error"):
            events.append(event("error", {"error": {"type": "overloaded_error",
                                                    "message": reply["stream_error"]}}))
        for n, (name, args) in enumerate(tools):
            events.append(event("content_block_start", {"index": index, "content_block": {
                "type": "tool_use", "id": f"toolu_{n}", "name": name, "input": {}}}))
            pieces = split_text(generated_arguments(args), int(reply.get("arg_chunks", 3)))
            for piece in ["", *pieces]:
                events.append(event("content_block_delta", {"index": index, "delta": {
                    "type": "input_json_delta", "partial_json": piece}}))
            events.append(event("content_block_stop", {"index": index}))
            index += 1
        events.append(event("message_delta", {
            "delta": {"stop_reason": "tool_use" if tools else "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": 9}}))
        events.append(event("message_stop", {}))
        self._events(reply, events, "text/event-stream; charset=utf-8")

    # -------------------------------------------------------------- Ollama

    def _ollama(self, reply: Reply) -> None:
        def line(message: dict[str, Any], done: bool = False, **extra: Any) -> str:
            data = {"model": "fake-model", "created_at": "2026-11-22T00:00:00.000000Z",
                    "message": {"role": "assistant", **message}, "done": done, **extra}
            return json.dumps(data) + "\n"

        if "events" in reply:
            return self._events(reply, (e if isinstance(e, str) else json.dumps(e) + "\n"
                                        for e in reply["events"]), "application/x-ndjson")
        if "endless" in reply:
            endless = line({"content": str(reply["endless"])})
            return self._events(reply, _forever(endless), "application/x-ndjson")
        events = [line({"content": piece})
                  for piece in split_text(reply.get("text", ""), int(reply.get("chunks", 3)))]
        if reply.get("stream_error"):
            events.append(json.dumps({"error": reply["stream_error"]}) + "\n")
        for n, (name, args) in enumerate(reply.get("tools", [])):
            raw = generated_arguments(args)
            # arguments go in as raw JSON text (never parsed here), so deep or invalid ones pass
            arguments = json.dumps(raw) if reply.get("string_args") else raw
            events.append(line({"content": "", "tool_calls": [
                {"id": f"call_{n}", "function": {"index": n, "name": name,
                                                 "arguments": "@ARGS@"}}]}).replace(
                '"@ARGS@"', arguments, 1))
        events.append(line({"content": ""}, True, done_reason="stop", total_duration=1000,
                           prompt_eval_count=17, eval_count=5))
        self._events(reply, events, "application/x-ndjson")


def _forever(event: str) -> Iterator[str]:
    while True:
        yield event


def _chain(first: list[str], rest: Iterable[str]) -> Iterator[str]:
    yield from first
    yield from rest


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--script", help="JSON file holding a list of replies")
    args = parser.parse_args(argv)
    server = FakeServer()
    if args.script:
        with open(args.script, encoding="utf-8") as handle:
            server.script(*json.load(handle))
    server.start()
    print(f"PORT {server.port}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
