"""Which startup files the session's bash reads, and in what order: bash's rule, then swebash's.

The rule (bash's INVOCATION section, as Debian's and Ubuntu's bash applies it):

- a login shell (argv[0] starting with ``-``, ``-l``, ``--login``) reads ``/etc/profile``, then
  the first of ``~/.bash_profile``, ``~/.bash_login``, ``~/.profile`` that exists (in posix
  mode ``~/.profile`` only); ``--noprofile`` skips them. It does not read ``~/.bashrc`` itself
  (the usual ``~/.bash_profile`` sources it, so it is read once);
- an interactive shell that is not a login shell reads ``/etc/bash.bashrc`` (where the system
  has one: Debian's and Ubuntu's bash are built to read it; Ubuntu's command-not-found handler
  and default prompt live there), then ``~/.bashrc`` (``--rcfile FILE``: FILE instead);
  in posix mode ``$ENV`` instead of both; ``--norc`` skips them;
- then swebash's own ``~/.swebashrc``, login or not, for what only swebash should see;
  ``--norc`` and ``--rcfile`` skip it too.

Bash reads none of these files itself (it is started with ``--norc --noprofile``): the session's
init file sources them, so the order is this module's and the system paths can be moved for
tests. Until they have run, ``PS1`` is what bash gives an interactive shell (the environment's,
or bash's built-in ``\\s-\\v\\$ ``), so ``[ -z "$PS1" ] && return`` guards work; a ``PS1`` still
at the built-in value afterwards means the user set none, and swebash draws its own prompt.
Options given on the command line (``-x``, ``-e``, ``-o vi``, ``-O extglob``, ``--posix``) are
set before the files are read, as bash sets them.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

BASH_DEFAULT_PS1 = "\\s-\\v\\$ "


@dataclass(frozen=True)
class Startup:
    login: bool = False
    profile: bool = True  # --noprofile: False
    rc: bool = True  # --norc: False
    rcfile: str | None = None  # --rcfile FILE: instead of ~/.bashrc and ~/.swebashrc
    posix: bool = False
    set_words: tuple[str, ...] = ()  # for `set` before the files: "-x", "-o", "pipefail"
    shopt_words: tuple[tuple[bool, str], ...] = ()  # -O NAME (True) / +O NAME (False)
    system_profile: str = "/etc/profile"
    system_bashrc: str | None = "/etc/bash.bashrc"  # None: the system has none to read
    swebashrc: str | None = None  # ~/.swebashrc

    def files(self) -> list[list[str]]:
        """The files to read in order; each entry is a list read as "the first that exists"
        (shell words: ``~/`` is expanded by bash when it reads them)."""
        found: list[list[str]] = []
        if self.login and self.profile:
            found.append([shlex.quote(self.system_profile)])
            found.append(["~/.profile"] if self.posix
                         else ["~/.bash_profile", "~/.bash_login", "~/.profile"])
        if not self.login and self.rc and not self.posix:
            if self.system_bashrc:
                found.append([shlex.quote(self.system_bashrc)])
            found.append([shlex.quote(self.rcfile) if self.rcfile else "~/.bashrc"])
        if self.rc and self.rcfile is None and self.swebashrc:
            found.append([shlex.quote(self.swebashrc)])
        return found

    def script(self) -> str:
        """Bash text that sets the options and reads the files (part of the init file).

        One group, parsed before it runs: bash records the lines it reads while history is on
        (the files' own lines are read apart and never recorded, as in bash), and the files see
        history on, as an interactive bash's do; whether they left it on is kept. swebash's own
        lines send their trace to /dev/null, so ``-x`` shows the files' commands only."""
        # (turning history on gives HISTFILESIZE bash's 500 at once; an interactive bash gives
        # it its default only after the files, from their HISTSIZE: bashinit's AFTER_FUNCS)
        lines = ["builtin set -o history",
                 "[[ -n $__sb_hfs0_set ]] || builtin unset HISTFILESIZE"]
        if self.posix:
            lines.append("builtin set -o posix")
        for on, name in self.shopt_words:
            lines.append(f"builtin shopt {'-s' if on else '-u'} {shlex.quote(name)}")
        if self.set_words:
            lines.append("builtin set " + " ".join(shlex.quote(w) for w in self.set_words))
        for choices in self.files():
            tests = [f"if {{ [[ -r {choices[0]} ]]; }} 2>/dev/null; then . {choices[0]}"]
            tests += [f"elif {{ [[ -r {name} ]]; }} 2>/dev/null; then . {name}"
                      for name in choices[1:]]
            lines.append("\n".join(tests) + "\nfi")
        if not self.login and self.rc and self.posix:
            lines.append('if { [[ -n ${ENV-} && -r ${ENV} ]]; } 2>/dev/null; then . "$ENV"; fi')
        lines.append("{ " + "; ".join([
            f"[[ ${{PS1-}} != {shlex.quote(BASH_DEFAULT_PS1)} ]] || PS1=",
            "if [[ -o history ]]; then __sb_userhist=1; else __sb_userhist=0; fi",
            "builtin set +o history",
            # posix mode refuses swebash's `trap` wrapper (a special builtin's name): it goes
            # back on after swebash's functions are defined (``finish``)
            *(["builtin set +o posix"] if self.posix else [])]) + "; } 2>/dev/null")
        return "{\n" + "\n".join(lines) + "\n}\n"

    def finish(self) -> str:
        """Bash text for the end of the init file, after swebash's functions."""
        return "builtin set -o posix\n" if self.posix else ""


def rcfile_only(path: str | None) -> Startup:
    """The session of tests and benchmarks: one rc file (or none), nothing else."""
    return Startup(rc=path is not None, rcfile=path, system_bashrc=None)
