"""History expansion against real bash: every case is also run through ``history -p`` (which
expands and never runs anything) with the same history, and the results must agree."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from swebash.interactive.histexpand import HistoryExpander, HistoryExpansionError, words

HISTORY = ["echo one two three", "ls -la /usr/lib/foo.tar.gz",
           'git commit -m "a b" 2>&1 | tee x', "cat README"]

CASES = [
    "!!", "!$", "!^", "!*", "!1", "!-2", "!ec", "!?la?", "x !?la", "^cat^less", "^README^x^ -q",
    "!-2:0", "!-2:1-2", "!:1", "!-2:$", "!-2:*", "!-2:2*", "!-2:2-", "!-3:$:h", "!-3:$:t",
    "!-3:$:r", "!-3:$:e", "!-3:s/la/l/", "!-2:gs/a/X/", "!-2:s/x/y", "a != b", 'echo "!!"',
    "echo '!!'", "echo \\!!", "x=!", "echo $!", "echo ${!x}", "[!a]", "echo #!!", "!!:p",
    "!-1:1-$", "!1:0-1", "!-2:-2", "!-2:s/o/0/:p", "!e:s/one/1/", "!ls:$:h:h",
    "!e:s/one/1/ && !-4:&", "x!!y", "!?two", "!?a b?:%", "!-2:q", "!-2:x", "!-2:5", 'echo "a!"',
    "!ls:0:t", "echo !-1:1 !-4:1", "!-2:s/tee/cat", "!-2:s/tee/&&/", "!1:gs/o/\\//", "!ls x",
    "a b !#", "!!:1:p", "!$:h", "!:$", "!git:4", "!git:5", "!git:6", "echo !1:1 !ca", "!c",
    "echo !! | wc", "!ec:s#one#1#", "!e:s/o/O/:gs/t/T/", "!-2:s/a b/c/", "!1:e", "!1:2:r",
    "echo $((!1))", "echo 'a'!!", 'echo "x" !$', "!?b\"?", "!-2:^", "!-2:$:q", "!e !l",
    "!1:Gs/o/0/", "!-2:^-$", "echo a\nb !!",
    # checked while writing the independent implementation
    "[!e ]!!", "a ${!e", "!$!*", "!1:1$!e", "$!e", "$!#!*", "!#*", "!1:0^", "!1:^^", "!1:s",
    "!1:gs/o/0/:s/e/E/", "!1:Gs/o/0/:s/e/E/", "!-3:h:gs/l/L/", "!?o?:%", "!ls-", "!1:q:s/o/O/",
    "!1:x", "!?two?:s//2/", "echo $(a !-2:1) `!$`", "!-2:Gs/a/X/",
]
ERRORS = ["!nope", 'echo "it!s"', "!0", "!9", "!-9", "!-2:9", "!ls:3", "!-2:s/zz/q/", "!!:z",
          "^zz^y", "!?zzz?", "!! [!e]", "!1:2^", "!1:4*", "!e\"x\""]


def bash_expand(line: str, history: list[str]) -> tuple[int, str]:
    script = ('set -o history; for h in "${@:2:$1}"; do history -s -- "$h"; done; '
              'shift $(($1+1)); history -p -- "$1"')
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", script, "x",
                             str(len(history)), *history, line],
                            capture_output=True, text=True, check=False)
    return result.returncode, result.stdout.rstrip("\n")


needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


@needs_bash
@pytest.mark.parametrize("line", CASES)
def test_agrees_with_bash(line: str) -> None:
    status, expected = bash_expand(line, HISTORY)
    assert status == 0, expected
    assert HistoryExpander().expand(line, HISTORY).line == expected


@needs_bash
@pytest.mark.parametrize("line", ERRORS)
def test_fails_where_bash_fails(line: str) -> None:
    status, _ = bash_expand(line, HISTORY)
    assert status != 0
    with pytest.raises(HistoryExpansionError):
        HistoryExpander().expand(line, HISTORY)


@pytest.mark.parametrize("line,message", [
    ("!nope", "!nope: event not found"),
    ('echo "it!s"', "!s: event not found"),
    ("!-9", "!-9: event not found"),
    ("!!:9", ":9: bad word specifier"),
    ("!!:s/zz/q/", ":s/zz/q/: substitution failed"),
    ("^zz^y", ":s^zz^y: substitution failed"),
    ("!!:z", "z: unrecognized history modifier"),
])
def test_error_text_is_bashs(line: str, message: str) -> None:
    with pytest.raises(HistoryExpansionError) as info:
        HistoryExpander().expand(line, HISTORY)
    assert str(info.value) == message


def test_untouched_lines_are_not_changed() -> None:
    expander = HistoryExpander()
    for line in ["ls -la", "echo 'hi!'", "echo hi!", "x != y", "echo \\!!", "a!=b",
                 "echo !(x)", "[[ ! -e f ]]"]:
        result = expander.expand(line, HISTORY)
        assert result.line == line and not result.changed


def test_print_only_and_changed_flags() -> None:
    expander = HistoryExpander()
    assert expander.expand("!!", HISTORY).changed
    assert expander.expand("echo !!:p", HISTORY).print_only
    assert not expander.expand("!!", HISTORY).print_only


def test_previous_substitution_is_remembered() -> None:
    expander = HistoryExpander()
    assert expander.expand("!1:s/one/1/", HISTORY).line == "echo 1 two three"
    assert expander.expand("!1:&", HISTORY).line == "echo 1 two three"
    with pytest.raises(HistoryExpansionError, match="no previous substitution"):
        HistoryExpander().expand("!1:&", HISTORY)


def test_empty_history() -> None:
    with pytest.raises(HistoryExpansionError, match="!!: event not found"):
        HistoryExpander().expand("!!", [])


def test_words_split_like_readline() -> None:
    assert words('git commit -m "a b" 2>&1 | tee x') == [
        "git", "commit", "-m", '"a b"', "2>&1", "|", "tee", "x"]
    assert words("a&&b;c >>f <(x y) $(p q)") == ["a", "&&", "b", ";", "c", ">>", "f",
                                               "<(x y)", "$(p q)"]


def test_state_carries_over_like_bash() -> None:
    expander = HistoryExpander()
    assert expander.expand("!?tee?", HISTORY).line == HISTORY[2]
    assert expander.expand("!1:%", HISTORY).line == "tee"  # the word of the last search
    expander.expand("!1:s/one/1/", HISTORY)
    assert expander.expand("^^uno^", ["echo one"]).line == "echo uno"  # old from the last :s


def test_runaway_each_word_substitution_stops() -> None:
    # bash itself loops forever here (the replacement contains what it replaces)
    expander = HistoryExpander()
    expander.expand("!!:s/a/Z:ga/", ["cat README"])
    with pytest.raises(HistoryExpansionError, match="substitution failed"):
        expander.expand("!!:G&", ["cat README"])
