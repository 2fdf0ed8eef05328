"""Entry point: parse options, pick a mode, start as fast as possible.

Startup budget (first prompt ≤ 150 ms): bash is forked first, so it boots while Python imports;
the prompt text is written to the terminal at once, with the tty switched to no-echo,
non-canonical input so keys typed meanwhile wait (unechoed, unprocessed) for prompt-toolkit,
which then redraws the same prompt in place and reads them. The tty stays in that held mode
between prompts (commands run on their own pty) and gets its original settings back on exit.
Nothing of the AI half is imported here; non-interactive modes never import prompt-toolkit.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from swebash import __version__

HELP = """\
usage: swebash [options]                 interactive shell
       swebash [options] -c COMMAND [ARG0 [ARGS...]]
       swebash [options] FILE [ARGS...]  run a script with bash
       CMDS | swebash [options]          run lines like `bash -s`
       swebash policy check [--json] -- COMMAND...
       swebash policy check-path [--write] [--json] PATH

options:
  -c COMMAND        run COMMAND and exit with its status
  -l, --login       behave as a login shell (source /etc/profile and ~/.profile)
  --norc            do not source ~/.swebashrc
  -i                interactive even when stdin is not a terminal
  -s                read commands from standard input
  --yes             non-interactive AI may run commands the safety gate would ask about
  --yes-dangerous   ... including dangerous ones (implies --yes)
  --continue        AI lines continue the last conversation begun in this directory
  --version         print the version
  -h, --help        this help

AI (in the shell, in -c and in piped input):
  ? QUESTION        ask the AI; it can read files, run commands (asking y/N first) and
                    search the web; e.g.  ? why did that fail
  ?? TASK           turn TASK into a command placed in your prompt, e.g.  ?? find big files
  ai help           the AI builtins: ai status, ai reset, ai model, ai explain CMD, ...
"""


class Options:
    def __init__(self) -> None:
        self.command: str | None = None
        self.file: str | None = None
        self.args: list[str] = []
        self.login = False
        self.norc = False
        self.interactive = False
        self.stdin = False
        self.yes = False
        self.yes_dangerous = False
        self.continue_last = False
        self.closed_fds: tuple[int, ...] = ()  # std fds the caller closed (see reserve_std_fds)


class UsageError(Exception):
    pass


def parse(argv: list[str], argv0: str) -> Options:
    opts = Options()
    opts.login = os.path.basename(argv0).startswith("-")
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            break
        if not arg.startswith("-") or arg == "-":
            break
        if arg == "-c":
            if i + 1 >= len(argv):
                raise UsageError("-c: option requires an argument")
            opts.command = argv[i + 1]
            opts.args = argv[i + 2:]
            return opts
        if arg in ("-l", "--login"):
            opts.login = True
        elif arg == "--norc":
            opts.norc = True
        elif arg == "-i":
            opts.interactive = True
        elif arg == "-s":
            opts.stdin = True
        elif arg == "--yes":
            opts.yes = True
        elif arg == "--yes-dangerous":
            opts.yes = opts.yes_dangerous = True
        elif arg == "--continue":
            opts.continue_last = True
        elif len(arg) > 2 and arg[0] == "-" and arg[1] != "-" and set(arg[1:]) <= set("lis"):
            opts.login |= "l" in arg
            opts.interactive |= "i" in arg
            opts.stdin |= "s" in arg
        else:
            raise UsageError(f"unknown option {arg} (try swebash --help)")
        i += 1
    rest = argv[i:]
    if rest and not opts.stdin:
        opts.file, opts.args = rest[0], rest[1:]
    else:
        opts.args = rest
    return opts


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
    from swebash import batch

    if opts.command is not None:
        return batch.run_command(opts.command, opts.args, login=opts.login, yes=opts.yes,
                                 yes_dangerous=opts.yes_dangerous, closed_fds=opts.closed_fds,
                                 continue_last=opts.continue_last)
    if opts.file is not None:
        return batch.run_file(opts.file, opts.args, login=opts.login,
                              closed_fds=opts.closed_fds)
    if not opts.interactive and (opts.stdin or not os.isatty(0)):
        return batch.run_piped(login=opts.login, yes=opts.yes,
                               yes_dangerous=opts.yes_dangerous,
                               continue_last=opts.continue_last, args=opts.args)
    return interactive(opts)


def interactive(opts: Options) -> int:
    from swebash import config as config_mod
    from swebash.shell.session import ShellSession

    config = config_mod.load()
    config_mod.print_warnings(config)
    if opts.continue_last:
        print("swebash: --continue applies to -c and piped input; in the shell, "
              "`ai resume` continues the newest conversation", file=sys.stderr)
    exit_on_signals()
    take_ctrl_c()
    # An exported COLUMNS/LINES is a snapshot of some other terminal (test runners and some
    # scripts export them); rich would trust it over the real window and wrap answers at the
    # wrong width. The window size is asked of the terminal, and bash keeps its own COLUMNS.
    for name in ("COLUMNS", "LINES"):
        os.environ.pop(name, None)
    rcfile = None if opts.norc else config.paths.rc_file
    session = ShellSession.start(rcfile=rcfile, login=opts.login)
    saved = early_prompt(config, session.cwd)
    try:
        from swebash.interactive.repl import run_interactive

        if saved is not None:
            os.write(1, b"\r\x1b[K")  # prompt-toolkit redraws the prompt on this same line
        return run_interactive(config, session)
    finally:
        restore_tty(saved)


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


def early_prompt(config: object, cwd: str) -> list[Any] | None:
    """Draw the prompt now and hold typed keys (no echo, no line editing) until it is live."""
    if not (os.isatty(0) and os.isatty(1)):
        return None
    import termios

    from swebash.config import Config
    from swebash.interactive.prompt import plain, prompt_fragments

    assert isinstance(config, Config)
    try:
        saved: list[Any] = termios.tcgetattr(0)
        held = termios.tcgetattr(0)
        # ISIG off too: a Ctrl-C typed while swebash starts is a key for the prompt (^C, $? 130)
        # or for a slow rc file, never a SIGINT that would end swebash
        held[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG)
        termios.tcsetattr(0, termios.TCSANOW, held)
    except termios.error:
        return None
    text = plain(prompt_fragments(cwd, str(config.paths.home), 0, config.prompt, False))
    os.write(1, text.encode("utf-8", "replace"))
    return saved


def restore_tty(saved: list[Any] | None) -> None:
    if saved is None:
        return
    import termios

    try:
        termios.tcsetattr(0, termios.TCSANOW, saved)
    except termios.error:
        pass
