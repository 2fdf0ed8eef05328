"""The few shell lines whose answer belongs to swebash's line editor, not to bash.

``set -o vi|emacs`` switch prompt-toolkit's editing mode (bash's own readline would otherwise be
switched on inside the session and read swebash's control lines); bash reports the request
with a marker, also when it comes from the rc file or a compound line. ``set -o``/``set +o``
show the editor's mode on the emacs/vi lines. ``bind`` runs in bash, which keeps readline's
state for swebash's editor (interactive/bindings.py). Exit: Ctrl-D is ``exit`` said to bash, so
bash prints ``exit``, refuses once with "There are stopped jobs", and leaves running jobs alive
(huponexit off); a second exit in a row leaves even with stopped jobs, which then get their
hang-up from the kernel, as with bash.
"""

from __future__ import annotations

import re

from prompt_toolkit.enums import EditingMode

from swebash.shell.session import ShellSession

SET_MODE = re.compile(r"\s*set\s+([-+])o\s+(vi|emacs)\s*")
SET_LIST = re.compile(r"\s*set\s+([-+])o\s*")
EXIT = re.compile(r"\s*(exit|logout)(\s+\S+)?\s*")


class ShellBuiltins:
    def __init__(self, session: ShellSession) -> None:
        self.session = session
        self.mode = EditingMode.EMACS
        self.exit_refused = False  # the last line was an exit that bash refused

    def on_mode(self, name: str) -> None:
        self.mode = EditingMode.VI if name == "vi" else EditingMode.EMACS

    def answer(self, line: str) -> int | None:
        """Status if swebash answered ``line`` itself; None: bash runs it."""
        match = SET_MODE.fullmatch(line)
        if match:
            sign, name = match.groups()
            wanted = name if sign == "-" else ("emacs" if name == "vi" else "vi")
            self.on_mode(wanted)
            return 0
        match = SET_LIST.fullmatch(line)
        if match:
            return self._list(match.group(1))
        return None

    def _list(self, sign: str) -> int:
        data = self.session.capture(f"builtin set {sign}o")
        recording = self.session.capture(
            f'builtin printf %s "${self.session.state_var("userhist")}"')
        if data is None:
            return 1
        mode = "vi" if self.mode == EditingMode.VI else "emacs"
        # bash's own recording is off (swebash records); show what the user asked for
        state = {"vi": mode == "vi", "emacs": mode == "emacs", "history": recording != b"0"}
        out = []
        for row in data.decode("utf-8", "replace").splitlines():
            name = row.split()[-1] if sign == "+" else row.split()[0]
            if name in state:
                on = state[name]
                row = (f"set {'-' if on else '+'}o {name}" if sign == "+"
                       else f"{name:<15}\t{'on' if on else 'off'}")
            out.append(row)
        print("\n".join(out))
        return 0

    def exit_line(self, line: str) -> str:
        """What to send bash for an exit (Ctrl-D sends ``exit``): a second exit in a row
        leaves even with stopped jobs, as in bash."""
        if self.exit_refused:
            word = line.split()
            status = word[1] if len(word) > 1 else ""
            return f"builtin disown -a; builtin exit {status}".rstrip()
        return line

    def after(self, line: str, output: str) -> None:
        self.exit_refused = bool(EXIT.fullmatch(line)) and "stopped jobs" in output
