"""Tab completion in the line editor: the session's bash decides, readline's quoting applies.

A candidate replaces the whole word under the cursor with what one Tab in bash would leave
there (see ``swebash.shell.completion``), so the menu inserts exactly what a single Tab
inserts. Completion runs in prompt-toolkit's completer thread; the session serialises its pty
use with a lock, so background output keeps flowing while bash answers.
"""

from __future__ import annotations

from collections.abc import Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from swebash.shell.completion import complete_line
from swebash.shell.session import ShellSession

TIMEOUT = 0.5  # a compspec slower than this is abandoned (the session recovers)


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
