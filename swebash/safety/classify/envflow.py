"""Secret environment variables flowing into something that changes their text.

Design note. The problem: redaction replaces a secret variable's value only where it appears
verbatim. ``echo $GITHUB_TOKEN`` is redacted on its way to the model; ``echo $GITHUB_TOKEN |
base64``, ``${GITHUB_TOKEN:0:8}``, ``env | rev`` or ``printenv | gzip`` hand the same secret
over in a shape nothing recognises. What does not work: listing encoders (there is always
``od``, ``fold``, ``paste``, ``tr`` with a new set). The approach is positive: where secret
material flows — a secret-looking variable (or a copy of one), a whole-environment dump
(``env``, ``printenv``, ``set``, ``declare -p``, ``export -p``, ``ps e``,
``systemctl show-environment``, ``xargs printenv``) — only programs known to pass lines
through unchanged may receive it (``grep`` without ``-o``, ``sort``, ``head -n``, ``less``,
``wc``…). Anything else, and any parameter expansion that reshapes a secret
(``${X:0:8}``, ``${X//a/b}``, ``${X^^}``, ``${X#p}``), is dangerous.
"""

from __future__ import annotations

import re
from typing import Any

from swebash.safety.classify.model import Findings, Word, base
from swebash.safety.classify.words import word_of
from swebash.safety.redact import SECRET_NAME as REDACTED_NAME

SECRET_VAR = re.compile(
    r"(?i)(TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|CREDENTIAL|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|"
    r"_KEY(_ID)?$|^KEY$|_PAT$|_PASS$|_PWD$|AUTH(?!OR)|COOKIE|SESSION_?(KEY|ID|TOKEN|SECRET)|"
    r"DSN$|DATABASE_URL|_CONN(ECTION)?_?(STR(ING)?|URL)|WEBHOOK|SIGNING|_SALT$|ENCRYPTION|"
    r"^(REDIS|MONGO(DB)?|AMQP|POSTGRES|MYSQL|RABBITMQ)_URL$)")
NOT_SECRET = frozenset({"SSH_AUTH_SOCK", "XAUTHORITY", "GPG_AGENT_INFO",
                        "TOKENIZERS_PARALLELISM", "AUTHOR", "PWD", "OLDPWD",
                        "KUBECONFIG", "GIT_ASKPASS", "SSH_ASKPASS",
                        # a login session's or a terminal's number, not a credential
                        "XDG_SESSION_ID", "TERM_SESSION_ID"})
# `PASSWORD_STORE_DIR`, `AWS_SHARED_CREDENTIALS_FILE`: where a secret is kept, not the secret
LOCATION = re.compile(r"_(DIR|FILE|PATH|HOME)$")
REFERENCE = re.compile(r"\$\{?#?!?([A-Za-z_]\w*)")
# ${NAME<op>…}: operators that reshape the value (substring, replace, trim, case, transform)
EXPANSION = re.compile(r"^\$\{([A-Za-z_]\w*)(:(?![-=+?])|//?|##?|%%?|\^\^?|,,?|~~?|"
                       r"@[ULuEPAKaQk])")
TRANSFORMED = "changes a secret variable's text (redaction only catches it verbatim)"
WRITTEN = "writes secret environment values to a file"


def is_secret(name: str, f: Findings) -> bool:
    """A secret-looking name (this module's net, widened by the redactor's: every name whose
    value the redactor hides counts here too), or a variable given a secret's value."""
    return name in f.secret_vars or (name not in NOT_SECRET and not LOCATION.search(name)
                                     and bool(SECRET_VAR.search(name) or
                                              REDACTED_NAME.search(name)))


def secret_reference(source: str, f: Findings) -> str | None:
    """The first secret variable ``source`` expands (``$GITHUB_TOKEN``, ``${DB_PASSWORD}``)."""
    for match in REFERENCE.finditer(source):
        if is_secret(match.group(1), f):
            return match.group(1)
    return None


def expansion(f: Findings, source: str) -> None:
    """``${X:0:8}``, ``${X//a/b}``, ``${X^^}``…: a reshaped secret anywhere is dangerous."""
    match = EXPANSION.match(source)
    if match and is_secret(match.group(1), f):
        f.ask(f"${{{match.group(1)[:24]}…}} {TRANSFORMED}", True)


def assigned(f: Findings, name: str, source: str) -> None:
    """``x=$GITHUB_TOKEN``, ``x=$(printenv TOKEN)``: ``x`` holds a secret from now on;
    ``n=GH_TOKEN``: ``n`` holds a secret's NAME (``${!n}`` is its value)."""
    bare = source.strip("'\"")
    if re.fullmatch(r"[A-Za-z_]\w*", bare) and is_secret(bare, f):
        f.notes.setdefault(SECRET_NAMES, set()).add(name)
    elif SECRET_NAMES in f.notes:
        f.notes[SECRET_NAMES].discard(name)
    printed = ("printenv" in source or "env" in source) and re.search(r"\$\(|`", source) \
        and any(is_secret(w, f) for w in re.findall(r"\w+", source))
    if secret_reference(source, f) or secret_uses(f, source) or printed:
        f.secret_vars.add(name)
    else:
        f.secret_vars.discard(name)


# --------------------------------------------------------------------------- pipelines

DUMPS = frozenset({"env", "printenv", "set", "declare", "typeset", "export"})
# programs that pass their input's lines through unchanged (or only count them)
VERBATIM = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "sort", "uniq", "head", "tail",
                      "cat", "tac", "less", "more", "most", "wc", "nl", "tee", "column",
                      "paste", "bat", "batcat"})
PARTIAL = frozenset({"-o", "--only-matching", "-r", "--replace"})


def stage(node: Any) -> tuple[list[str], list[str]] | None:
    """(words, sources) of a pipeline stage that is one simple command, else None."""
    if node.type == "redirected_statement":
        body = node.child_by_field_name("body")
        return stage(body) if body is not None else None
    texts: list[str] = []
    sources: list[str] = []
    if node.type == "declaration_command" and node.children:
        keyword = node.children[0].text.decode("utf-8", "replace")
        texts, sources = [keyword], [keyword]
    elif node.type != "command":
        return None
    for child in node.named_children:
        if child.type in ("variable_assignment", "file_redirect", "herestring_redirect"):
            continue
        inner = child.named_children[0] if child.type == "command_name" and \
            child.named_children else child
        word = word_of(inner)
        texts.append(word.text)
        sources.append(word.source)
    return (texts, sources) if texts else None


WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
SINKS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1",
                   "/dev/fd/2"})


def writes_file(node: Any) -> bool:
    """The statement's own redirects send its output (fd 1) to a file, not the terminal or
    /dev/null."""
    if node.type != "redirected_statement":
        return False
    for child in node.named_children:
        if child.type != "file_redirect":
            continue
        op = next((c.text.decode() for c in child.children if not c.is_named), "")
        fds = [c.text.decode() for c in child.named_children if c.type == "file_descriptor"]
        targets = [c for c in child.named_children if c.type != "file_descriptor"]
        if op in WRITE_OPS and targets and (op.startswith("&") or fds in ([], ["1"])):
            word = word_of(targets[0])
            if word.dynamic or word.text not in SINKS:
                return True
    return False


def tee_file(words: list[str]) -> bool:
    return base(words[0]) == "tee" and any(not w.startswith("-") and w not in SINKS
                                           for w in words[1:])


def herestring(node: Any) -> str:
    """The source text of a here-string or here-document feeding a stage (tree-sitter hangs
    a here-string on the command itself, a here-document on the redirected statement)."""
    if node.type not in ("redirected_statement", "command"):
        return ""
    parts = [c for c in node.named_children
             if c.type in ("herestring_redirect", "heredoc_redirect")]
    body = node.child_by_field_name("body") if node.type == "redirected_statement" else None
    if body is not None and body.type == "command":
        parts += [c for c in body.named_children if c.type == "herestring_redirect"]
    return " ".join(p.text.decode("utf-8", "replace") for p in parts)


def emits_secrets(f: Findings, words: list[str], sources: list[str]) -> bool:
    """A stage whose output holds secret values: a dump of the environment, a secret
    variable printed, another process's environment."""
    name = base(words[0])
    args = words[1:]
    operands = [(w, s) for w, s in zip(args, sources[1:], strict=False)
                if not w.startswith("-")]
    flags = {c for w in args if w.startswith("-") for c in w[1:]}
    if name == "printenv":
        return not operands or any(is_secret(w, f) or "$" in s for w, s in operands)
    if name == "env":
        return all("=" in w for w, _ in operands)  # no command: it prints the environment
    if name == "set":
        return not args
    if name in ("declare", "typeset", "export", "local", "readonly"):
        if not operands:
            return not args or bool(flags & set("px"))
        return "p" in flags and any(is_secret(w.split("=", 1)[0], f) for w, _ in operands)
    if name == "xargs":
        return "printenv" in [base(w) for w in args] or "env" in [base(w) for w in args]
    if name == "ps":
        return any(not w.startswith("-") and re.fullmatch(r"[a-zA-Z]+", w) is not None
                   and "e" in w for w in args)
    if name in ("systemctl", "tmux", "launchctl"):
        return any(w in ("show-environment", "showenv", "getenv", "export") for w in args)
    # anything given a secret as an argument may print it (`echo`, `yes`, `grep "$T" f`)
    return any(secret_reference(s, f) for s in sources[1:])


def passes_verbatim(words: list[str]) -> bool:
    name = base(words[0])
    args = words[1:]
    if name == "cut":  # `cut -d= -f1`: the names only
        joined = " ".join(args)
        return bool(re.search(r"-d\s*'?=", joined) and re.search(r"-f\s*1(\s|$)", joined))
    if name not in VERBATIM:
        return False
    if name in ("head", "tail") and any(a.startswith(("-c", "--bytes")) for a in args):
        return False
    return not (set(args) & PARTIAL and name in ("grep", "egrep", "fgrep", "rg", "ag")) and \
        not any(re.fullmatch(r"-[a-zA-Z]*o[a-zA-Z]*", a) for a in args
                if name in ("grep", "egrep", "fgrep", "rg", "ag"))


def names_only(words: list[str]) -> bool:
    """``cut -d= -f1``, ``wc``: what comes out is no longer the values."""
    return base(words[0]) in ("wc", "cut")


# the programs `emits_secrets` knows to print secret material
EMITTERS = DUMPS | {"local", "readonly", "xargs", "ps", "systemctl", "tmux", "launchctl",
                    "echo", "printf", "print"}


def stage_name(node: Any) -> str | None:
    """The program a stage runs (cheap: only its first word is resolved); "" for a stage of
    assignments alone, None when the stage is not one simple command."""
    if node.type == "redirected_statement":
        body = node.child_by_field_name("body")
        return stage_name(body) if body is not None else None
    if node.type == "declaration_command":
        return node.children[0].text.decode("utf-8", "replace") if node.children else ""
    if node.type != "command":
        return None
    child = node.child_by_field_name("name")
    if child is None:
        return ""
    inner = child.named_children[0] if child.named_child_count else child
    if inner.type == "word":  # the common case: no quotes or expansions to resolve
        raw = inner.text.decode("utf-8", "replace")
        if "\\" not in raw:
            return base(raw)
    return base(word_of(inner).text)


PLAIN_TOKEN = re.compile(rb"[\w./+-]+")
STAGE_TYPES = frozenset({"command", "redirected_statement", "declaration_command"})


def quick_name(node: Any, raw: bytes) -> str | None:
    """``stage_name`` from the stage's source bytes when its first word is plain (the common
    case: no quotes, expansions, assignments or leading redirects); else the full way."""
    if node.type not in STAGE_TYPES:
        return None
    first = raw.split(None, 1)[0] if raw.strip() else b""
    if PLAIN_TOKEN.fullmatch(first):
        return base(first.decode("utf-8", "replace"))
    return stage_name(node)


RAW_REFERENCE = re.compile(rb"\$\{?#?!?([A-Za-z_]\w*)")


def mentions_secret(raw: bytes, f: Findings) -> bool:
    """The stage's text expands a secret variable somewhere (cheap, on the source bytes)."""
    return b"$" in raw and any(is_secret(name.decode("ascii", "replace"), f)
                               for name in RAW_REFERENCE.findall(raw))


def fed_by_document(node: Any) -> bool:
    kinds = ("herestring_redirect", "heredoc_redirect")
    body = node.child_by_field_name("body") if node.type == "redirected_statement" else None
    return any(c.type in kinds for c in node.named_children) or (
        body is not None and any(c.type in kinds for c in body.named_children))


def pipeline(f: Findings, children: list[Any], names: list[str | None],
             outer: Any = None, raws: list[bytes] | None = None) -> None:
    """Secret material may pass only through programs that keep lines as they are, and
    never into a file. ``names``: each stage's ``stage_name``; ``outer``: a redirected
    statement around the whole pipeline."""
    if any(name in DUMP_NAMES for name in names):
        dumps(f, [d[0] if d else None for d in map(stage, children)])
    flowing = False
    last = len(children) - 1
    for index, (child, name) in enumerate(zip(children, names, strict=True)):
        raw = raws[index] if raws is not None else child.text or b""
        if not flowing and name is not None and name not in EMITTERS and \
                b"<<" not in raw and not mentions_secret(raw, f):
            continue  # nothing secret flows in, and this program prints none
        described = stage(child)
        if described is None:
            if flowing:
                f.ask(f"sends secret environment values into {child.type} — {TRANSFORMED}",
                      True)
                return
            flowing = opaque_source(f, child)
            continue
        words, sources = described
        fed = flowing or bool(secret_reference(herestring(child), f))
        if fed and not passes_verbatim(words):
            f.ask(f"{base(words[0])[:20]} {TRANSFORMED}", True)
            return
        flowing = (fed and not names_only(words)) or emits_secrets(f, words, sources)
        if flowing and (writes_file(child) or tee_file(words) or (
                index == last and outer is not None and writes_file(outer))):
            f.ask(WRITTEN, True)
            return


def single(f: Findings, node: Any) -> None:
    """A command fed a secret through a here-string (``base64 <<< "$TOKEN"``), or one that
    prints secrets into a file (``printenv > env.txt``) or dumps them on the screen."""
    if stage_name(node) in DUMP_NAMES:
        described = stage(node)
        if described is not None:
            dumps(f, [described[0]])
    if writes_file(node) and (stage_name(node) in EMITTERS or b"$" in (node.text or b"")):
        described = stage(node)
        if described is not None and emits_secrets(f, *described):
            f.ask(WRITTEN, True)
            return
    if not fed_by_document(node) or not secret_reference(herestring(node), f):
        return
    described = stage(node)
    if described is not None and writes_file(node):
        f.ask(WRITTEN, True)
    elif described is not None and not passes_verbatim(described[0]):
        f.ask(f"{base(described[0][0])[:20]} {TRANSFORMED}", True)


def opaque_source(f: Findings, node: Any) -> bool:
    """A subshell or group whose commands dump secrets (``(set -o posix; set)``)."""
    stack = [node]
    while stack:
        current = stack.pop()
        described = stage(current) if current.type in ("command", "redirected_statement",
                                                       "declaration_command") else None
        if described is not None and emits_secrets(f, *described):
            return True
        stack.extend(current.named_children)
    return False


# --------------------------------------------------------------------------- uses

# Design note. Redaction hides a secret's value on its way to the model, but a command that
# prints, passes or stores a secret variable (`echo $AWS_SECRET_ACCESS_KEY`, `curl -H
# "Authorization: $TOKEN"`, `printf -v x %s "$DB_PASSWORD"`) hands it to something outside
# that net: a program, a file, a later command. So any expansion of a secret's VALUE in a
# command is dangerous. Expansions that yield no value (`${#TOKEN}`, `${TOKEN:+set}`) and a
# test of whether it is set (`[ -n "$TOKEN" ]`, `: "${TOKEN:?}"`) are not uses.
SECRET_NAMES = "secret-names"  # Findings.notes: variables holding a secret variable's name
USES = "uses the secret variable"
EXPANSION_AT = re.compile(r"\$(\{)?([#!])?([A-Za-z_]\w*)")
DISCARDS = frozenset({":", "true"})  # commands that throw their arguments away
SET_TESTS = frozenset({"-n", "-z"})


def unquoted_single(source: str) -> str:
    """``source`` without its single-quoted (and ``$'…'``) parts, where ``$`` is literal."""
    out: list[str] = []
    i, n, double = 0, len(source), False
    while i < n:
        ch = source[i]
        if ch == "\\" and not double:
            out.append(source[i:i + 2])
            i += 2
            continue
        if ch == '"':
            double = not double
        elif ch == "'" and not double:
            end = source.find("'", i + 1)
            if end < 0:
                break
            if out and out[-1] == "$":
                out.pop()
            i = end + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def secret_uses(f: Findings, source: str) -> str | None:
    """The secret variable whose value ``source`` expands (``$TOKEN``, ``"${TOKEN}"``,
    ``${!n}`` with ``n=TOKEN``), or None."""
    if "$" not in source:
        return None
    text = unquoted_single(source)
    for match in EXPANSION_AT.finditer(text):
        braced, mark, name = match.groups()
        after = text[match.end():match.end() + 2]
        if braced and mark == "#":
            continue  # ${#TOKEN}: its length
        if braced and mark == "!":
            if after[:1] in ("*", "@"):
                continue  # ${!GH_*}: names, not values
            if is_secret(name, f) or name in f.notes.get(SECRET_NAMES, ()):
                return name
            continue
        if braced and (after.startswith(":+") or after.startswith("+")):
            continue  # ${TOKEN:+set}: a word of one's own when it is set
        if is_secret(name, f):
            return name
    return None


def asks_use(f: Findings, source: str) -> bool:
    """A secret's value expanded in ``source`` is dangerous; True when it was."""
    used = secret_uses(f, source)
    if used:
        f.ask(f"{USES} {used[:40]}", True)
    return bool(used)


def only_tests_set(name: str, texts: list[str]) -> bool:
    """``[ -n "$TOKEN" ]``, ``test -z "${TOKEN:-}"``, ``[ "$TOKEN" ]``: whether it is set."""
    if name not in ("[", "test"):
        return False
    args = texts[:-1] if name == "[" and texts[-1:] == ["]"] else texts
    return len(args) == 1 or (len(args) == 2 and args[0] in SET_TESTS)


def command_uses(f: Findings, words: list[Word], prefixes: list[str],
                 feeds: list[str]) -> None:
    """A simple command that expands a secret's value in a word, in an assignment in front
    of it (``GH_TOKEN=$MY_TOKEN gh …``) or in a here-string."""
    if not words:
        return
    for word in words:
        if word.dynamic and "$" in word.source:
            break
    else:
        if not feeds and not any("$" in source for source in prefixes):
            return
    name = base(words[0].text)
    if name in DISCARDS or only_tests_set(name, [w.text for w in words[1:]]):
        return
    for source in [w.source for w in words if w.dynamic] + prefixes + feeds:
        if asks_use(f, source):
            return


NAMERS = frozenset({"printenv", "declare", "typeset", "export", "local", "readonly"})


def names_secret(f: Findings, argv: list[str]) -> str | None:
    """``printenv OPENAI_API_KEY``, ``declare -p GH_TOKEN``: a secret printed by its name."""
    if not argv:
        return None
    name = base(argv[0])
    if name not in NAMERS:
        return None
    operands = [w for w in argv[1:] if not w.startswith("-")]
    flags = {c for w in argv[1:] if w.startswith("-") and not w.startswith("--") for c in w[1:]}
    if name == "printenv" or "p" in flags:
        for word in operands:
            plain = word.split("=", 1)[0]
            if is_secret(plain, f):
                return plain
            if name == "printenv" and not re.fullmatch(r"[A-Za-z_]\w*", plain):
                return "named only at run time"  # `xargs printenv`, `printenv "$v"`
    return None


DUMP_NAMES = DUMPS | {"compgen"}
DUMPED = "prints every environment variable (secret values are redacted before the model " \
    "sees them)"


def dumps_environment(argv: list[str]) -> bool:
    """``env``, ``printenv``, ``set``, ``declare -p``/``-x``, ``export -p``, ``compgen -v``:
    the whole environment (or every variable's name) at once."""
    if not argv:
        return False
    name = base(argv[0])
    args = argv[1:]
    flags = {c for w in args if w.startswith("-") and not w.startswith("--") for c in w[1:]}
    operands = [w for w in args if not w.startswith(("-", "+"))]
    if name == "env":
        operands = [w for k, w in enumerate(args) if not w.startswith("-") and not (
            k and args[k - 1] in ("-u", "--unset", "-C", "--chdir", "-P"))]
        return all("=" in w for w in operands) and not any(
            w in ("-S", "--split-string") or w.startswith("--split-string=") for w in args)
    if name == "printenv":
        return not operands
    if name == "set":
        return not args
    if name in ("declare", "typeset"):
        return not operands and (not args or bool(flags & set("px")))
    if name in ("export", "readonly"):
        return not operands and (not args or "p" in flags)
    if name == "compgen":
        wanted = {argv[i + 1] for i, w in enumerate(argv[:-1]) if w == "-A"}
        return bool(flags & set("ve")) or bool(wanted & {"variable", "export"})
    return False


def line_command(f: Findings, argv: list[str]) -> None:
    """One judged command of the line (wrappers peeled): a secret printed by its name."""
    used = names_secret(f, argv)
    if used:
        f.ask(f"{USES} {used[:40]}", True)


def counts(words: list[str]) -> bool:
    """A stage whose output is a count or the names alone (``wc -l``, ``grep -c``,
    ``cut -d= -f1``): what it is fed never reaches the screen."""
    name = base(words[0])
    if name == "grep" or name == "rg":
        return any(re.fullmatch(r"-[a-zA-Z]*[cqlL][a-zA-Z]*|--count|--quiet|--silent|"
                                r"--files-with(out)?-match(es)?", w) for w in words[1:])
    return name == "wc" or (name == "cut" and passes_verbatim(words))


PLAIN_PATTERN = re.compile(r"\^?[A-Za-z0-9_]+")


def selects(f: Findings, words: list[str]) -> bool:
    """``grep -i lang``: only the lines that name a variable of an ordinary name pass (a
    pattern that is not a plain name, ``-v``, or a secret's name lets the values through)."""
    if base(words[0]) not in ("grep", "rg") or not passes_verbatim(words):
        return False
    options = [w for w in words[1:] if w.startswith("-")]
    operands = [w for w in words[1:] if not w.startswith("-")]
    if any(o in ("-v", "--invert-match") or (not o.startswith("--") and "v" in o)
           for o in options) or any(o in ("-e", "-f", "--regexp", "--file") for o in options):
        return False
    return bool(operands) and PLAIN_PATTERN.fullmatch(operands[0]) is not None and \
        not is_secret(operands[0].lstrip("^").upper(), f)


def dumps(f: Findings, stages: list[list[str] | None]) -> None:
    """A dump of the whole environment whose output reaches the screen asks."""
    for index, words in enumerate(stages):
        if words and dumps_environment(words) and not any(
                later and (counts(later) or selects(f, later))
                for later in stages[index + 1:]):
            f.ask(DUMPED)
            return
