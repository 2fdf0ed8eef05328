"""The interactive loop: read a line with prompt-toolkit, route it, dispatch it.

Ctrl-D on an empty line exits with the last status; Ctrl-C drops the line (or the AI turn);
any other error prints one line and the loop goes on (ptpython's rule). Plain lines go to the
persistent bash; `?`, `??` and `ai …` go to the AI frontend, created on first use so that no
AI code is imported before it is needed (and warmed in the background after the first prompt).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, ThreadedCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.enums import DEFAULT_BUFFER
from prompt_toolkit.filters import has_focus
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.styles import Style

from swebash.config import Config
from swebash.errors import ShellDied, SwebashError
from swebash.interactive.history import SharedFileHistory
from swebash.interactive.prompt import prompt_fragments
from swebash.router import Ask, Builtin, Empty, ShellLine, Translate, route
from swebash.shell.session import ShellSession

STYLE = Style.from_dict({"userhost": "ansigreen bold", "cwd": "ansiblue bold",
                         "git": "ansimagenta", "status": "ansired bold"})
EXITING_WORDS = ("exit", "logout", "exec")
WARM_DELAY = 0.3


class ShellCompleter(Completer):
    """Completions from the session's own bash (commands, paths, variables, compspecs)."""

    def __init__(self, session: ShellSession) -> None:
        self.session = session

    def get_completions(self, document: Document, complete_event: CompleteEvent
                        ) -> Iterable[Completion]:
        before = document.text_before_cursor
        if "\n" in before:
            before = before.rsplit("\n", 1)[1]
        word = "" if not before or before[-1].isspace() else before.split()[-1]
        for candidate in self.session.complete(before, timeout=0.1):
            if candidate.startswith(word) or not word:
                yield Completion(candidate, start_position=-len(word))


class Repl:
    def __init__(self, config: Config, session: ShellSession, *, input: Any = None,
                 output: Any = None) -> None:
        self.config = config
        self.session = session
        self.status = 0
        self.next_default = ""
        from swebash.interactive.ai_session import (
            AiFrontend,  # light: the heavy parts load in warm()
        )

        self.ai: AiFrontend = AiFrontend(config, session.context)
        self._warmed = False
        self.color = not (config.no_color or config.dumb_term)
        self.prompt_session: PromptSession[str] = PromptSession(
            history=SharedFileHistory(config.paths.history_file),
            completer=ThreadedCompleter(ShellCompleter(session)),
            complete_while_typing=False,
            key_bindings=self._bindings(),
            multiline=True,
            prompt_continuation=lambda width, line, wrap: "> ".rjust(width),
            style=STYLE if self.color else None,
            auto_suggest=self._auto_suggest(),
            enable_history_search=False,
            input=input,
            output=output,
        )

    # ------------------------------------------------------------------ AI, lazily

    def _auto_suggest(self) -> Any:
        if not self.config.ai.autocomplete:
            return None
        from swebash.interactive.suggestions import AiAutoSuggest

        return AiAutoSuggest(self.ai)

    def _warm_later(self) -> None:
        if self._warmed:
            return
        self._warmed = True
        timer = threading.Timer(WARM_DELAY, self.ai.warm)
        timer.daemon = True
        timer.start()

    # ------------------------------------------------------------------ input

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()

        editing = has_focus(DEFAULT_BUFFER)  # not while Ctrl-R search has the focus

        @kb.add("enter", filter=editing)
        @kb.add("c-j", filter=editing)
        def _(event: KeyPressEvent) -> None:
            buffer = event.current_buffer
            if self.session.needs_more_input(buffer.text):
                buffer.insert_text("\n")
            else:
                buffer.validate_and_handle()

        @kb.add("escape", "e")
        def _(event: KeyPressEvent) -> None:
            text = event.current_buffer.text.strip()
            if text:
                run_in_terminal(lambda: self._explain(text))

        return kb

    def _explain(self, text: str) -> None:
        try:
            self.ai.explain(text)
        except SwebashError as exc:
            print(f"swebash: {exc}")

    def message(self) -> FormattedText:
        return FormattedText(prompt_fragments(self.session.cwd, str(self.config.paths.home),
                                              self.status, self.config.prompt, self.color))

    def read_line(self) -> str:
        default, self.next_default = self.next_default, ""
        line: str = self.prompt_session.prompt(self.message, default=default,
                                               pre_run=self._warm_later)
        return line

    # ------------------------------------------------------------------ loop

    def loop(self) -> int:
        while True:
            try:
                line = self.read_line()
            except KeyboardInterrupt:
                continue
            except EOFError:
                return self.status
            try:
                self.dispatch(line)
            except ShellDied as died:
                words = line.split()
                if words and words[0] in EXITING_WORDS:
                    return died.status
                print(f"swebash: bash exited (status {died.status}); started a fresh session "
                      "— shell state (cwd, variables, aliases) was lost", file=sys.stderr)
                self.status = died.status
                self.session.restart()
            except KeyboardInterrupt:
                print("^C")
                self.status = 130
            except SwebashError as exc:
                print(f"swebash: {exc}", file=sys.stderr)
                self.status = 1
            except Exception as exc:  # the shell must survive its own bugs
                print(f"swebash: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
                self.status = 1

    def dispatch(self, line: str) -> None:
        routed = route(line)
        if isinstance(routed, Empty):
            return
        if isinstance(routed, ShellLine):
            self.status = self.session.run(line).exit_status
            return
        if isinstance(routed, Ask):
            if not routed.text:
                print("swebash: ask a question after '?', e.g. ? why did that fail")
                return
            self.status = self.ai.ask(routed.text)
        elif isinstance(routed, Translate):
            if not routed.text:
                print("swebash: describe a task after '??', e.g. ?? find big files")
                return
            command = self.ai.translate(routed.text)
            if command:
                self.next_default = command
        elif isinstance(routed, Builtin):
            from swebash.interactive import ai_builtins

            self.status = ai_builtins.run(self.ai, routed.text)

    def close(self) -> None:
        self.ai.close()


def run_interactive(config: Config, session: ShellSession) -> int:
    repl = Repl(config, session)
    try:
        session.wait_ready()
        return repl.loop()
    finally:
        repl.close()
        session.close()
        sys.stdout.flush()
