"""Keys that behave as at a bash prompt where prompt-toolkit's defaults differ.

* Ctrl-O (operate-and-get-next) runs the line and puts the next history line in the new
  prompt, with ↑/↓ going on from there.
* Ctrl-Z and Ctrl-\\ do nothing: at bash's prompt the tty turns them into signals that an
  interactive bash ignores (a readline binding for them only runs from a macro, as in bash);
  a Ctrl-D from a macro on an empty line does not end the shell.
* vi mode: ``/`` and ``?`` search the history and put the match in the line, cursor at its
  start, still in command mode (Enter then runs it); ``.`` repeats the last change, with the
  text it inserted.
* set-mark (C-@, M-SPC) and exchange-point-and-mark (C-x C-x), which fzf's Alt-C macro uses;
  a yank-pop (M-y) with no yank before it ends the macro that ran it, as in readline.
* history-search-backward/-forward (prefix) and history-substring-search-*: bindable readline
  functions prompt-toolkit lacks.
* ``stty -echo`` typed at the prompt: the editor shows nothing of what is typed until
  ``stty echo``, as readline does when the terminal's echo is off (read from the pty's termios
  after each command).

Design note for ``.``: prompt-toolkit keeps no "last change". Its emacs macro recorder (which
takes every key a binding handled) records permanently while in vi mode; at each return to
command mode with nothing pending, the keys since the previous return are the last change if
they began with a change command and changed the text. ``.`` feeds them again.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any

from prompt_toolkit import search
from prompt_toolkit.application import Application, get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.enums import EditingMode
from prompt_toolkit.filters import (
    Condition,
    emacs_mode,
    is_searching,
    vi_navigation_mode,
    vi_search_direction_reversed,
)
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.bindings.named_commands import get_by_name
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.key_binding.vi_state import InputMode
from prompt_toolkit.layout.processors import Processor, Transformation, TransformationInput

from swebash.interactive.widgets import EditorMark

CHANGES = set("xXdDcCsSrRiIaApP~")  # vi commands that change the line ("." repeats them)
Accept = Callable[[KeyPressEvent], None]


class MacroKey(KeyPress):
    """A key fed by a readline macro (it reaches bindings a typed key never reaches)."""


def fed_by_macro(event: KeyPressEvent) -> bool:
    return any(isinstance(key, MacroKey) for key in event.key_sequence)


def abort_macro(event: KeyPressEvent) -> None:
    """A readline function that fails inside a macro (``yank-pop`` with no yank before it,
    ``abort``) ends the macro: the rest of its keys are dropped, as readline's
    _rl_abort_internal does (fzf's Alt-C relies on it when C-y is rebound)."""
    queue = event.app.key_processor.input_queue
    while queue and isinstance(queue[0], MacroKey):
        queue.popleft()


def yank_pop(event: KeyPressEvent) -> None:
    """readline's yank-pop: only right after a yank; otherwise a macro running it ends."""
    if event.current_buffer.document_before_paste is None:
        if fed_by_macro(event):
            abort_macro(event)
        return
    get_by_name("yank-pop").call(event)


class HiddenInput(Processor):
    """Nothing of the line is shown (the terminal's echo is off)."""

    def apply_transformation(self, ti: TransformationInput) -> Transformation:
        return Transformation([], source_to_display=lambda i: 0, display_to_source=lambda i: 0)


# buffer -> (its text, cursor and history index right after a history search, that search's
# prefix): a search key pressed again in that same state goes on with the same prefix, as
# readline does while rl_last_func is a history search
_SEARCH_RUNS: weakref.WeakKeyDictionary[Buffer, tuple[tuple[str, int, int], str]] = (
    weakref.WeakKeyDictionary())


def history_search(buffer: Buffer, backward: bool, substring: bool = False) -> bool:
    """readline's history-search-backward/-forward: the next older (newer) history line that
    starts with (``substring``: contains) the text before the cursor; the cursor stays. The
    prefix is the one of the first key of a run of searches, and an empty one makes the key
    previous-/next-history (cursor at the end), as in readline (oh-my-bash binds the arrows
    to these)."""
    state = (buffer.text, buffer.cursor_position, buffer.working_index)
    run = _SEARCH_RUNS.get(buffer)
    typed = run[1] if run is not None and run[0] == state else buffer.document.text_before_cursor
    if not typed:
        index = buffer.working_index
        if backward:
            buffer.history_backward()
        else:
            buffer.history_forward()
        moved = buffer.working_index != index
    else:
        moved = _search_prefix(buffer, typed, backward, substring)
    if moved:
        _SEARCH_RUNS[buffer] = ((buffer.text, buffer.cursor_position, buffer.working_index), typed)
    return moved


def _search_prefix(buffer: Buffer, typed: str, backward: bool, substring: bool) -> bool:
    strings = buffer.history.get_strings()
    point = buffer.cursor_position
    index = buffer.working_index
    steps = range(index - 1, -1, -1) if backward else range(index + 1, len(strings))
    for i in steps:
        line = strings[i] if i < len(strings) else ""
        if line != buffer.text and (typed in line if substring else line.startswith(typed)):
            buffer.working_index = i
            buffer.cursor_position = min(point, len(buffer.text))
            return True
    return False


def magic_space(buffer: Buffer, histexpand: bool) -> None:
    """readline's magic-space (oh-my-bash binds Space to it): the line's history references
    expanded in place (``!!``, ``!$``…), then a space, the cursor kept as far from the end as
    it was; a reference that does not expand leaves the line and inserts nothing, as in bash."""
    from swebash.interactive.histexpand import HistoryExpander, HistoryExpansionError

    text = buffer.text
    if histexpand and ("!" in text or text.startswith("^")):
        try:
            result = HistoryExpander().expand(text, buffer.history.get_strings())
        except HistoryExpansionError:
            return
        if result.changed:
            from_end = len(text) - buffer.cursor_position
            buffer.text = result.line
            buffer.cursor_position = max(0, len(result.line) - from_end)
    buffer.insert_text(" ")


class ViRepeat:
    """vi's ``.``: the keys of the last change, recorded as they are typed."""

    def __init__(self) -> None:
        self.last: list[KeyPress] = []
        self.recording: list[KeyPress] | None = None
        self.from_command_mode = False  # the keys being recorded began in command mode
        self.text = ""

    def attach(self, app: Application[Any]) -> None:
        app.key_processor.before_key_press += lambda _: self._before_key(app)

    @staticmethod
    def _idle(app: Application[Any]) -> bool:
        """In command mode with nothing pending: the keys so far form a whole command."""
        vi = app.vi_state
        return (vi.input_mode == InputMode.NAVIGATION and vi.operator_func is None
                and not app.key_processor.key_buffer and app.key_processor.arg is None
                and not app.layout.is_searching)

    def _before_key(self, app: Application[Any]) -> None:
        state = app.emacs_state
        if app.editing_mode != EditingMode.VI:
            if self.recording is not None and state.current_recording is self.recording:
                state.current_recording = None
            self.recording = None
            return
        idle = self._idle(app)
        text = app.current_buffer.text
        if self.recording is None or state.current_recording is not self.recording:
            self.recording = state.current_recording = []
            self.from_command_mode, self.text = idle, text
            return
        if idle:
            self._close(text)

    def _close(self, text: str) -> None:
        """The keys since the last command are a whole command: keep them if a change."""
        if self.recording is None:
            return
        if self.from_command_mode and text != self.text:
            keys = [k.key for k in self.recording if isinstance(k.key, str)]
            if next((k for k in keys if not k.isdigit()), "") in CHANGES:
                self.last = list(self.recording)
        self.recording.clear()
        self.from_command_mode, self.text = True, text

    def repeat(self, event: KeyPressEvent) -> None:
        # (an Esc that ended the change may have been processed only with this key)
        self._close(event.app.current_buffer.text)
        if self.last:
            event.app.key_processor.feed_multiple(list(self.last), first=True)


class PromptKeys:
    def __init__(self, accept: Accept, mark: EditorMark) -> None:
        self.accept = accept
        self.mark = mark
        self.vi_repeat = ViRepeat()
        self.vi_search = False  # the search was started by vi's / or ?
        self.echo = True

    def processors(self) -> list[Processor]:
        from prompt_toolkit.layout.processors import ConditionalProcessor

        return [ConditionalProcessor(HiddenInput(), Condition(lambda: not self.echo))]

    def before_prompt(self, echo: bool) -> None:
        self.echo = echo
        self.mark.position = 0
        self.vi_search = False

    def operate_and_get_next(self, event: KeyPressEvent) -> None:
        """Run the line; the next prompt starts at the history line after it."""
        buffer = event.current_buffer
        index = buffer.working_index
        self.accept(event)
        if not event.app.is_done:
            return

        def recall_next() -> None:
            async def wait_for_history() -> None:
                buffer.load_history_if_not_yet_loaded()
                for _ in range(50):  # loading the history takes a few passes of the loop
                    await asyncio.sleep(0)
                    if buffer.working_index >= len(buffer.history.get_strings()):
                        break
                steps = buffer.working_index - (index + 1)
                if steps > 0:
                    buffer.history_backward(count=steps)

            event.app.create_background_task(wait_for_history())

        event.app.pre_run_callables.append(recall_next)

    def set_mark(self, event: KeyPressEvent) -> None:
        self.mark.position = event.current_buffer.cursor_position

    def exchange_point_and_mark(self, event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        here = buffer.cursor_position
        buffer.cursor_position = min(self.mark.position, len(buffer.text))
        self.mark.position = here

    def bindings(self, macro_binding: Callable[[KeyPressEvent, str],
                                               Callable[[KeyPressEvent], None] | None]
                 ) -> KeyBindings:
        kb = KeyBindings()
        editing = ~is_searching

        @kb.add("c-o", filter=emacs_mode & editing)
        def _(event: KeyPressEvent) -> None:
            self.operate_and_get_next(event)

        for key, char in (("c-z", "\x1a"), ("c-\\", "\x1c")):
            @kb.add(key)
            def _(event: KeyPressEvent, char: str = char) -> None:
                handler = macro_binding(event, char) if fed_by_macro(event) else None
                if handler is not None:
                    handler(event)

        @kb.add("c-d", filter=editing & Condition(
            lambda: not get_app().current_buffer.text))
        def _(event: KeyPressEvent) -> None:
            # a macro ending in C-d (fzf's Alt-C restores the line with it) never exits
            if not fed_by_macro(event):
                event.app.exit(exception=EOFError, style="class:exiting")

        @kb.add("c-@", filter=emacs_mode & editing)
        @kb.add("escape", " ", filter=emacs_mode & editing)
        def _(event: KeyPressEvent) -> None:
            self.set_mark(event)

        @kb.add("c-x", "c-x", filter=emacs_mode & editing)
        def _(event: KeyPressEvent) -> None:
            self.exchange_point_and_mark(event)

        kb.add("escape", "y", filter=emacs_mode & editing)(yank_pop)

        # vi: / and ? put the match in the line (bash's non-incremental vi search)
        @kb.add("/", filter=vi_navigation_mode & vi_search_direction_reversed)
        @kb.add("?", filter=vi_navigation_mode & ~vi_search_direction_reversed)
        def _(event: KeyPressEvent) -> None:
            self.vi_search = True
            search.start_search(direction=search.SearchDirection.BACKWARD)

        @kb.add("?", filter=vi_navigation_mode & vi_search_direction_reversed)
        @kb.add("/", filter=vi_navigation_mode & ~vi_search_direction_reversed)
        def _(event: KeyPressEvent) -> None:
            self.vi_search = True
            search.start_search(direction=search.SearchDirection.FORWARD)

        @kb.add("c-r", filter=editing)
        def _(event: KeyPressEvent) -> None:
            self.vi_search = False
            search.start_search(direction=search.SearchDirection.BACKWARD)

        @kb.add("enter", filter=is_searching & Condition(lambda: self.vi_search))
        def _(event: KeyPressEvent) -> None:
            self.vi_search = False
            search.accept_search()
            event.app.current_buffer.cursor_position = 0

        @kb.add(".", filter=vi_navigation_mode, record_in_macro=False)
        def _(event: KeyPressEvent) -> None:
            self.vi_repeat.repeat(event)

        return kb
