"""Tool calls on screen: the compact display (one header row, a few output rows), the boxed
one, results in the words of their tool, spinners, notices — read back through an emulator."""

from __future__ import annotations

import io
import json

from rich.console import Console

from swebash.api import Error, Retrying, ToolCallEnd, ToolCallStart, ToolExecuting
from swebash.render.panels import Spinner, ToolPanels
from swebash.render.results import view_result
from swebash.render.terminal import LiveTerminal
from swebash.render.theme import make_console
from tests.render.screen import copied, replay, replay_screen, row_texts


def plain_console(width: int = 80) -> Console:
    return make_console(io.StringIO(), force_terminal=False, width=width)


def colour_console() -> Console:
    return Console(file=io.StringIO(), width=80, force_terminal=True, color_system="standard")


def tty_console(width: int = 80, height: int = 24) -> Console:
    return Console(file=io.StringIO(), width=width, height=height, force_terminal=True,
                   color_system="256")


def output(console: Console) -> str:
    return console.file.getvalue()  # type: ignore[attr-defined]


def end(result: object, *, ok: bool = True, ms: float = 12, summary: str = "",
        name: str = "execute_command", call_id: str = "") -> ToolCallEnd:
    text = result if isinstance(result, str) else json.dumps(result)
    return ToolCallEnd(name, text, ok, ms, call_id, summary)


def draw(start: ToolCallStart | None, result: ToolCallEnd, *, width: int = 80,
         style: str = "compact") -> list[str]:
    console = plain_console(width)
    panels = ToolPanels(console, style=style)
    if start is not None:
        panels.start(start)
    panels.end(result)
    return output(console).splitlines()


def command(cmd: str, call_id: str = "c1") -> ToolCallStart:
    return ToolCallStart("execute_command", {"command": cmd}, f"$ {cmd}", call_id)


# --------------------------------------------------------------------------- compact


def test_a_call_is_one_header_row_then_its_first_lines_with_a_count() -> None:
    stdout = "".join(f"row {i}\n" for i in range(40))
    lines = draw(command("ls -la"), end({"exit_code": 0, "stdout": stdout}, ms=2500,
                                        call_id="c1"))
    assert lines == ["✓ $ ls -la · exit 0 · 2.5 s", "  row 0", "  row 1  … +38 lines"]


def test_short_output_is_shown_whole_and_no_output_is_said() -> None:
    assert draw(command("echo a"), end({"exit_code": 0, "stdout": "a\n"}, ms=3,
                                       call_id="c1")) == ["✓ $ echo a · exit 0 · 3 ms", "  a"]
    assert draw(command("true"), end({"exit_code": 0, "stdout": "", "stderr": ""}, ms=3,
                                     call_id="c1")) == ["✓ $ true · exit 0 · no output · 3 ms"]


def test_a_file_read_is_one_row() -> None:
    read = ToolCallStart("filesystem", {"operation": "read", "path": "src/app.py"},
                         "read src/app.py", "r1")
    content = "".join(f"line {i}\n" for i in range(120))
    assert draw(read, end({"path": "/p/src/app.py", "content": content}, ms=1,
                          name="filesystem", call_id="r1", summary="read 120 lines")) == [
        "✓ read src/app.py · 120 lines · 1 ms"]
    one = end({"path": "/p/x", "content": "only\n"}, ms=1, name="filesystem", call_id="r1")
    assert draw(read, one)[0].endswith("· 1 line · 1 ms")  # "1 line", never "1 lines"


def test_a_search_is_grep_style_and_counted_in_matches() -> None:
    search = ToolCallStart("search_text", {"pattern": "TODO"}, "search /TODO/ in src", "s1")
    matches = [{"file": "src/a.py", "line": n, "text": f"# TODO {n}"} for n in (3, 9, 40)]
    matches.append({"file": "src/b.py", "line": 1, "text": "TODO"})
    lines = draw(search, end({"matches": matches, "truncated": False}, ms=5,
                             name="search_text", call_id="s1", summary="4 matches"))
    assert lines == ["✓ search /TODO/ in src · 4 matches in 2 files · 5 ms",
                     "  src/a.py:3: # TODO 3", "  src/a.py:9: # TODO 9  … +2 matches"]
    one = draw(search, end({"matches": matches[:1]}, ms=5, name="search_text", call_id="s1"))
    assert one[0] == "✓ search /TODO/ in src · 1 match in 1 file · 5 ms"
    assert "{" not in "".join(lines)  # never raw JSON
    # what the search left out is said in the header, as the tool says it to the model
    notes = {"skipped": "skipped 10 secret files: .ssh/id_rsa, .aws/credentials, …",
             "not_searched": "2 files over 1048576 bytes",
             "stopped": "stopped at 1000 matches; the results are partial"}
    noted = draw(search, end({"matches": matches[:1], **notes}, ms=5, name="search_text",
                             call_id="s1"))
    assert noted[0] == ("✓ search /TODO/ in src · 1 match in 1 file · skipped 10 secret files"
                        " · 2 files over 1048576 bytes not searched · stopped at 1000 matches"
                        " · 5 ms")


def test_entries_and_web_results_have_their_own_nouns() -> None:
    listing = {"path": "/p", "entries": [{"name": "src", "type": "directory", "size": 0}],
               "truncated": "4 more entries not shown"}
    lines = draw(ToolCallStart("list_files", {}, "list .", "l1"),
                 end(listing, name="list_files", call_id="l1", ms=1))
    assert lines == ["✓ list . · 5 entries · 1 ms", "  src/  … +4 entries"]
    hits = [{"title": "Rich", "url": "https://rich.readthedocs.io"}]
    lines = draw(ToolCallStart("web_search", {}, "search the web: rich", "w1"),
                 end(hits, name="web_search", call_id="w1", ms=1))
    assert lines == ["✓ search the web: rich · 1 result · 1 ms",
                     "  Rich — https://rich.readthedocs.io"]


def test_a_failure_is_red_and_shows_its_last_lines_after_a_count() -> None:
    stderr = "".join(f"line {i}\n" for i in range(59)) + "error: the real reason\n"
    result = end({"exit_code": 1, "stdout": "", "stderr": stderr}, call_id="c1")
    lines = draw(command("make test"), result)
    assert lines == ["✗ $ make test · exit 1 · 12 ms", "  … +57 lines", "  line 57",
                     "  line 58", "  error: the real reason"]
    coloured = colour_console()
    panels = ToolPanels(coloured)
    panels.start(command("make test"))
    panels.end(result)
    assert "\x1b[1;31m✗" in output(coloured)


def test_refused_and_failed_calls_say_why() -> None:
    refused = end({"error": True, "type": "PermissionDenied", "message": "deletes ~"},
                  ok=False, ms=0, call_id="c1")
    assert draw(command("rm -rf ~"), refused) == ["✗ $ rm -rf ~ · refused", "  deletes ~"]
    failed = end({"error": "No such file: x.py", "type": "NotFound"}, ok=False,
                 name="filesystem")
    assert draw(None, failed) == ["✗ filesystem · failed · 12 ms", "  No such file: x.py"]


def test_the_whole_command_is_written_and_copies_as_it_ran() -> None:
    # A long command is not cut or folded by us: the terminal wraps it, and copying the
    # wrapped rows gives one line; a multi-line command keeps its lines, unindented.
    long = "grep -rn --include='*.py' " + " ".join(f"pattern{i}" for i in range(30)) + " src/"
    script = "for f in *.txt; do\n  wc -l \"$f\"\ndone"
    console = tty_console(width=50)
    panels = ToolPanels(console)
    for number, cmd in enumerate((long, script)):
        panels.start(command(cmd, f"c{number}"))
        panels.end(end({"exit_code": 0, "stdout": "ok\n"}, ms=3, call_id=f"c{number}"))
    screen = replay_screen(output(console), 50)
    rows = row_texts(screen)
    first = next(i for i, row in enumerate(rows) if row.startswith("✓ $ grep"))
    last = next(i for i, row in enumerate(rows) if "· exit 0" in row)
    assert copied(screen, first, last) == f"✓ $ {long} · exit 0 · 3 ms"
    start = rows.index("✓ $ for f in *.txt; do")
    assert rows[start + 1:start + 3] == ['  wc -l "$f"', "done · exit 0 · 3 ms"]
    assert copied(screen, start, start + 2).removeprefix("✓ $ ").removesuffix(
        " · exit 0 · 3 ms") == script
    assert not any("…" in row for row in rows)


def test_nothing_is_drawn_to_the_right_margin() -> None:
    # No box edges: narrowing the window later cannot break a row in two.
    console = tty_console(width=60)
    panels = ToolPanels(console)
    panels.start(command("ls"))
    panels.end(end({"exit_code": 0, "stdout": "a\nb\nc\n"}, call_id="c1"))
    rows = replay(output(console), 60)
    assert all(len(row) < 40 for row in rows)
    assert not any(ch in "".join(rows) for ch in "│╭╮╰╯")


def test_output_escapes_are_neutralised_and_long_lines_cut_with_their_count() -> None:
    result = end({"exit_code": 1, "stdout": "\x1b[31mred\x1b[0m\rover\n"}, ok=True,
                 call_id="c1")
    text = "\n".join(draw(command("x"), result))
    assert "\x1b" not in text and "\r" not in text and "red\\rover" in text
    wide = end({"exit_code": 0, "stdout": "x" * 200 + "\n" + "y" * 200 + "\n" + "z\n"},
               call_id="c1")
    lines = draw(command("cat wide"), wide, width=60)
    assert len(lines[2]) == 60 and lines[2].endswith("…  … +1 line")


def test_label_without_description_falls_back_to_arguments_made_visible() -> None:
    lines = draw(ToolCallStart("read_file", {"path": "a\x1b[2Jb"}),
                 end({"content": "x"}, name="read_file"))
    assert "\x1b" not in "".join(lines)
    assert 'read_file {"path": "a\\u001b[2Jb"}' in lines[0]


def test_the_count_adds_up_in_every_shape() -> None:
    for result in ({"exit_code": 0, "stdout": "a\nb\nc\nd\n"},
                   {"exit_code": 2, "stdout": "", "stderr": "a\nb\nc\nd\ne\n"},
                   {"matches": [{"file": "f", "line": i, "text": "t"} for i in range(7)]},
                   [{"title": str(i), "url": "u"} for i in range(4)]):
        view = view_result(end(result), 2, 3)
        assert len(view.lines) + view.more == view.count


# --------------------------------------------------------------------------- boxed


def test_boxed_style_draws_a_panel_with_the_whole_command() -> None:
    long = "echo " + "word " * 40
    lines = draw(command(long.strip()), end({"exit_code": 0, "stdout": "a\n"}, call_id="c1"),
                 style="boxed")
    assert lines[0].startswith("╭─ execute_command ✓ exit 0 · 1 line · 12 ms")
    body = "".join(line.strip("│ ") for line in lines[1:-2])
    assert body.replace(" ", "") == ("$ " + long.strip()).replace(" ", "")  # folded, not cut
    assert lines[-2].strip("│ ") == "a" and lines[-1].startswith("╰")


def test_an_mcp_call_is_titled_with_the_servers_own_names() -> None:
    # The model's name for tool "a.b" of server "big" is mcp__big__a_b_a1e841: a panel's
    # title says "big · a.b", as the label does — for a result and for a failure alike.
    start = ToolCallStart("mcp__big__a_b_a1e841", {}, "MCP big · a.b {}", "c1")
    result = end({"server": "big", "tool": "a.b", "output": "tool a.b answered"},
                 name="mcp__big__a_b_a1e841", call_id="c1", summary="1 line")
    lines = draw(start, result, style="boxed")
    assert lines[0].startswith("╭─ big · a.b ✓ 1 line")
    assert not any("mcp__" in line for line in lines)
    failed = end({"error": True, "type": "McpToolError", "message": "boom"}, ok=False,
                 name="mcp__big__a_b_a1e841", call_id="c1")
    lines = draw(ToolCallStart("mcp__big__a_b_a1e841", {}, "MCP big · a.b {}", "c1"), failed,
                 style="boxed")
    assert lines[0].startswith("╭─ big · a.b ✗")
    assert not any("mcp__" in line for line in lines)


def test_boxed_and_plain_headline_counts_lines() -> None:
    view = view_result(end({"exit_code": 0, "stdout": "a\n"}))
    assert view.headline == "exit 0 · 1 line · 12 ms"


# --------------------------------------------------------------------------- running


def test_spinner_is_silent_off_terminal_and_transient_on_terminal() -> None:
    console = plain_console()
    spinner = Spinner(console)
    spinner.start()
    assert not spinner.active
    spinner.stop()
    assert output(console) == ""

    tty = Console(file=io.StringIO(), width=80, force_terminal=True)
    now = [100.0]
    spinner = Spinner(tty, clock=lambda: now[0])
    panels = ToolPanels(tty, spinner=spinner)
    panels.start(command("make test"))
    panels.executing(ToolExecuting("execute_command", "c1"))
    assert spinner.active
    now[0] += 12.3
    spinner.terminal.redraw()
    assert "running $ make test · 12 s" in output(tty)  # the elapsed seconds count up
    panels.end(end({"exit_code": 0, "stdout": "ok\n"}, call_id="c1"))
    assert not spinner.active and not panels.running
    assert "exit 0" in output(tty)
    spinner.terminal.clear()


def test_the_elapsed_seconds_are_never_cut() -> None:
    now = [0.0]
    console = tty_console(width=40)
    spinner = Spinner(console, clock=lambda: now[0])
    panels = ToolPanels(console, spinner=spinner)
    panels.start(command("python -c 'import time; time.sleep(30)' " + "--flag " * 20))
    panels.executing(ToolExecuting("execute_command", "c1"))
    now[0] += 7.5
    spinner.terminal.redraw()
    rows = replay(output(console), 40)
    assert rows[-1].endswith("… · 7 s") and len(rows[-1]) <= 40
    spinner.stop()
    spinner.terminal.clear()


def test_a_parallel_call_is_drawn_as_it_finishes_while_the_others_run() -> None:
    now = [0.0]
    console = tty_console(width=80)
    terminal = LiveTerminal(console, clock=lambda: now[0], tick_seconds=3600)
    spinner = Spinner(console, terminal=terminal)
    panels = ToolPanels(console, spinner=spinner, terminal=terminal)
    for number, cmd in enumerate(("sleep 5", "echo fast", "sleep 3")):
        panels.start(command(cmd, f"c{number}"))
    for number in range(3):
        panels.executing(ToolExecuting("execute_command", f"c{number}"))
    now[0] += 2.0
    frames = terminal.frames
    panels.end(end({"exit_code": 0, "stdout": "fast\n"}, call_id="c1"))
    assert terminal.frames == frames + 1  # result and spinner at once: never one without the other
    rows = replay(output(console), 80)
    assert rows[-3:] == ["✓ $ echo fast · exit 0 · 12 ms", "  fast",
                         rows[-1]]  # the result, then the spinner for the two still running
    assert "running 2 calls: $ sleep 5, $ sleep 3 · 2 s" in rows[-1]
    now[0] += 1.5
    panels.end(end({"exit_code": 0, "stdout": ""}, call_id="c2", ms=3000))
    rows = replay(output(console), 80)
    assert rows[-2] == "✓ $ sleep 3 · exit 0 · no output · 3.0 s"
    assert "running $ sleep 5 · 3 s" in rows[-1]  # counted from when they started
    panels.end(end({"exit_code": 0, "stdout": ""}, call_id="c0", ms=5000))
    assert not panels.running and not spinner.active
    terminal.clear()
    rows = replay(output(console), 80)
    assert [row[:12] for row in rows if row.startswith("✓")] == [
        "✓ $ echo fas", "✓ $ sleep 3 ", "✓ $ sleep 5 "]  # in the order they finished
    assert not any("running" in row for row in rows)


def test_retry_and_error_notices_are_one_line() -> None:
    console = plain_console()
    panels = ToolPanels(console)
    panels.retrying(Retrying(2, 1.5, "rate limited"))
    panels.error(Error("provider unreachable"))
    lines = output(console).splitlines()
    assert lines == ["↻ retrying (attempt 2) in 1.5 s: rate limited", "✗ provider unreachable"]


def test_retry_wait_counts_down() -> None:
    tty = Console(file=io.StringIO(), width=80, force_terminal=True)
    now = [0.0]
    spinner = Spinner(tty, clock=lambda: now[0])
    ToolPanels(tty, spinner=spinner).retrying(Retrying(2, 5.0))
    assert "retrying in 5 s" in output(tty)
    now[0] += 3
    spinner.terminal.redraw()
    assert "retrying in 2 s" in output(tty)
    spinner.stop()
    spinner.terminal.clear()


def test_non_json_and_search_results() -> None:
    view = view_result(end("plain words\nsecond"))
    assert view.lines == ("plain words", "second")
    hits = [{"title": "Rich", "url": "https://rich.readthedocs.io"}]
    assert view_result(end(hits)).lines == ("Rich — https://rich.readthedocs.io",)
    assert view_result(end({"results": hits})).lines == ("Rich — https://rich.readthedocs.io",)


def test_a_result_nested_past_the_json_decoder_is_shown_as_text() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    view = view_result(ToolCallEnd("mcp__srv__deep", deep, True, 1.0))
    assert view.ok and view.lines  # no RecursionError: the raw text is the output



def test_a_summary_that_repeats_the_label_is_said_once() -> None:
    done = ToolCallStart("task_complete", {"summary": "ok"}, "task complete", "t1")
    result = end({"status": "complete", "summary": "ok"}, name="task_complete", call_id="t1",
                 summary="task complete", ms=1)
    assert draw(done, result) == ["✓ task complete · 1 ms"]
    write = ToolCallStart("write_file", {}, "write notes.txt (3 lines)", "w1")
    assert draw(write, end({"path": "/p/notes.txt", "bytes_written": 12, "created": True},
                           name="write_file", call_id="w1", ms=2,
                           summary="created notes.txt, 12 bytes")) == [
        "✓ write notes.txt (3 lines) · created notes.txt, 12 bytes · 2 ms"]
