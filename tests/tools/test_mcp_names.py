"""MCP tool names as offered to providers: within ``[A-Za-z0-9_-]{1,64}``, one per tool
(``a.b`` and ``a_b`` are two tools, so two names), the same after every restart."""

from __future__ import annotations

import random
import re

from swebash.tools.mcp_names import NAME_CAP, model_names, suffixed

PROVIDER_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check(names: dict[tuple[str, str], str]) -> None:
    assert len(set(names.values())) == len(names), "two tools share a name"
    assert all(PROVIDER_NAME.fullmatch(n) for n in names.values())


def test_a_name_that_needs_nothing_keeps_it_and_the_changed_one_gets_a_suffix() -> None:
    names = model_names([("s", "a.b"), ("s", "a_b"), ("s", "echo"), ("s", "git status")])
    check(names)
    assert names[("s", "a_b")] == "mcp__s__a_b" and names[("s", "echo")] == "mcp__s__echo"
    assert re.fullmatch(r"mcp__s__a_b_[0-9a-f]{6}", names[("s", "a.b")])
    assert names[("s", "git status")] == "mcp__s__git_status"  # unique: no suffix needed


def test_changed_names_alike_all_get_suffixes_and_long_ones_stay_within_64() -> None:
    long = "x" * 80
    pairs = [("s", "a.b"), ("s", "a b"), ("s", long + "1"), ("s", long + "2"),
             ("server.one", "t"), ("server_one", "t"), ("x__y", "z"), ("x", "y__z")]
    names = model_names(pairs)
    check(names)
    assert all(len(n) <= NAME_CAP for n in names.values())
    assert names[("server_one", "t")] == "mcp__server_one__t"
    # two exact names alike (the separator is ambiguous): neither is preferred
    assert names[("x__y", "z")] != "mcp__x__y__z" != names[("x", "y__z")]
    assert names[("s", long + "1")].startswith("mcp__s__xxxx")


def test_the_same_tools_get_the_same_names_in_any_order() -> None:
    pairs = [("s", n) for n in ("a.b", "a_b", "a-b", "a b", "ä", "a/b", "a:b")] + [
        ("t", "a.b"), ("t", "a_b")]
    first = model_names(pairs)
    shuffled = pairs[:]
    random.Random(7).shuffle(shuffled)
    assert model_names(shuffled) == first
    check(first)


def test_many_crowded_names_stay_distinct() -> None:
    rng = random.Random(19)
    pairs = list({(rng.choice(["s", "s.", "s_"]),
                   "".join(rng.choice("ab._- ä") for _ in range(rng.randint(1, 70))))
                  for _ in range(3000)})
    check(model_names(pairs))


def test_a_suffix_meeting_a_real_name_grows() -> None:
    taken = suffixed(("s", "a.b"), 6).removeprefix("mcp__s__")  # a tool really named so
    names = model_names([("s", "a.b"), ("s", "a_b"), ("s", taken)])
    check(names)
    assert names[("s", taken)] == f"mcp__s__{taken}"
    assert re.fullmatch(r"mcp__s__a_b_[0-9a-f]{10}", names[("s", "a.b")])
