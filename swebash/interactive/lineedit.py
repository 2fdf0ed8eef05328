"""What readline does at a bash prompt, for swebash's prompt-toolkit editor, in one place.

The REPL calls in at a few points only: ``key_bindings()`` and ``processors()`` when it builds
the prompt, ``attach`` once the prompt exists, ``before_prompt`` before each line (the user's
readline state and the terminal's echo are read again), ``interrupted`` after Ctrl-C (the user's
INT trap). The parts: Tab completion like bash (tabcomplete.py), the user's inputrc and ``bind``
(bindings.py, widgets.py), keys that differ from prompt-toolkit's defaults (keys.py), and a
plain line mode for TERM=dumb (dumb.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.enums import DEFAULT_BUFFER, EditingMode
from prompt_toolkit.filters import emacs_mode, has_focus
from prompt_toolkit.key_binding import (
    KeyBindings,
    KeyBindingsBase,
    KeyPressEvent,
    merge_key_bindings,
)
from prompt_toolkit.key_binding.vi_state import InputMode
from prompt_toolkit.layout.processors import Processor

from swebash.interactive.bindings import Handler, ReadlineBindings
from swebash.interactive.keys import (
    Accept,
    PromptKeys,
    abort_macro,
    history_search,
    magic_space,
    yank_pop,
)
from swebash.interactive.tabcomplete import TabCompletion
from swebash.interactive.widgets import EditorMark, Widgets
from swebash.shell.session import ShellSession


class LineEditing:
    def __init__(self, session: ShellSession, accept: Accept,
                 set_mode: Callable[[str], None]) -> None:
        self.session = session
        self.mark = EditorMark()
        self.widgets = Widgets(session, self.mark)
        self.keys = PromptKeys(accept, self.mark)
        self.readline = ReadlineBindings(session, self._own(accept, set_mode),
                                         lambda event, command: self.widgets.run(
                                             event.app, event.current_buffer, command),
                                         set_mode)
        self.tab = TabCompletion(session, self.readline.setting)
        self.prompt_session: PromptSession[str] | None = None

    def _own(self, accept: Accept, set_mode: Callable[[str], None]) -> dict[str, Handler]:
        """The readline functions a binding may name that swebash implements itself."""

        def search(backward: bool, substring: bool) -> Handler:
            def handler(event: KeyPressEvent) -> None:
                history_search(event.current_buffer, backward, substring)

            return handler

        return {
            "accept-line": accept,
            "operate-and-get-next": self.keys.operate_and_get_next,
            "history-search-backward": search(True, False),
            "history-search-forward": search(False, False),
            "history-substring-search-backward": search(True, True),
            "history-substring-search-forward": search(False, True),
            "complete": lambda event: self.tab.complete(event),
            "possible-completions": lambda event: self.tab.possible_completions(event),
            "insert-completions": lambda event: self.tab.insert_completions(event),
            "shell-expand-line": lambda e: self.widgets.expand_line(e.app, e.current_buffer),
            "set-mark": self.keys.set_mark,
            "exchange-point-and-mark": self.keys.exchange_point_and_mark,
            "vi-editing-mode": lambda event: set_mode("vi"),
            "emacs-editing-mode": lambda event: set_mode("emacs"),
            "tab-insert": lambda event: event.current_buffer.insert_text("\t"),
            "magic-space": lambda event: magic_space(
                event.current_buffer, "histexpand" in self.session.shell_options().set_o),
            "abort": abort_macro,
            "yank-pop": yank_pop,
        }

    def _macro_key(self, event: KeyPressEvent, char: str) -> Handler | None:
        """A readline binding of a signal key (Ctrl-Z…), which only a macro can reach."""
        app = event.app
        if app.editing_mode == EditingMode.EMACS:
            keymap = "emacs"
        else:
            keymap = ("vi-insert" if app.vi_state.input_mode == InputMode.INSERT
                      else "vi-command")
        return self.readline.for_signal_key(keymap, char)

    def key_bindings(self) -> KeyBindingsBase:
        kb = KeyBindings()
        editing = has_focus(DEFAULT_BUFFER)

        @kb.add("tab", filter=editing)
        def _(event: KeyPressEvent) -> None:
            self.tab.complete(event)

        @kb.add("escape", "?", filter=editing & emacs_mode)
        def _(event: KeyPressEvent) -> None:
            self.tab.possible_completions(event)

        @kb.add("escape", "*", filter=editing & emacs_mode)
        def _(event: KeyPressEvent) -> None:
            self.tab.insert_completions(event)

        @kb.add("escape", "c-e", filter=editing & emacs_mode)
        def _(event: KeyPressEvent) -> None:
            self.widgets.expand_line(event.app, event.current_buffer)

        return merge_key_bindings([kb, self.keys.bindings(self._macro_key),
                                   self.readline.key_bindings()])

    def processors(self) -> list[Processor]:
        return [*self.keys.processors(), self.tab.processor()]

    def attach(self, session: PromptSession[str]) -> None:
        self.prompt_session = session
        self.keys.vi_repeat.attach(session.app)

    def before_prompt(self) -> None:
        self.readline.refresh()
        self.keys.before_prompt(self.session.terminal_echo())
        if self.prompt_session is not None:
            # the history is in the editor before the first key is read (↑, a prefix search
            # typed at once would otherwise find nothing)
            buffer = self.prompt_session.default_buffer
            self.prompt_session.app.pre_run_callables.append(
                buffer.load_history_if_not_yet_loaded)

    def interrupted(self) -> None:
        self.widgets.interrupted()

    @property
    def setting(self) -> Callable[[str], str]:
        return self.readline.setting


def make_dumb(session: PromptSession[str], message: Callable[[], Any], output: Any) -> None:
    from swebash.interactive.dumb import DumbEcho

    DumbEcho(output, message).attach(session)
