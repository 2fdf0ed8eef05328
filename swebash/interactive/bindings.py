"""The user's readline setup — inputrc files and ``bind`` — applied to swebash's line editor.

Readline's state lives in the session's bash (shell/bashreadline.py), which parses every
inputrc and ``bind`` form itself; after each command that changed it (and at start), swebash
reads it back (inputrc.py) and turns what differs from readline's defaults into prompt-toolkit
key bindings, in the keymap they were made for (``emacs``, ``vi-insert``, ``vi-command``):

* ``bind -x '"KEY": cmd'`` runs ``cmd`` as bash would (widgets.py: fzf, atuin).
* ``bind '"KEY": "text"'`` (a macro) feeds its keys to the editor, as readline re-reads them.
* ``bind '"KEY": function'`` for the readline functions swebash has: prompt-toolkit's own
  (``beginning-of-line``, ``kill-word``, ``yank-pop``, ``menu-complete``, …) and those in
  ``OWN`` below (``history-search-backward``, ``complete``, ``operate-and-get-next``,
  ``shell-expand-line``, …). Other function names are ignored (README lists them).

Variables (``bind -v``) that matter to the editor are read through ``setting``:
``completion-ignore-case`` (bash's ``compgen`` honours it itself), ``show-all-if-ambiguous``,
``show-all-if-unmodified``, ``mark-directories``, ``completion-query-items``,
``page-completions``, ``print-completions-horizontally``, ``completion-display-width``,
``bell-style``, ``disable-completion``; ``editing-mode`` switches the editor when it changes.
The keys the tty turns into signals at bash's prompt (Ctrl-C, Ctrl-Z, Ctrl-\\) are never taken
from a binding when typed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from prompt_toolkit.filters import (
    Filter,
    emacs_mode,
    is_searching,
    vi_insert_mode,
    vi_navigation_mode,
)
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.bindings.named_commands import get_by_name
from prompt_toolkit.keys import Keys

from swebash.interactive.inputrc import RlBinding, changes, parse_variables, sections
from swebash.interactive.keys import MacroKey
from swebash.interactive.widgets import to_keys
from swebash.shell.session import ShellSession

Handler = Callable[[KeyPressEvent], None]
KEYMAP_FILTER: dict[str, Filter] = {"emacs": emacs_mode, "vi-insert": vi_insert_mode,
                                    "vi-command": vi_navigation_mode}
SIGNAL_KEYS = {Keys.ControlC, Keys.ControlZ, Keys.ControlBackslash}
KIND_ORDER = {"function": 0, "macro": 1, "command": 2}  # a key's shell command wins
DUMP_TIMEOUT = 2.0


class ReadlineBindings:
    def __init__(self, session: ShellSession, own: dict[str, Handler],
                 run_command: Callable[[KeyPressEvent, str], None],
                 set_mode: Callable[[str], None]) -> None:
        self.session = session
        self.own = own  # readline functions swebash implements (by name)
        self.run_command = run_command  # a bind -x command
        self.set_mode = set_mode
        self.kb = KeyBindings()
        self.variables: dict[str, str] = {}
        self.base_text: str | None = None
        self.macro_keys: dict[tuple[str, str], Handler] = {}  # signal keys, for macros only
        self.loaded = False

    def setting(self, name: str) -> str:
        return self.variables.get(name, "")

    # ------------------------------------------------------------------ reading bash's state

    def refresh(self) -> None:
        """Read readline's state again if bash says it changed (after a command, at start)."""
        folder = Path(self.session.dir)
        flag, first = folder / "rl-changed", folder / "rl-now"
        if self.loaded and not flag.exists():
            return
        text: str | None = None
        if not self.loaded and first.exists():  # dumped by the rc file's end, no round trip
            text = _read(first)
        elif flag.exists():
            with contextlib.suppress(OSError):
                flag.unlink()
            data = self.session.capture("__sb_rl_dump", DUMP_TIMEOUT)
            text = data.decode("utf-8", "surrogateescape") if data is not None else None
        if self.base_text is None:
            self.base_text = _read(folder / "rl-base")
        for path in (flag, first):
            with contextlib.suppress(OSError):
                path.unlink()
        self.loaded = True
        self.apply(self.base_text, text if text is not None else self.base_text)

    def apply(self, base_text: str, now_text: str) -> None:
        bindings, variables = changes(base_text, now_text)
        old_mode = self.variables.get("editing-mode") or parse_variables(
            sections(base_text).get(("-", "v"), [])).get("editing-mode")
        self.variables = variables
        mode = variables.get("editing-mode")
        if mode in ("vi", "emacs") and mode != old_mode:
            self.set_mode(mode)
        self.kb = self.build(bindings)

    # ------------------------------------------------------------------ key bindings

    def build(self, bindings: list[RlBinding]) -> KeyBindings:
        kb = KeyBindings()
        self.macro_keys = {}
        for binding in sorted(bindings, key=lambda b: KIND_ORDER[b.kind]):
            handler = self.handler(binding)
            keys = tuple(k.key for k in to_keys(binding.keys))
            if handler is None or not keys:
                continue
            if keys[0] in SIGNAL_KEYS:  # typed, these never reach readline
                if len(keys) == 1:
                    self.macro_keys[(binding.keymap, binding.keys)] = handler
                continue
            kb.add(*keys, filter=KEYMAP_FILTER[binding.keymap] & ~is_searching)(handler)
        return kb

    def handler(self, binding: RlBinding) -> Handler | None:
        if binding.kind == "command":
            command = binding.value

            def run(event: KeyPressEvent) -> None:
                self.run_command(event, command)

            return run
        if binding.kind == "macro":
            keys = to_keys(binding.value)

            def feed(event: KeyPressEvent) -> None:
                event.app.key_processor.feed_multiple(
                    [MacroKey(k.key, k.data) for k in keys], first=True)

            return feed
        return self.function(binding.value)

    def function(self, name: str) -> Handler | None:
        if name in self.own:
            return self.own[name]
        try:
            named = get_by_name(name)
        except KeyError:
            return None  # a readline function swebash does not have

        def call(event: KeyPressEvent) -> None:
            named.call(event)

        return call

    def for_signal_key(self, keymap: str, char: str) -> Handler | None:
        return self.macro_keys.get((keymap, char))

    def key_bindings(self) -> Any:
        from prompt_toolkit.key_binding import DynamicKeyBindings

        return DynamicKeyBindings(lambda: self.kb)


def _read(path: Path) -> str:
    try:
        return path.read_text("utf-8", "surrogateescape")
    except OSError:
        return ""
