"""The argument grammar and its one parser: every way getopt reads a value, clusters,
abbreviations, `--`, sub-commands with global options, operand roles, and what becomes a
problem (which makes a command ask)."""

from __future__ import annotations

import pytest

from swebash.safety.classify.grammar import prog
from swebash.safety.classify.parser import Parsed, parse

SORT = prog("-rnu -k: -t: --reverse --key: --field-separator: --color::",
            args="r*", ask={"-o:w --output:w": "writes a file"},
            danger={"--compress-program:": "runs a program"})


def run(spec: object, line: str, dynamic: set[int] | None = None) -> Parsed:
    argv = line.split()
    dyn = [i in (dynamic or set()) for i in range(len(argv))]
    return parse(spec, argv, dyn, argv[0])  # type: ignore[arg-type]


def names(parsed: Parsed) -> list[tuple[str, str | None]]:
    return [(u.opt.name, u.value) for u in parsed.options]


@pytest.mark.parametrize("line", ["sort -o out in", "sort -oout in", "sort --output=out in",
                                  "sort --output out in", "sort -rno out in",
                                  "sort --out=out in", "sort --outp out in"])
def test_every_value_form_finds_the_output(line: str) -> None:
    parsed = run(SORT, line)
    assert ("--output" in [n for n, _ in names(parsed)] or
            ("-o", "out") in names(parsed)), names(parsed)
    assert parsed.values("-o", "--output") == ["out"]
    assert [a.text for a in parsed.operands] == ["in"]
    assert not parsed.problems


def test_clustered_flags_then_a_value() -> None:
    parsed = run(SORT, "sort -rnk2 file")
    assert names(parsed) == [("-r", None), ("-n", None), ("-k", "2")]
    assert [a.text for a in parsed.operands] == ["file"]


def test_a_value_is_not_read_as_flags() -> None:
    parsed = run(SORT, "sort -k -o file")  # `-o` is the value of -k here
    assert names(parsed) == [("-k", "-o")]
    assert parsed.values("-o", "--output") == []


def test_abbreviation_unique_and_ambiguous() -> None:
    assert names(run(SORT, "sort --comp=sh f")) == [("--compress-program", "sh")]
    spec = prog("--all --almost-all")
    parsed = run(spec, "ls --al")
    assert parsed.problems == ["ambiguous option --al"]
    assert not run(spec, "ls --all").problems


def test_no_abbreviation_where_the_program_has_none() -> None:
    spec = prog("--output:", abbrev=False)
    assert run(spec, "x --out y").problems[0] == "unknown option --out"


def test_optional_value_only_attaches() -> None:
    parsed = run(SORT, "sort --color always")
    assert names(parsed) == [("--color", None)]
    assert [a.text for a in parsed.operands] == ["always"]
    assert names(run(SORT, "sort --color=never f")) == [("--color", "never")]


def test_an_offset_value_may_be_the_next_word() -> None:
    """`journalctl -b -1`: an optional value (`:?`) takes the next word only when it is an
    offset (a signed number, `all`, a boot id), never an option or a run-time word."""
    spec = prog("-kf -b:? --boot:? -u:", args="p*")
    assert names(run(spec, "j -b -1")) == [("-b", "-1")]
    assert names(run(spec, "j -kb -2 -u ssh")) == [("-k", None), ("-b", "-2"), ("-u", "ssh")]
    assert names(run(spec, "j --boot all")) == [("--boot", "all")]
    assert names(run(spec, "j -b 0123456789abcdef0123456789abcdef-1")) == [
        ("-b", "0123456789abcdef0123456789abcdef-1")]
    assert names(run(spec, "j -b -f")) == [("-b", None), ("-f", None)]
    assert names(run(spec, "j -b -x")) == [("-b", None)]  # -x: still an unknown option
    assert run(spec, "j -b -x").problems == ["unknown option -x"]
    dynamic = run(spec, "j -b -1", dynamic={2})
    assert names(dynamic) == [("-b", None)] and dynamic.problems  # -1 at run time: an option
    assert names(run(spec, "j -b3")) == [("-b", "3")]  # attached, as getopt reads it


def test_double_dash_ends_options() -> None:
    parsed = run(SORT, "sort -- -o x")
    assert parsed.options == []
    assert [a.text for a in parsed.operands] == ["-o", "x"]


def test_unknown_options_and_values_on_flags_are_problems() -> None:
    assert run(SORT, "sort -Z f").problems == ["unknown option -Z"]
    assert run(SORT, "sort --bogus f").problems == ["unknown option --bogus"]
    assert run(SORT, "sort --reverse=yes f").problems == ["--reverse given a value"]


def test_operands_beyond_the_grammar_are_problems() -> None:
    spec = prog("-c", args="r? w?")
    parsed = run(spec, "uniq in out extra")
    assert [(a.text, a.role) for a in parsed.operands] == [("in", "r"), ("out", "w")]
    assert parsed.problems == ["unexpected argument extra"]


def test_a_many_role_leaves_the_trailing_roles() -> None:
    spec = prog("-r", args="r+ w")
    parsed = run(spec, "cp a b c dest")
    assert [(a.text, a.role) for a in parsed.operands] == [
        ("a", "r"), ("b", "r"), ("c", "r"), ("dest", "w")]
    assert [(a.text, a.role) for a in run(spec, "cp dest").operands] == [("dest", "w")]


def test_posix_options_stop_at_the_first_operand() -> None:
    spec = prog("-n:", args="p x", permute=False)
    parsed = run(spec, "timeout 5 rm -rf x")
    assert parsed.command == 2 and not parsed.problems
    parsed = run(spec, "timeout -n 3 5 ls -la")
    assert names(parsed) == [("-n", "3")] and parsed.command == 4


def test_numeric_and_prefix_options() -> None:
    head = prog("-N -n: -c:", args="r*")
    assert not run(head, "head -20 file").problems
    java = prog("-version -jar:r -D* -X*", single=True, args="p*")
    parsed = run(java, "java -Dx=1 -Xmx1g -version")
    assert names(parsed) == [("-D", "x=1"), ("-X", "mx1g"), ("-version", None)]
    assert names(run(java, "java --version")) == [("-version", None)]  # Go/Java: - or --


def test_single_dash_long_options_do_not_cluster() -> None:
    spec = prog("-name: -type: -print", single=True, args="n*")
    parsed = run(spec, "find -name x -print")
    assert names(parsed) == [("-name", "x"), ("-print", None)]
    assert run(spec, "find -nam x").problems == ["unknown option -nam"]


SYSTEMCTL = prog("-p: --property: --no-pager -H:h --user",
                 subs={"status show": prog("-n:", args="p*"),
                       "stop": prog(args="p+", effect="stops services", dangerous=True)},
                 verb_optional=True)


def test_global_option_value_is_not_the_verb() -> None:
    parsed = run(SYSTEMCTL, "systemctl -p status stop nginx")
    assert parsed.verbs == ["stop"]
    assert names(parsed) == [("-p", "status")]
    assert parsed.spec.effect is not None and parsed.spec.effect.dangerous


def test_global_options_are_not_accepted_after_the_verb_unless_inherited() -> None:
    parsed = run(SYSTEMCTL, "systemctl status --no-pager x")
    assert parsed.problems == ["unknown option --no-pager"]
    kube = prog("-n: --namespace: -s:u --server:u",
                subs={"get": prog("-o: -w", args="p*", inherits=True)})
    parsed = run(kube, "kubectl get pods --server=https://other -n x")
    assert parsed.values("--server") == ["https://other"] and not parsed.problems


def test_unknown_and_missing_verbs() -> None:
    parsed = run(SYSTEMCTL, "systemctl frobnicate x")
    assert parsed.unknown_verb == "frobnicate"
    assert not run(SYSTEMCTL, "systemctl").problems  # verb_optional
    spec = prog(subs={"ls": prog()})
    assert run(spec, "tool").problems == ["no sub-command"]


def test_verb_aliases_and_nesting() -> None:
    ip = prog("-4 -6 -br",
              subs={"a addr address": prog(subs={"show": prog(args="p*")},
                                           verb_optional=True),
                    "netns": prog(subs={"exec": prog(args="p x")})})
    assert run(ip, "ip -br a").verbs == ["a"] and not run(ip, "ip -br a").problems
    parsed = run(ip, "ip netns exec blue sh -c id")
    assert parsed.verbs == ["netns", "exec"] and parsed.command == 4


def test_run_time_words() -> None:
    parsed = run(SORT, "sort $OPTS file", dynamic={1})
    assert parsed.problems == ["an argument known only at run time may be an option"]
    assert not run(prog("-n", args="r*"), "cat $f", dynamic={1}).problems
    parsed = run(SORT, "sort -$x file", dynamic={1})
    assert parsed.problems == ["an option computed at run time"]
    parsed = run(SORT, "sort --key=$k file", dynamic={1})
    assert names(parsed) == [("--key", "$k")] and parsed.options[0].dynamic


def test_every_program_grammar_builds() -> None:
    """A grammar with a typo would make its program fail closed at run time: build all."""
    from swebash.safety.classify.hooks import HOOKS, PREPS
    from swebash.safety.classify.registry import BUILDERS, lookup

    for name in BUILDERS:
        spec = lookup(name)
        assert spec is not None, name
        stack = [spec]
        while stack:
            current = stack.pop()
            assert not current.hook or current.hook in HOOKS, (name, current.hook)
            assert not current.prep or current.prep in PREPS, (name, current.prep)
            stack.extend((current.subs or {}).values())
