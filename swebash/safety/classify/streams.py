"""Endless and huge streams written to files: resource exhaustion.

Design note. The problem: ``yes > f``, ``cat /dev/zero > f``, ``head -c 10G /dev/urandom > f``
or ``while :; do echo x >> f; done`` are each only "a redirect that writes f" to the
per-command checks — a question without the dangerous flag — yet each fills the disk. The
approach: follow what each pipeline stage produces — bounded, huge (over 1 GiB) or endless —
from the programs and devices that make streams (``yes``, ``/dev/zero``, ``/dev/urandom``,
``seq inf``, ``shuf -r``, ``dd`` without a count, ``head -c 10G``, an always-true loop)
through the stages that pass it on, and flag the stream dangerous where it reaches a file
(a redirect, ``tee``, ``dd of=``). A bounded stage (``head -c 16``) ends the danger. An
endless stream to the terminal or ``/dev/null`` only asks: it runs until stopped.
"""

from __future__ import annotations

import re
from typing import Any

from swebash.safety.classify.envflow import SINKS, stage, stage_name, writes_file
from swebash.safety.classify.model import Findings, base, text
from swebash.safety.classify.words import word_of

ENDLESS = "endless"
HUGE = "huge"
GIB = 1 << 30
DEVICES = frozenset({"/dev/zero", "/dev/urandom", "/dev/random", "/dev/full"})
# programs that read all of their input (files or stdin) and write it on, reshaped or not
PASS_ON = frozenset({"cat", "tac", "base64", "base32", "basenc", "xxd", "od", "hexdump", "hd",
                     "tr", "pv", "strings", "gzip", "bzip2", "xz", "zstd", "lz4", "lzma",
                     "rev", "fold", "nl", "tee", "grep", "egrep", "fgrep", "sed", "awk",
                     "gawk", "mawk", "cut", "paste", "sort", "uniq", "expand", "unexpand",
                     "fmt", "pr", "iconv", "dos2unix", "stdbuf", "buffer", "mbuffer", "cmp",
                     "tail", "openssl", "pigz", "brotli", "sponge", "column", "jq"})
# programs that make a stream of their own, fed nothing and reading no device (`head` and
# `dd` only pass on what they read: a regular file already exists at its size)
SOURCES = frozenset({"yes", "seq", "shuf", "openssl"})
# options that stop a pass-on program after so many bytes of input
LIMITS = {"od": ("-N", "--read-bytes"), "xxd": ("-l", "-len"), "hexdump": ("-n", "--length"),
          "hd": ("-n", "--length")}
SIZE = re.compile(r"^(\d+(?:\.\d+)?(?:e\d+)?)([kmgtpe]?)(i?b?)$", re.I)
ALWAYS = frozenset({"true", ":", "/bin/true", "/usr/bin/true", "[ 1 ]", "[[ 1 ]]", "((1))",
                    "(( 1 ))", "test 1"})
SLEEP = re.compile(r"sleep\s+[\d.]+[smhd]?")  # `while sleep 1`: always succeeds
NEVER = frozenset({"false", "/bin/false", "/usr/bin/false"})


def scaled(value: str) -> float | None:
    match = SIZE.match(value.strip())
    if not match:
        return None
    number = float(match.group(1))
    unit = match.group(2).lower()
    if not unit:
        return number
    factor = 1000 if match.group(3).lower() == "b" else 1024
    return float(number * factor ** ("kmgtpe".index(unit) + 1))


def option_value(args: list[str], *names: str) -> str | None:
    """The value of a short (``-c 10G``, ``-c10G``) or long (``--bytes=10G``) option."""
    for k, arg in enumerate(args):
        for name in names:
            if arg == name and k + 1 < len(args):
                return args[k + 1]
            if name.startswith("--") and arg.startswith(name + "="):
                return arg.split("=", 1)[1]
            if not name.startswith("--") and arg.startswith(name) and len(arg) > len(name):
                return arg[len(name):]
    return None


# wrappers that run the stream's program as it is (`nohup yes > f`, `timeout 9 cat /dev/zero`)
WRAPPERS = frozenset({"nohup", "nice", "stdbuf", "env", "command", "exec", "setsid", "ionice",
                      "time", "timeout", "unbuffer", "chronic", "builtin", "coproc"})
WRAPPER_VALUES = frozenset({"-n", "-s", "-k", "-o", "-e", "-i", "-c", "-u", "--signal",
                            "--kill-after", "--adjustment", "--class", "--classdata"})


def unwrapped(words: list[str]) -> list[str]:
    """The command a wrapper runs: its options, ``timeout``'s duration and ``env``'s
    assignments dropped."""
    for _ in range(8):
        if not words or base(words[0]) not in WRAPPERS:
            return words
        wrapper, words = base(words[0]), words[1:]
        while words and (words[0].startswith("-") or (wrapper == "env" and "=" in words[0])):
            words = words[2:] if words[0] in WRAPPER_VALUES else words[1:]
        if wrapper == "timeout" and words:
            words = words[1:]
    return words


def produce(words: list[str], fed: str | None) -> str | None:
    """What a stage writes, given what it is fed: ENDLESS, HUGE or None (bounded)."""
    name = base(words[0])
    args = words[1:]
    device = any(a in DEVICES for a in args)
    if name == "yes":
        return ENDLESS
    if name == "head":
        count = option_value(args, "-c", "--bytes")
        if count is not None:
            amount = scaled(count.lstrip("+-"))
            return HUGE if amount is None or amount >= GIB else None
        lines = option_value(args, "-n", "--lines")
        amount = scaled(lines.lstrip("+-")) if lines is not None else 10
        return HUGE if amount is None or amount >= 1e8 else None
    if name == "seq":
        numbers = [a for a in args if not a.startswith("-") or re.fullmatch(r"-[\d.]+", a)]
        if any(a.lower() in ("inf", "infinity", "+inf") for a in numbers):
            return ENDLESS
        last = scaled(numbers[-1]) if numbers else None
        return HUGE if last is not None and abs(last) >= 1e8 else None
    if name == "shuf":
        return ENDLESS if any(a in ("-r", "--repeat") or re.fullmatch(r"-[a-z]*r[a-z]*", a)
                              for a in args) and option_value(
            args, "-n", "--head-count") is None else None
    if name == "openssl" and args[:1] == ["rand"]:
        amount = scaled(args[-1]) if len(args) > 1 else None
        return HUGE if amount is not None and amount >= GIB else None
    if name == "dd":
        return dd(args, fed)
    if name in PASS_ON:
        limit = option_value(args, *LIMITS.get(name, ()))
        if limit is not None:  # `od -N4`, `xxd -l 16`: reads only so much of any input
            amount = scaled(limit)
            return HUGE if amount is None or amount >= GIB else None
        return ENDLESS if device else fed
    return None


def dd(args: list[str], fed: str | None) -> str | None:
    found = {k: v for k, _, v in (a.partition("=") for a in args)}
    source = found.get("if")
    endless = source in DEVICES or (source is None and fed == ENDLESS)
    count = scaled(found["count"]) if "count" in found else None
    block = scaled(found.get("bs", found.get("obs", "512"))) or 512
    if count is None:
        return ENDLESS if endless else (HUGE if source is None and fed else None)
    return HUGE if count * block >= GIB else None


def fed_from_device(node: Any) -> bool:
    if node.type != "redirected_statement":
        return False
    for child in node.named_children:
        op = next((text(c) for c in child.children if not c.is_named), "")
        targets = [c for c in child.named_children if c.type != "file_descriptor"]
        if child.type == "file_redirect" and op == "<" and targets and \
                word_of(targets[0]).text in DEVICES:
            return True
    return False


def sink_writes(words: list[str]) -> bool:
    """A stage that writes its input to a file itself: tee FILE, dd of=FILE, sponge FILE."""
    name = base(words[0])
    args = [a for a in words[1:] if not a.startswith("-")]
    if name == "tee":
        return any(a not in SINKS for a in args)
    if name == "dd":
        return any(a.startswith("of=") and a[3:] not in SINKS for a in words[1:])
    return name in ("sponge", "split", "csplit") and bool(args)


# ------------------------------------------------------------------ commands that wait

# A stream can also be endless and slow: a follow mode, a monitor, a repeating sampler. It
# fills nothing, but it never ends on its own, and a tool command then waits for its timeout.
# Each program's bounded forms are what end it: a count, a batch with iterations, a deadline.
WAITING = "runs until stopped (a tool command waits for its timeout)"
FOLLOWERS = frozenset({"tail", "journalctl", "dmesg", "kubectl", "oc", "docker", "podman",
                       "less", "watch", "top", "htop", "atop", "iotop", "ping", "ping6",
                       "sleep", "vmstat", "iostat", "mpstat", "pidstat", "sar", "free",
                       "nvidia-smi", "inotifywait", "tcpdump", "btop", "glances", "nload",
                       "iftop", "bmon", "nethogs", "netstat"})
# monitors with no bounded form at all
ALWAYS_WAIT = frozenset({"watch", "htop", "btop", "glances", "nload", "iftop", "bmon",
                         "nethogs"})
# short options whose value follows (attached or as the next word), per program: a letter
# after one of them in a cluster is part of the value
VALUE_LETTERS = {"tail": "cns", "journalctl": "uptSUoDMFgImK", "dmesg": "flnsF",
                 "top": "dnpuUwoOsE", "iotop": "dnpu", "ping": "cwiIlpsStWQmMFT",
                 "ping6": "cwiIlpsStWQmMFT", "free": "sc", "tcpdump": "cCEFGiMrstTVwWyzZBj",
                 "kubectl": "ncplLo", "oc": "ncplLo", "docker": "n", "podman": "n",
                 "inotifywait": "eotTf", "nvidia-smi": "difu"}
SAMPLERS = frozenset({"vmstat", "iostat", "mpstat", "pidstat", "sar"})
NUMBER = re.compile(r"^\d+(\.\d+)?$")


def letters(name: str, args: list[str]) -> set[str]:
    """The short option letters of ``args`` (``-fn 50`` → f, n)."""
    values = VALUE_LETTERS.get(name, "")
    found: set[str] = set()
    for arg in args:
        if arg == "--":
            break
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 1 and \
                not arg[1].isdigit():
            for ch in arg[1:]:
                found.add(ch)
                if ch in values:
                    break
    return found


def longs(args: list[str]) -> set[str]:
    return {a.split("=", 1)[0] for a in args if a.startswith("--")}


def waits(words: list[str]) -> bool:
    """The command never ends on its own (``tail -f``, ``watch``, ``ping`` without ``-c``)."""
    name = base(words[0])
    args = words[1:]
    if name not in FOLLOWERS or any(a in ("--version", "--help", "-V", "-h") for a in args):
        return False
    short, long = letters(name, args), longs(args)
    verb = next((a for a in args if not a.startswith("-")), "")
    if name in ALWAYS_WAIT:
        return True
    if name == "tail":
        return bool(short & {"f", "F"} or "--follow" in long)
    if name == "journalctl":
        return "f" in short or "--follow" in long
    if name == "netstat":
        return "c" in short or "--continuous" in long
    if name == "dmesg":
        return bool(short & {"w", "W"} or long & {"--follow", "--follow-new"})
    if name in ("kubectl", "oc"):
        if verb in ("logs", "attach"):
            return "f" in short or "--follow" in long
        if verb in ("get", "events"):
            return "w" in short or bool(long & {"--watch", "--watch-only"})
        return verb in ("port-forward", "proxy")
    if name in ("docker", "podman"):
        rest = args[args.index(verb) + 1:] if verb else []
        if verb == "compose":
            sub = next((a for a in rest if not a.startswith("-")), "")
            more = rest[rest.index(sub) + 1:] if sub else []
            return (sub == "logs" and ("f" in letters(name, more) or "--follow" in longs(more))
                    ) or (sub == "up" and not ("d" in letters(name, more) or
                                               "--detach" in longs(more)))
        if verb == "logs":
            return "f" in short or "--follow" in long
        if verb == "events":
            return "--until" not in long
        if verb == "stats":
            return "--no-stream" not in long
        return verb == "attach"
    if name == "less":
        return any(a.startswith("+") and "F" in a for a in args) or "--follow-name" in long
    if name == "top":
        return "n" not in short and "--iterations" not in long
    if name == "iotop":
        return "n" not in short and "--iter" not in long
    if name == "atop":
        return "r" not in short and sum(bool(NUMBER.match(a)) for a in args) < 2
    if name in ("ping", "ping6"):
        return not (short & {"c", "w"} or long & {"--count", "--deadline"})
    if name == "sleep":
        return any(a.lower() in ("inf", "infinity") for a in args)
    if name in SAMPLERS:
        return sum(bool(NUMBER.match(a)) for a in args) == 1
    if name == "free":
        return "s" in short and "c" not in short and "--count" not in long
    if name == "nvidia-smi":
        return "l" in short or any(a.startswith(("--loop", "-lms")) for a in args)
    if name == "inotifywait":
        return "m" in short or "--monitor" in long
    if name == "tcpdump":  # -D/-L list interfaces or link types and end; -c, -r end too
        return not set("crDL") & set(short) and "--list-interfaces" not in long
    return False


STARTERS = SOURCES | WRAPPERS | FOLLOWERS  # stages that may start a stream of their own


def bounded_by_wrapper(words: list[str]) -> bool:
    """``timeout 60 tail -f log``: a wrapper ends it."""
    return any(base(w) == "timeout" for w in words[:len(words) - len(unwrapped(words))])


def pipeline(f: Findings, children: list[Any], names: list[str | None] | None = None,
             outer: Any = None, raws: list[bytes] | None = None) -> None:
    """Follow the stream from stage to stage; ``names``: each stage's ``stage_name``;
    ``outer`` is a redirected statement around the whole pipeline (``yes | head -c 50G >
    f``), whose redirects get the last output."""
    flowing: str | None = None
    last = len(children) - 1
    if names is None:
        names = [stage_name(child) for child in children]
    for index, child in enumerate(children):
        name = names[index]
        if flowing is None and name is not None and name not in STARTERS and \
                b"/dev/" not in (raws[index] if raws is not None else child.text or b""):
            continue  # nothing flows in, and this program makes no stream of its own
        described = stage(child)
        if described is None:
            # a loop or group fed a stream passes it on (`yes | while read l; do …; done`)
            if flowing and (any_write(child) or (index == last and outer is not None and
                                                 writes_file(outer))):
                kind = "loop" if child.type.endswith(("while_statement", "for_statement")) \
                    else "group"
                f.ask(f"an endless or huge stream reaches a file through a {kind} (it fills "
                      "the disk)", True)
                return
            if not flowing:
                flowing = None
            continue
        words = unwrapped(described[0])
        if not words:
            flowing = None
            continue
        if waits(words) and not bounded_by_wrapper(described[0]):
            f.ask(f"{base(words[0])}: {WAITING}")
        fed = ENDLESS if fed_from_device(child) else flowing
        if sink_writes(words) and (fed or produce(words, fed)):
            f.ask(f"{base(words[0])} writes an endless or huge stream to a file (it fills "
                  "the disk)", True)
            return
        flowing = produce(words, fed)
        if flowing and (writes_file(child) or (index == last and outer is not None and
                                               writes_file(outer))):
            f.ask(f"writes an endless or huge stream ({base(words[0])}) to a file (it fills "
                  "the disk)", True)
            return
        if flowing == ENDLESS and index == last:
            if f.capturing:  # `$(yes)`: bash holds all of it in memory
                f.ask(f"$( ) captures an endless stream from {base(words[0])} (it fills "
                      "memory)", True)
            else:
                f.ask(f"{base(words[0])} produces output without end (it runs until stopped)")
            f.endless_stdout = True


def hides_stdout_writer(f: Findings, body: Any, node: Any) -> bool:
    """``(…) > f``, ``{ …; } > f``, ``fn > f``, ``exec > f``, ``coproc … > f``: stdout of
    commands this check does not follow one by one goes to a file."""
    if not writes_file(node):
        return False
    if body.type != "command":
        return True
    name = envflow_name(body)
    return name in f.functions or name in ("exec", "coproc", "eval", "source", ".")


def envflow_name(node: Any) -> str:
    from swebash.safety.classify.envflow import stage_name

    return stage_name(node) or ""


def single(f: Findings, node: Any) -> None:
    pipeline(f, [node])


def loop(f: Findings, node: Any) -> None:
    """``while :; do …; done``, ``until false``, ``for ((;;))``: a loop that never ends —
    dangerous when its body writes a file."""
    if node.type == "c_style_for_statement":
        head = text(node).split("do", 1)[0]
        endless = bool(re.match(r"^for\s*\(\(\s*[^;]*;\s*;", head))
    else:
        condition = node.child_by_field_name("condition")
        words = text(condition).strip().rstrip(";").strip() if condition is not None else ""
        keyword = text(node.children[0]) if node.children else "while"
        if words.startswith("! "):  # `until ! true` is `while true`
            words, keyword = words[2:].strip(), "until" if keyword == "while" else "while"
        endless = words in (ALWAYS if keyword == "while" else NEVER) or (
            keyword == "while" and SLEEP.fullmatch(words) is not None)
    if not endless:
        return
    body = node.child_by_field_name("body")
    if body is not None and any_write(body):
        f.ask("a loop without end writes to a file (it fills the disk)", True)
    elif body is None or not leaves(body):
        f.ask("a loop without end and no break or exit (it runs until killed)", True)


def leaves(body: Any) -> bool:
    """The loop body has a way out: ``break``, ``exit`` or ``return``."""
    stack = [body]
    while stack:
        current = stack.pop()
        if current.type == "command_name" and text(current) in ("break", "exit", "return"):
            return True
        stack.extend(current.named_children)
    return False


def any_write(node: Any) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if writes_file(current):
            return True
        described = stage(current) if current.type == "command" else None
        if described is not None and sink_writes(described[0]):
            return True
        stack.extend(current.named_children)
    return False
