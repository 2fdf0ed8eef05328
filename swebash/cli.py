"""Entry point: parse options (bash's, with bash's meaning), pick a mode, start fast.

Interactive start-up (interactive/firstprompt.py): the tty is held at once (keys typed wait,
unechoed), bash is forked and reads the startup files while the line editor loads in a thread,
the user's prompt is drawn as soon as bash is ready and typed keys are echoed until the editor
takes over with them. The tty stays held between prompts (commands run on their own pty) and
gets its original settings back on exit. Nothing of the AI half is imported here;
non-interactive modes exec bash (or answer an AI line) and never import prompt-toolkit.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from swebash import __version__

if TYPE_CHECKING:
    from swebash.api import TerminalContext
    from swebash.config import Config, Paths
    from swebash.host.runtime import AiRuntime, Report
    from swebash.shell.startup import Startup

HELP = """\
usage: swebash [options]                 interactive shell
       swebash [options] -c COMMAND [ARG0 [ARGS...]]
       swebash [options] FILE [ARGS...]  run a script with bash
       CMDS | swebash [options]          run lines like `bash -s`
       swebash policy check [--json] -- COMMAND...
       swebash policy check-path [--write] [--json] PATH
       swebash --install-shell           add swebash to /etc/shells (for chsh)

options (bash's, with bash's meaning; single letters combine: -ilc, -lic, -xec):
  -c COMMAND        run COMMAND and exit with its status
  -l, --login       a login shell: /etc/profile, then ~/.bash_profile, ~/.bash_login or
                    ~/.profile (also when started as -swebash, as login and sshd do)
  -i                interactive even when stdin is not a terminal
  -s                read commands from standard input
  --noprofile       a login shell reads no profile files
  --norc            do not read /etc/bash.bashrc, ~/.bashrc and ~/.swebashrc
  --rcfile FILE     read FILE instead of ~/.bashrc and ~/.swebashrc
  --posix           bash's posix mode
  -x -e -u ...      set's options; -o OPTION / +o OPTION as for set
  -O OPTION         shopt -s OPTION (+O: shopt -u)
  --yes             non-interactive AI may run commands the safety gate would ask about
  --yes-dangerous   ... including dangerous ones (implies --yes)
  --continue        AI lines continue the last conversation begun in this directory
  --install-shell   add this swebash to /etc/shells (needs root)
  --version         print the version
  -h, --help        this help

AI (in the shell, in -c and in piped input):
  ? QUESTION        ask the AI; it can read files, run commands (asking y/N first) and
                    search the web; e.g.  ? why did that fail
  ?? TASK           turn TASK into a command placed in your prompt, e.g.  ?? find big files
  ai help           the AI builtins: ai status, ai reset, ai model, ai explain CMD, ...
"""

SET_FLAGS = frozenset("abefhkmnptuvxBCEHPT")  # the one-letter options of bash's `set`
BASH_LONG_FLAGS = {"--login": "login", "--noprofile": "noprofile", "--norc": "norc",
                   "--posix": "posix"}
OWN_LONG_FLAGS = {"--yes": "yes", "--continue": "continue_last", "--install-shell":
                  "install_shell"}


class Options:
    def __init__(self) -> None:
        self.command: str | None = None
        self.file: str | None = None
        self.args: list[str] = []
        self.login = False
        self.norc = False
        self.noprofile = False
        self.rcfile: str | None = None
        self.posix = False
        self.set_words: list[str] = []  # for bash's `set`: "-x", "-o", "pipefail", "+e"
        self.shopt_words: list[tuple[bool, str]] = []  # -O NAME (True), +O NAME (False)
        self.interactive = False
        self.stdin = False
        self.yes = False
        self.yes_dangerous = False
        self.continue_last = False
        self.install_shell = False
        self.closed_fds: tuple[int, ...] = ()  # std fds the caller closed (see reserve_std_fds)

    def bash_options(self) -> list[str]:
        """The options as bash takes them (long ones first), for the bash that runs -c, FILE
        and piped input."""
        words = [*(["--noprofile"] if self.noprofile else []), *(["--norc"] if self.norc else []),
                 *(["--rcfile", self.rcfile] if self.rcfile is not None else []),
                 *(["--posix"] if self.posix else []), *(["-l"] if self.login else []),
                 *(["-i"] if self.interactive else []), *self.set_words]
        for on, name in self.shopt_words:
            words += ["-O" if on else "+O", name]
        return words


class UsageError(Exception):
    pass


def parse(argv: list[str], argv0: str) -> Options:
    """Bash's invocation syntax: long options, then single-letter ones (combinable, ``-o``
    and ``-O`` take the next word), then ``--`` or ``-`` or the first operand. With ``-c`` the
    first operand is the command and the rest are ``$0 $1 …``; otherwise it is a script."""
    opts = Options()
    opts.login = os.path.basename(argv0).startswith("-")
    want_command = False
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg in ("--", "-"):
            break
        if arg in BASH_LONG_FLAGS:
            setattr(opts, BASH_LONG_FLAGS[arg], True)
        elif arg in OWN_LONG_FLAGS:
            setattr(opts, OWN_LONG_FLAGS[arg], True)
        elif arg == "--yes-dangerous":
            opts.yes = opts.yes_dangerous = True
        elif arg in ("--rcfile", "--init-file"):
            if i >= len(argv):
                raise UsageError(f"{arg}: option requires an argument")
            opts.rcfile = argv[i]
            i += 1
        elif arg == "--verbose":
            opts.set_words.append("-v")
        elif len(arg) > 1 and arg[0] in "-+" and arg[1] != "-":
            i, want_command = _letters(opts, arg, argv, i, want_command)
        elif arg.startswith("-") and len(arg) > 1:
            raise UsageError(f"unknown option {arg} (try swebash --help)")
        else:
            i -= 1
            break
    rest = argv[i:]
    if want_command:
        if not rest:
            raise UsageError("-c: option requires an argument")
        opts.command, opts.args = rest[0], rest[1:]
    elif rest and not opts.stdin:
        opts.file, opts.args = rest[0], rest[1:]
    else:
        opts.args = rest
    return opts


def _letters(opts: Options, arg: str, argv: list[str], i: int,
             want_command: bool) -> tuple[int, bool]:
    """One word of single-letter options (``-ilc``, ``+x``, ``-eo pipefail``); returns the
    index of the next word and whether -c was given."""
    sign = arg[0]
    for letter in arg[1:]:
        if letter in "oO":
            if i >= len(argv):
                raise UsageError(f"{sign}{letter}: option requires an argument")
            name = argv[i]
            i += 1
            if letter == "o":
                opts.set_words += [sign + "o", name]
            else:
                opts.shopt_words.append((sign == "-", name))
        elif sign == "-" and letter in "cils":
            if letter == "c":
                want_command = True
            elif letter == "i":
                opts.interactive = True
            elif letter == "l":
                opts.login = True
            else:
                opts.stdin = True
        elif letter in SET_FLAGS:
            opts.set_words.append(sign + letter)
        else:
            raise UsageError(f"unknown option {sign}{letter} (try swebash --help)")
    return i, want_command


def reserve_std_fds() -> tuple[int, ...]:
    """Put /dev/null on whichever of fds 0, 1, 2 the caller closed; return their numbers.

    With fd 0 closed (`swebash <&-`) the first ``os.pipe()`` would get fd 0 and swebash would
    read its own pipe forever; with fd 1 closed Python's ``sys.stdout`` is None. Holding the
    numbers with /dev/null keeps every later file off them; before exec'ing bash they are
    closed again, so `-c` and FILE see exactly the descriptors bash would have seen.
    """
    closed: list[int] = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            held = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            if held != fd:
                os.dup2(held, fd)
                os.close(held)
            closed.append(fd)
    if sys.stdin is None:
        sys.stdin = open(0, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    if sys.stdout is None:
        sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    return tuple(closed)


def launch() -> None:
    """Entry of the compiled launcher (launcher/swebash.c), which runs ``python -c … ARGV0
    ARGS…``: sys.argv is ["-c", ARGV0, ARGS…], and ARGV0 says whether this is a login
    shell."""
    sys.argv = sys.argv[1:] or ["swebash"]
    raise SystemExit(main())


def undo_locale_coercion() -> None:
    """Python sets LC_CTYPE=C.UTF-8 in its own environment when it starts in the C locale
    (PEP 538); bash and everything swebash starts must get the environment swebash was given.
    The environment as exec'd is still in /proc/self/environ."""
    if "LC_CTYPE" not in os.environ:
        return
    try:
        with open("/proc/self/environ", "rb") as handle:
            given = b"\0" + handle.read()
    except OSError:
        return
    if b"\0LC_CTYPE=" not in given:
        os.environ.pop("LC_CTYPE", None)


def main(argv: list[str] | None = None) -> int:
    try:
        return run_main(argv)
    except BrokenPipeError:  # `swebash policy rules | head`: the reader left, like bash's 141
        return reader_left()


def reader_left() -> int:
    """stdout's reader is gone: point fd 1 at /dev/null so the flush at exit cannot raise."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    return 141


def run_main(argv: list[str] | None = None) -> int:
    closed_fds = reserve_std_fds()
    undo_locale_coercion()
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--version"]:
        print(f"swebash {__version__}")
        return 0
    if args[:1] in (["--help"], ["-h"]):
        print(HELP, end="")
        return 0
    if args[:1] == ["policy"]:
        from swebash.safety.policy_cli import main as policy_main

        return policy_main(args[1:])
    try:
        opts = parse(args, sys.argv[0] if sys.argv else "swebash")
        opts.closed_fds = closed_fds
    except UsageError as exc:
        print(f"swebash: {exc}", file=sys.stderr)
        return 2
    try:
        return dispatch(opts)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `swebash -c '? q' | head -1`: the reader left, like bash's 141
        return reader_left()
    except Exception as exc:  # the last line of defence: one line, never a traceback
        from swebash.errors import SwebashError

        if isinstance(exc, SwebashError):
            print(f"swebash: {exc}", file=sys.stderr)
        else:
            print(f"swebash: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


def dispatch(opts: Options) -> int:
    if opts.install_shell:
        from swebash.loginshell import install_shell

        return install_shell()
    if opts.command is not None:
        from swebash import batch

        return batch.run_command(opts.command, opts.args, bash_options=opts.bash_options(),
                                 yes=opts.yes, yes_dangerous=opts.yes_dangerous,
                                 closed_fds=opts.closed_fds, continue_last=opts.continue_last)
    if opts.file is not None:
        from swebash import batch

        return batch.run_file(opts.file, opts.args, bash_options=opts.bash_options(),
                              closed_fds=opts.closed_fds)
    if not opts.interactive and (opts.stdin or not os.isatty(0)):
        from swebash import batch

        return batch.run_piped(bash_options=opts.bash_options(), yes=opts.yes,
                               yes_dangerous=opts.yes_dangerous,
                               continue_last=opts.continue_last, args=opts.args)
    return interactive(opts)


def startup_of(opts: Options, paths: Paths) -> Startup:
    """Which startup files the interactive shell reads (see swebash/shell/startup.py)."""
    from swebash.shell.startup import Startup

    system_bashrc = str(paths.system_bashrc) if paths.system_bashrc.exists() else None
    return Startup(login=opts.login, profile=not opts.noprofile, rc=not opts.norc,
                   rcfile=opts.rcfile, posix=opts.posix, set_words=tuple(opts.set_words),
                   shopt_words=tuple(opts.shopt_words),
                   system_profile=str(paths.system_profile), system_bashrc=system_bashrc,
                   swebashrc=str(paths.rc_file))


def interactive(opts: Options) -> int:
    saved = hold_keys()  # at once: keys typed from now on wait for the prompt, unechoed
    try:
        from swebash import config as config_mod
        from swebash.shell.session import ShellSession

        exit_on_signals()
        take_ctrl_c()
        # An exported COLUMNS/LINES is a snapshot of some other terminal (test runners and
        # some scripts export them); rich would trust it over the real window and wrap answers
        # at the wrong width. The window size is asked of the terminal, and bash keeps its
        # own COLUMNS.
        for name in ("COLUMNS", "LINES"):
            os.environ.pop(name, None)
        # bash first: it reads the startup files while the rest of swebash loads
        paths = config_mod.resolve_paths(os.environ)
        session = ShellSession.start(startup=startup_of(opts, paths))
        config = config_mod.load()
        config_mod.print_warnings(config)
        if opts.continue_last:
            print("swebash: --continue applies to -c and piped input; in the shell, "
                  "`ai resume` continues the newest conversation", file=sys.stderr)
        from swebash.interactive import firstprompt

        return firstprompt.run(config, session, held=saved is not None,
                               runtime_factory=ai_runtime)
    finally:
        restore_keys(saved)


def ai_runtime(config: Config, context: TerminalContext | None, report: Report) -> AiRuntime:
    """The interactive shell's AI half, built by the composition root on first use (``app`` and
    the engine are imported then, never before the first prompt)."""
    from swebash.app import build_runtime

    return build_runtime(config, context, report)


def hold_keys() -> list[Any] | None:
    """No echo, no line editing, no signals on the tty (keys wait unread, a Ctrl-C typed while
    swebash starts is a key for the prompt or for a slow rc file, never a SIGINT that ends
    swebash); the settings to restore at exit, or None when stdin/stdout are not a tty. The
    tty stays so between prompts (commands run on their own pty)."""
    if not (os.isatty(0) and os.isatty(1)):
        return None
    import termios

    try:
        saved: list[Any] = termios.tcgetattr(0)
        held = termios.tcgetattr(0)
        held[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG)
        termios.tcsetattr(0, termios.TCSANOW, held)
    except termios.error:
        return None
    return saved


def restore_keys(saved: list[Any] | None) -> None:
    if saved is None:
        return
    import termios

    try:
        termios.tcsetattr(0, termios.TCSANOW, saved)
    except termios.error:
        pass


def exit_on_signals() -> None:
    """SIGHUP (the window closed), SIGTERM and SIGQUIT end the shell the way `exit` does: the
    AI loop cancels its tasks (tool process groups are killed, MCP servers stopped), bash gets
    its SIGHUP (and hangs up its jobs, as bash does), the private temp dir is removed and the
    terminal modes are restored (see ``swebash.lifecycle``)."""
    import signal

    from swebash import lifecycle

    lifecycle.exit_on_signals((signal.SIGHUP, signal.SIGTERM, signal.SIGQUIT))


def take_ctrl_c() -> None:
    """An interactive shell takes Ctrl-C even when started with SIGINT ignored (a launcher's
    `cmd &`, some IDEs), as an interactive bash does: otherwise Python keeps SIG_IGN and an
    answer or a tool could not be cancelled. Children get SIG_DFL back at exec, as before."""
    import signal

    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.default_int_handler)
