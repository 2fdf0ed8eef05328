"""The completion menu (a third Tab after a listing, ``menu-complete``): the session's bash
decides, readline's quoting applies.

Tab itself is readline's ``complete`` (tabcomplete.py). A menu entry replaces the whole word
under the cursor with what Tab would leave there for that match (see
``swebash.shell.completion``). It runs in prompt-toolkit's completer thread; the session
serialises its pty use with a lock, so background output keeps flowing while bash answers.
"""

from __future__ import annotations

from collections.abc import Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from swebash.shell.completion import complete_line
from swebash.shell.session import ShellSession

TIMEOUT = 5.0  # a menu is not worth waiting longer for (Tab itself waits without limit)


class ShellCompleter(Completer):
    """Completions from the session's own bash (commands, paths, variables, compspecs)."""

    def __init__(self, session: ShellSession) -> None:
        self.session = session

    def get_completions(self, document: Document, complete_event: CompleteEvent
                        ) -> Iterable[Completion]:
        if document.text.lstrip().startswith("?"):
            return  # an AI question, not a command line
        for candidate in complete_line(self.session, document.text_before_cursor, TIMEOUT):
            yield Completion(candidate.insert, start_position=candidate.start,
                             display=candidate.display)
