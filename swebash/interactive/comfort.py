"""The REPL's comfort features in one place, so the REPL only calls in at a few points:
history suggestions, live colouring, history expansion at Enter, the user's own prompt (with
rprompt and transient prompts) and `?fix`.

History expansion happens when Enter accepts a plain shell line, before prompt-toolkit stores
it: the expanded line is what history keeps and what runs, and it is echoed under the typed one
as bash does; `:p` only echoes (and stores) it; an error prints bash's message and drops the
line; with ``shopt -s histverify`` the expanded line is put back for editing instead. It is
on while the session's bash has ``H`` in ``$-`` (``set +H`` turns it off) and never touches
`?` questions, which are prose.
"""

from __future__ import annotations

import datetime
import os
import sys
from typing import TYPE_CHECKING, Any

from prompt_toolkit.application.current import get_app
from prompt_toolkit.auto_suggest import AutoSuggest
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from swebash.config import Config
from swebash.interactive.fix import FIX_KEY
from swebash.interactive.highlight import STYLE as HIGHLIGHT_STYLE
from swebash.interactive.highlight import ShellLexer
from swebash.interactive.histexpand import HistoryExpander, HistoryExpansionError
from swebash.interactive.history_suggest import (
    HistoryAutoSuggest,
    HistorySuggester,
    suggestion_bindings,
)
from swebash.interactive.prompt import git_branch, shorten_home, user_prompt
from swebash.router import ShellLine, route
from swebash.shell.userprompt import PromptState

if TYPE_CHECKING:
    from prompt_toolkit.history import History

    from swebash.shell.session import ShellSession

STYLE_RULES = {**HIGHLIGHT_STYLE, "rprompt": "ansibrightblack"}


class Comfort:
    def __init__(self, config: Config, session: ShellSession, history: History,
                 color: bool) -> None:
        self.config = config
        self.session = session
        self.history = history
        self.color = color
        self.state = PromptState()
        self.expander = HistoryExpander()
        self.echo: str | None = None  # expanded line to print once the prompt has returned
        self.echo_error = False  # the echo is bash's error message (stderr)
        self.suggester = HistorySuggester(self._stored_lines)
        self.suggester.build_in_background()
        self.lexer = ShellLexer(lambda: (self.state.names, self.state.path, self.session.cwd))

    def _stored_lines(self) -> list[str]:
        newest_first = list(self.history.load_history_strings())
        newest_first.reverse()
        return newest_first

    # ------------------------------------------------------------------ per prompt

    def refresh(self) -> None:
        """Read what bash left before this prompt (user PS1, $-, PATH, functions)."""
        self.state = self.session.prompt_state()

    def record(self, line: str, status: int) -> None:
        self.suggester.record(line, self.session.cwd, status)

    def auto_suggest(self, fallback: AutoSuggest | None) -> AutoSuggest:
        return HistoryAutoSuggest(self.suggester, lambda: self.session.cwd, fallback)

    # ------------------------------------------------------------------ prompt text

    def message(self, default: FormattedText) -> Any:
        if self.config.prompt.transient and get_app().is_done:
            return FormattedText([("", "# " if os.geteuid() == 0 else "$ ")])
        if self.state.has_prompt:
            return FormattedText(user_prompt(self.state.ps1, self.color))
        return default

    def continuation(self, width: int) -> Any:
        if self.state.has_prompt and self.state.ps2:
            return FormattedText(user_prompt(self.state.ps2, self.color))
        return "> ".rjust(width)

    def rprompt(self) -> StyleAndTextTuples:
        template = self.config.prompt.rprompt
        if not template or get_app().is_done:
            return []
        last = self.session.context.recent_commands(1)
        status = self.session.last_status
        values = {
            "time": datetime.datetime.now().strftime("%H:%M:%S"),
            "status": str(status) if status else "",
            "duration": (f"{last[-1].duration_ms / 1000:.1f}s"
                         if last and last[-1].duration_ms >= 1000 else ""),
            "git": (git_branch(self.session.cwd) or "") if "{git}" in template else "",
            "cwd": shorten_home(self.session.cwd, str(self.config.paths.home)),
            "venv": os.path.basename(self.session.context.exported_env().get("VIRTUAL_ENV", ""))
            if "{venv}" in template else "",
        }
        try:
            text = template.format(**values).strip()
        except (KeyError, IndexError, ValueError):
            text = template
        return [("class:rprompt", text)]

    # ------------------------------------------------------------------ Enter

    def intercept_enter(self, event: KeyPressEvent) -> bool:
        """Expand history in the line being accepted; True when Enter was handled here."""
        buffer = event.current_buffer
        text = buffer.text
        if ("!" not in text and not text.startswith("^")) or not self.state.histexpand:
            return False
        if not isinstance(route(text), ShellLine):
            return False
        try:
            result = self.expander.expand(text, self.history.get_strings())
        except HistoryExpansionError as exc:
            self.echo, self.echo_error = f"bash: {exc}", True
            event.app.exit(result="")
            return True
        if not result.changed:
            return False
        if not result.print_only and "histverify" in self.session.shell_options().shopt:
            # shopt -s histverify: the expanded line comes back for editing, not run
            buffer.document = Document(result.line, len(result.line))
            return True
        self.history.append_string(result.line)
        self.echo, self.echo_error = result.line, False
        event.app.exit(result="" if result.print_only else result.line)
        return True

    def take_echo(self) -> None:
        if self.echo is not None:
            print(self.echo, file=sys.stderr if self.echo_error else sys.stdout, flush=True)
            self.echo = None

    # ------------------------------------------------------------------ keys

    def bindings(self) -> KeyBindings:
        kb = suggestion_bindings()

        @kb.add(*FIX_KEY)
        def _(event: KeyPressEvent) -> None:
            event.app.exit(result="?fix")

        return kb

