"""Invocation options parsed with bash's meaning (swebash/cli.py)."""

from __future__ import annotations

import pytest

from swebash.cli import UsageError, parse


def test_combined_letters_and_the_command_is_the_first_operand() -> None:
    for word in ("-ilc", "-lic", "-cil"):
        opts = parse([word, "env", "zero", "one"], "swebash")
        assert (opts.login, opts.interactive, opts.command) == (True, True, "env")
        assert opts.args == ["zero", "one"]
    opts = parse(["-c", "-x", "echo hi"], "swebash")  # options go on after -c, as in bash
    assert opts.command == "echo hi" and opts.set_words == ["-x"]


def test_login_from_argv0_and_long_options() -> None:
    assert parse([], "-swebash").login and parse([], "/usr/bin/-swebash").login
    assert not parse([], "swebash").login
    opts = parse(["--login", "--noprofile", "--norc", "--rcfile", "rc", "--posix", "-i"], "x")
    assert (opts.login, opts.noprofile, opts.norc, opts.rcfile, opts.posix, opts.interactive) \
        == (True, True, True, "rc", True, True)


def test_set_and_shopt_options_pass_to_bash_in_its_order() -> None:
    opts = parse(["--norc", "-eo", "pipefail", "+x", "-O", "extglob", "+O", "dotglob", "-lc",
                  "true"], "swebash")
    assert opts.set_words == ["-e", "-o", "pipefail", "+x"]
    assert opts.shopt_words == [(True, "extglob"), (False, "dotglob")]
    assert opts.bash_options() == ["--norc", "-l", "-e", "-o", "pipefail", "+x",
                                   "-O", "extglob", "+O", "dotglob"]


def test_operands_end_the_options() -> None:
    opts = parse(["-x", "script.sh", "-l"], "swebash")
    assert opts.file == "script.sh" and opts.args == ["-l"] and not opts.login
    opts = parse(["--", "-weird-name"], "swebash")
    assert opts.file == "-weird-name"
    opts = parse(["-s", "a", "b"], "swebash")
    assert opts.stdin and opts.file is None and opts.args == ["a", "b"]


def test_swebash_own_options_mix_with_bash_ones() -> None:
    opts = parse(["--yes-dangerous", "--continue", "-lc", "? hi"], "swebash")
    assert opts.yes and opts.yes_dangerous and opts.continue_last and opts.command == "? hi"
    assert parse(["--install-shell"], "swebash").install_shell


@pytest.mark.parametrize("argv,message", [
    (["-c"], "-c: option requires an argument"),
    (["-o"], "-o: option requires an argument"),
    (["--rcfile"], "--rcfile: option requires an argument"),
    (["-Z"], "unknown option -Z (try swebash --help)"),
    (["-iZc", "x"], "unknown option -Z (try swebash --help)"),
    (["--bogus"], "unknown option --bogus (try swebash --help)"),
])
def test_bad_options_are_one_clear_error(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError) as error:
        parse(argv, "swebash")
    assert str(error.value) == message
