"""The interactive loop: read a line with prompt-toolkit, route it, dispatch it.

Ctrl-D on an empty line exits with the last status; Ctrl-C drops the line (or the AI turn);
any other error prints one line and the loop goes on (ptpython's rule). Plain lines go to the
persistent bash; `?`, `??` and `ai …` go to the AI frontend, created on first use so that no
AI code is imported before it is needed (and warmed in the background after the first prompt).
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

from prompt_toolkit import PromptSession, search
from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.completion import ThreadedCompleter
from prompt_toolkit.enums import DEFAULT_BUFFER, EditingMode
from prompt_toolkit.filters import has_focus, is_searching
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.styles import Style, merge_styles

from swebash.config import Config
from swebash.errors import ShellDied, SwebashError
from swebash.interactive.comfort import STYLE_RULES, Comfort
from swebash.interactive.completer import ShellCompleter
from swebash.interactive.eof import EofGuard
from swebash.interactive.history import ShellHistory
from swebash.interactive.histsync import HistorySync
from swebash.interactive.idle import IdleOutput
from swebash.interactive.lineedit import LineEditing, make_dumb
from swebash.interactive.prompt import PROMPT_STYLE, prompt_fragments
from swebash.interactive.reexec import reexec_self
from swebash.interactive.shell_builtins import EXIT, ShellBuiltins
from swebash.router import Ask, Builtin, Empty, Fix, ShellLine, Translate, route
from swebash.shell.session import ShellSession

STYLE = Style.from_dict(PROMPT_STYLE)
WARM_DELAY = 0.3


if TYPE_CHECKING:
    from swebash.host.runtime import RuntimeFactory

class Repl:
    def __init__(self, config: Config, session: ShellSession, runtime_factory: RuntimeFactory,
                 *, input: Any = None, output: Any = None) -> None:
        self.config = config
        self.session = session
        self.status = 0
        self.next_default = ""
        from swebash.interactive.ai_session import (
            AiFrontend,  # light: the heavy parts load in warm()
        )

        self.ai: AiFrontend = AiFrontend(config, session.context, runtime_factory)
        self._warmed = False
        self.color = not (config.no_color or config.dumb_term)
        paths = config.paths
        history = ShellHistory(paths.history_file if paths.persistent else None,
                               seed=paths.home / ".bash_history")
        self.history = history
        self.histsync = HistorySync(history, session)  # what bash's list does (histsync.py)
        self.eof = EofGuard(session)  # ignoreeof / IGNOREEOF
        self.idle = IdleOutput(session)  # background output while the editor waits
        self.builtins = ShellBuiltins(session)  # set -o vi, bind, exit
        session.on_editing_mode = self._set_mode
        self.queued: list[str] = []  # complete lines typed while a command ran
        self.completer = ShellCompleter(session)
        # suggestions, colouring, history expansion, the user's prompt, ?fix (comfort.py)
        self.comfort = Comfort(config, session, history, self.color)
        # Tab like bash, inputrc and bind, readline's keys (lineedit.py)
        self.editing = LineEditing(session, self._accept_line, self._set_mode)
        dumb = output is None and config.dumb_term
        if dumb:
            from swebash.interactive.dumb import DumbOutput

            output = DumbOutput()
        self.prompt_session: PromptSession[str] = PromptSession(
            history=history,
            completer=ThreadedCompleter(self.completer),
            complete_while_typing=False,
            key_bindings=merge_key_bindings([self._bindings(), self.comfort.bindings(),
                                             self.editing.key_bindings()]),
            input_processors=self.editing.processors(),
            multiline=False,  # Ctrl-R searches in the prompt line, as in bash (Enter: ours)
            # a wrapped long line starts at the left edge, as in bash (nothing to copy along)
            prompt_continuation=lambda width, line, wrap: (
                "" if wrap else self.comfort.continuation(width)),
            enable_open_in_editor=True,  # Ctrl-X Ctrl-E: $VISUAL / $EDITOR
            style=merge_styles([STYLE, Style.from_dict(STYLE_RULES)]) if self.color else None,
            lexer=self.comfort.lexer if self.color else None,
            rprompt=self.comfort.rprompt,
            auto_suggest=self.comfort.auto_suggest(self._auto_suggest()),
            enable_history_search=False,
            input=input,
            output=output,
        )
        self.editing.attach(self.prompt_session)
        if dumb:
            make_dumb(self.prompt_session, self.message, output)

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
            self._accept_line(event)

        @kb.add("c-c", filter=editing)
        def _(event: KeyPressEvent) -> None:
            buffer = event.current_buffer  # bash shows ^C after the line and sets $? to 130
            buffer.cursor_position = len(buffer.text)
            buffer.insert_text("^C")
            event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

        @kb.add("<bracketed-paste>", filter=editing)
        def _(event: KeyPressEvent) -> None:
            data = event.data.replace("\r\n", "\n").replace("\r", "\n")
            event.current_buffer.insert_text(data[:-1] if data.endswith("\n") else data)

        # Ctrl-R as in bash and fish: Enter runs the match, moving keys take it for editing
        @kb.add("enter", filter=is_searching)
        def _(event: KeyPressEvent) -> None:
            search.accept_search()
            event.app.current_buffer.validate_and_handle()

        for key in ("left", "right", "c-a", "c-e", "home", "end", "c-b", "c-f"):
            @kb.add(key, filter=is_searching)
            def _(event: KeyPressEvent, key: str = key) -> None:
                search.accept_search()
                buffer = event.app.current_buffer
                if key in ("c-a", "home"):
                    buffer.cursor_position += buffer.document.get_start_of_line_position()
                elif key in ("c-e", "end"):
                    buffer.cursor_position += buffer.document.get_end_of_line_position()
                elif key in ("left", "c-b"):
                    buffer.cursor_left()
                else:
                    buffer.cursor_right()

        @kb.add("escape", "e")
        def _(event: KeyPressEvent) -> None:
            text = event.current_buffer.text.strip()
            if text:
                run_in_terminal(lambda: self._explain(text))

        return kb

    def _accept_line(self, event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if self.session.needs_more_input(buffer.text):
            buffer.insert_text("\n")
        elif not self.comfort.intercept_enter(event):  # history expansion
            buffer.validate_and_handle()

    def _explain(self, text: str) -> None:
        try:
            self.ai.explain(text)
        except SwebashError as exc:
            print(f"swebash: {exc}")

    def message(self) -> Any:
        return self.comfort.message(FormattedText(prompt_fragments(
            self.session.cwd, str(self.config.paths.home), self.status, self.config.prompt,
            self.color)))

    def _set_mode(self, name: str) -> None:
        self.builtins.on_mode(name)
        self.prompt_session.editing_mode = self.builtins.mode

    def _pre_run(self) -> None:
        self.idle.attach()
        self._warm_later()

    def read_line(self) -> str:
        """The next line: typed ahead during the last command (as in bash: complete lines
        run, a partial one is waiting at the prompt), or read with the line editor."""
        typed = self.session.take_typeahead()
        if typed:
            *lines, partial = typed.split("\n")
            self.queued += lines
            self.next_default = partial if not self.next_default else self.next_default
        accept = bool(self.queued)
        default, self.next_default = self.next_default, ""
        if accept:
            self.next_default, default = default, self.queued.pop(0)
        self.comfort.refresh()
        self.editing.before_prompt()  # inputrc/bind changes, stty echo
        self.prompt_session.editing_mode = self.builtins.mode
        try:
            line: str = self.prompt_session.prompt(self.message, default=default,
                                                   accept_default=accept,
                                                   pre_run=self._pre_run)
        finally:
            self.idle.detach()
        self.comfort.take_echo()
        return line

    # ------------------------------------------------------------------ loop

    def loop(self) -> int:
        while True:
            eof = False
            try:
                line = self.read_line()
                self.eof.reset()
            except KeyboardInterrupt:
                self.status = 130
                self.session.set_next_status(130)
                self.editing.interrupted()  # the user's INT trap, as at bash's prompt
                continue
            except EOFError:  # Ctrl-D: bash's exit, as bash does (it prints "exit")
                if self.eof.ignored():
                    continue
                line, eof = "exit", True
            except ShellDied as died:  # TMOUT, or bash was killed while idle
                return died.status
            try:
                self.dispatch(line, eof=eof)
            except ShellDied as died:  # exit, exec, set -e: the shell ends, as bash would
                return died.status
            except KeyboardInterrupt:
                print("^C")
                self.status = 130
            except SwebashError as exc:
                print(f"swebash: {exc}", file=sys.stderr)
                self.status = 1
            except Exception as exc:  # the shell must survive its own bugs
                print(f"swebash: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
                self.status = 1

    def dispatch(self, line: str, *, eof: bool = False) -> None:
        if "\0" in line:  # bash cannot hold it (history.py keeps what it can)
            print("swebash: a line with a NUL byte cannot run; nothing was run", file=sys.stderr)
            return
        routed = route(line)
        if isinstance(routed, Empty):
            # bash reads an empty line too: PROMPT_COMMAND runs, finished jobs' notices
            # ("[1]+ Done") print and the jobs are cleaned up, PS1 is expanded anew (\t, $(…))
            self.session.refresh_prompt()
            return
        if isinstance(routed, ShellLine):
            self.run_shell_line(line, eof=eof)
            return
        if not isinstance(routed, Translate) and not line.startswith(" "):
            # `?` and `ai …` lines, which bash never sees, are for ↑ too; `?? task` is not
            # history, the command it produces is
            self.histsync.remember(line)
        if isinstance(routed, Fix):
            from swebash.interactive.fix import propose_fix

            command = propose_fix(self.ai, self.session.context, routed.text)
            if command:
                self.next_default = command
            return
        if isinstance(routed, Ask):
            if not routed.text:
                print("swebash: ask a question after '?', e.g. ? why did that fail")
                return
            self.status = self.ai.ask(routed.text)
            self.session.set_next_status(self.status)  # `echo $?` agrees with the prompt
        elif isinstance(routed, Translate):
            if not routed.text:
                print("swebash: describe a task after '??', e.g. ?? find big files")
                return
            command = self.ai.translate(routed.text)
            if command:
                self.next_default = command
        elif isinstance(routed, Builtin):
            from swebash.host import builtins as ai_builtins

            self.status = ai_builtins.run(self.ai, routed.text)
            self.session.set_next_status(self.status)

    def run_shell_line(self, line: str, *, eof: bool = False) -> None:
        """``eof``: the ``exit`` of a Ctrl-D, which bash leaves out of history."""
        answered = self.builtins.answer(line)
        if answered is not None:
            self.status = answered
            self.histsync.remember(line)
            return
        if reexec_self(line, self):  # `exec swebash`, `exec $SHELL`: a fresh swebash
            return
        sent = self.builtins.exit_line(line) if EXIT.fullmatch(line) else line
        self.session.editing_mode = "vi" if self.builtins.mode == EditingMode.VI else "emacs"
        try:
            record = self.session.run(sent, history=not eof)
        except ShellDied:  # a typed `exit` is history too
            self.histsync.after_command(line, synced=False)
            raise
        self.status = record.exit_status
        self.builtins.after(line, record.output_tail)
        self.comfort.record(line, self.status)
        self.histsync.after_command(line)

    def load_history(self) -> None:
        """Bash gets the saved history (the newest HISTSIZE entries, histsync.py)."""
        self.histsync.load()

    def close(self) -> None:
        self.ai.close()


def run_interactive(config: Config, session: ShellSession, runtime_factory: RuntimeFactory,
                    repl: Repl | None = None) -> int:
    """The shell's loop; ``repl``: one built beforehand (see interactive/firstprompt.py)."""
    repl = repl or Repl(config, session, runtime_factory)
    try:
        session.wait_ready()
        repl.load_history()
        return repl.loop()
    finally:
        repl.close()
        session.close()
        sys.stdout.flush()
