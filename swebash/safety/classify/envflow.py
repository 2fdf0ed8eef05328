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

from swebash.safety.classify.model import Findings, base
from swebash.safety.classify.words import word_of

SECRET_VAR = re.compile(
    r"(?i)(TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|CREDENTIAL|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|"
    r"_KEY(_ID)?$|^KEY$|_PAT$|_PASS$|_PWD$|AUTH(?!OR)|COOKIE|SESSION_?(KEY|ID|TOKEN|SECRET)|"
    r"DSN$|DATABASE_URL|_CONN(ECTION)?_?(STR(ING)?|URL)|WEBHOOK|SIGNING|_SALT$|ENCRYPTION|"
    r"^(REDIS|MONGO(DB)?|AMQP|POSTGRES|MYSQL|RABBITMQ)_URL$)")
NOT_SECRET = frozenset({"SSH_AUTH_SOCK", "XAUTHORITY", "GPG_AGENT_INFO",
                        "TOKENIZERS_PARALLELISM", "AUTHOR", "PWD", "OLDPWD",
                        "KUBECONFIG", "GIT_ASKPASS", "SSH_ASKPASS"})
REFERENCE = re.compile(r"\$\{?#?!?([A-Za-z_]\w*)")
# ${NAME<op>…}: operators that reshape the value (substring, replace, trim, case, transform)
EXPANSION = re.compile(r"^\$\{([A-Za-z_]\w*)(:(?![-=+?])|//?|##?|%%?|\^\^?|,,?|~~?|"
                       r"@[ULuEPAKaQk])")
TRANSFORMED = "changes a secret variable's text (redaction only catches it verbatim)"
WRITTEN = "writes secret environment values to a file"


def is_secret(name: str, f: Findings) -> bool:
    return name in f.secret_vars or (name not in NOT_SECRET and bool(SECRET_VAR.search(name)))


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
    """``x=$GITHUB_TOKEN``, ``x=$(printenv TOKEN)``: ``x`` holds a secret from now on."""
    if secret_reference(source, f) or (("printenv" in source or "env" in source) and
                                       re.search(r"\$\(|`", source) and
                                       any(is_secret(w, f) for w in re.findall(r"\w+",
                                                                               source))):
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
    prints secrets into a file (``printenv > env.txt``)."""
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
