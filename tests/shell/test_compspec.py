"""Programmable completion as bash does it, computed in the session's bash (bashcomplete.py)
and finished as readline would (completion.py): every ``complete`` action and option,
``compopt`` inside a function, ``-D``/``-E``/``-I``, a slow function interrupted.

Expected values are what bash 5.2's own Tab gives for the same compspec (checked side by side
in a terminal; tests/e2e/test_readline_e2e.py compares a few live)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from swebash.shell.completion import Completion, Match, Words, common_prefix, complete_text
from tests.shell.conftest import Harness


@pytest.fixture(autouse=True)
def no_system_completion(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SWEBASH_BASH_COMPLETION", "")
    monkeypatch.setenv("XDG_DATA_DIRS", str(tmp_path / "none"))


def ask(shell: Harness, text: str, at_end: bool = True) -> Completion:
    found = complete_text(shell.session, text, 5, at_end=at_end)
    assert found is not None
    return found


def names(shell: Harness, text: str) -> list[str]:
    return [m.name for m in ask(shell, text).matches]


def inserts(shell: Harness, text: str) -> list[str]:
    return [c.insert for c in ask(shell, text).candidates()]


def test_words_commands_and_functions(shell: Harness, tmp_path: Path) -> None:
    (tmp_path / "sub dir").mkdir()
    (tmp_path / "sub.txt").write_text("")
    shell.run("complete -W 'apple apricot banana' fruit")
    assert names(shell, "fruit a") == ["apple", "apricot"]
    assert names(shell, "fruit ") == ["apple", "apricot", "banana"]  # sorted
    assert inserts(shell, "fruit b") == ["banana "]
    shell.run("_f() { COMPREPLY=(\"[$1|$2|$3|$COMP_CWORD|$COMP_LINE|$COMP_POINT|"
              "${COMP_WORDS[*]}]\"); }; complete -F _f fn")
    # $2 is the word unquoted, COMP_WORDS as typed (as bash)
    assert names(shell, 'fn x "ab') == ['[fn|ab|x|2|fn x "ab|8|fn x "ab]']
    shell.run("complete -C 'printf \"%s\\n\" \"$COMP_LINE:$COMP_POINT\" \"$@\"' cm")
    assert names(shell, "cm one tw") == ["cm", "cm one tw:9", "one", "tw"]  # sorted
    shell.run("complete -G '*.txt' gl")
    found = ask(shell, "gl ")
    assert [m.name for m in found.matches] == ["sub.txt"] and found.filenames
    shell.run("complete -d dd; complete -f ff")
    assert inserts(shell, "dd s") == ["sub\\ dir/"]
    assert names(shell, "ff su") == ["sub dir", "sub.txt"]


def test_actions_by_letter_and_by_name(shell: Harness) -> None:
    shell.run("alias zzalias=ls; zzfunc() { :; }; zzvar=1; complete -a a1; complete -b b1;"
              " complete -c c1; complete -e e1; complete -k k1; complete -u u1; complete -v v1;"
              " complete -j j1; complete -A function f1; export zzexp=1; sleep 5 &")
    assert names(shell, "a1 zza") == ["zzalias"]
    assert names(shell, "b1 ech") == ["echo"]
    assert "zzfunc" in names(shell, "c1 zz") and "zzalias" in names(shell, "c1 zz")
    assert names(shell, "e1 zze") == ["zzexp"]
    assert names(shell, "k1 whil") == ["while"]
    assert names(shell, "u1 roo") == ["root"]
    assert names(shell, "v1 zzv") == ["zzvar"]
    assert names(shell, "j1 ") == ["sleep"]
    assert names(shell, "f1 zzf") == ["zzfunc"]
    shell.run("kill %1")


def test_filter_prefix_suffix_and_fallbacks(shell: Harness, tmp_path: Path) -> None:
    (tmp_path / "sub dir").mkdir()
    (tmp_path / "sub.txt").write_text("")
    (tmp_path / "sub.log").write_text("")
    shell.run("complete -f -X '*.log' x1; complete -f -X '!*.log' x2")
    assert names(shell, "x1 sub.") == ["sub.txt"]
    assert names(shell, "x2 sub") == ["sub.log"]
    shell.run("complete -W 'ab abc abd' -X '&c' x3")  # & is the word
    assert names(shell, "x3 ab") == ["ab", "abd"]
    shell.run("complete -P '<' -S '>' -W 'one two' ps")
    assert names(shell, "ps ") == ["<one>", "<two>"]
    shell.run("complete -W nomatch -o dirnames dn; complete -W subway -o plusdirs pd;"
              " complete -W nomatch -o default de; complete -W nomatch nd;"
              " complete -W nomatch -o bashdefault bd")
    assert names(shell, "dn s") == ["sub dir"]
    assert names(shell, "pd s") == ["sub dir", "subway"]
    assert names(shell, "de sub.t") == ["sub.txt"]
    assert names(shell, "nd s") == []  # a compspec without -o default: nothing, as bash
    assert names(shell, "bd $HOM") == ["$HOME"]


def test_options_nospace_filenames_noquote_nosort(shell: Harness, tmp_path: Path) -> None:
    (tmp_path / "sub dir").mkdir()
    shell.run("complete -o nospace -W 'apple' ns; complete -o filenames -W 'sub\\ dir x\\ y' fl;"
              " complete -o noquote -o filenames -W 'x\\ y' nq; complete -o nosort -W 'b a c' so")
    assert inserts(shell, "ns a") == ["apple"]
    assert inserts(shell, "fl s") == ["sub\\ dir/"]
    assert inserts(shell, "fl x") == ["x\\ y "]
    assert inserts(shell, "nq x") == ["x y "]
    assert names(shell, "so ") == ["b", "a", "c"]
    # inside an open quote readline closes it before the "/" of a directory, as bash 5.2
    assert inserts(shell, 'fl "s') == ['"sub dir"/']
    # no space or quote when the cursor is not at the end of the line
    assert [c.insert for c in ask(shell, "ns a", at_end=False).candidates()] == ["apple"]


def test_compopt_inside_a_function_changes_this_completion(shell: Harness,
                                                           tmp_path: Path) -> None:
    (tmp_path / "my dir").mkdir()
    shell.run("_n() { compopt -o nospace; COMPREPLY=(word); }; complete -F _n cn;"
              "_q() { compopt -o filenames; COMPREPLY=('my dir'); }; complete -F _q cq;"
              "_o() { compopt +o nospace; COMPREPLY=(w); }; complete -o nospace -F _o co")
    assert inserts(shell, "cn ") == ["word"]
    assert inserts(shell, "cq ") == ["my\\ dir/"]
    assert inserts(shell, "co ") == ["w "]
    # the stored compspec is unchanged, and compopt is the builtin again afterwards
    assert shell.run("complete -p cn; type -t compopt")[1].split("\r\n")[:2] == [
        "complete -F _n cn", "builtin"]


def test_default_empty_and_initial_word_compspecs(shell: Harness) -> None:
    # -D loads a command's compspec and asks for a retry (124), as bash-completion does
    shell.run("_load() { complete -W 'loaded words' \"$1\"; return 124; }; complete -D -F _load")
    assert names(shell, "anything w") == ["words"]
    shell.run("complete -E -W 'empty-line'; complete -I -W 'first-word'")
    assert names(shell, "") == ["empty-line"]
    assert names(shell, "fi") == ["first-word"]


def test_common_prefix_as_readline() -> None:
    assert common_prefix(["apple", "apricot"], "a") == "ap"
    assert common_prefix(["abx", "aby"], "zz") == "ab"  # replaces what was typed
    assert common_prefix(["xyz", "abc"], "q") == "q"  # nothing in common: the typed text
    # completion-ignore-case keeps the case typed when a match has it
    assert common_prefix(["Makefile", "main.c"], "m", ignore_case=True) == "ma"
    assert common_prefix(["Makefile", "MAIN"], "m", ignore_case=True) == "MA"
    words = Words(["ls", "ma"], "ma", None, ["ls", "ma"])
    found = Completion(words, [Match("f", "Makefile"), Match("f", "main.c")],
                       frozenset({"filenames"}))
    assert found.common(ignore_case=True) == "ma"
    assert found.display(Match("d", "dir/sub")) == "sub/"


def test_setting_completion_ignore_case_with_bind(shell: Harness, tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("")
    assert names(shell, "ls mak") == []
    shell.run("bind 'set completion-ignore-case on'")
    assert names(shell, "ls mak") == ["Makefile"]


def test_a_slow_function_is_waited_for_and_can_be_interrupted(shell: Harness) -> None:
    shell.run("_slow() { sleep 30; COMPREPLY=(late); }; complete -F _slow slowcmd;"
              "_mid() { sleep 1; COMPREPLY=(done); }; complete -F _mid midcmd")
    assert names(shell, "midcmd ") == ["done"]  # over the old 500 ms limit: still complete
    threading.Timer(0.5, shell.session.interrupt_helper).start()
    started = time.monotonic()
    found = complete_text(shell.session, "slowcmd ", 60)
    assert found is not None and found.matches == []
    assert time.monotonic() - started < 20  # interrupted, not waited out
    assert shell.session.take_late_output() == b""  # bash's newline after ^C is not shown
    assert names(shell, "midcmd ") == ["done"]
    assert shell.run("echo after")[1] == "after\r\n"
