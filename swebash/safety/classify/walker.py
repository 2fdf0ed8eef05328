"""Parse-based command classifier: bash text → findings (allow | ask | deny, dangerous, reasons).

Substring checks miss ``r''m``, ``\\rm``, ``/bin/rm``, ``$(echo rm)``, ``xargs rm``, ``sort -o``
and ``> file``. So: parse with tree-sitter-bash; fail closed (``ask``) on parse errors, on any
node type not understood and on the bytes where tree-sitter and bash disagree (CR, FF, VT, a
quoted here-doc delimiter); visit EVERY simple command wherever it sits (pipelines, lists,
subshells, groups, ``$( )``, backticks, process substitution, loops, case, functions,
here-docs) and every redirection; resolve each word the way bash would (quotes, backslashes,
ANSI-C strings) or mark it dynamic; hand each command's words to ``rules.judge``.

Bounded: input over ``MAX_CHARS``, a tree deeper than ``MAX_TREE_DEPTH`` or with more than
``MAX_NODES`` nodes, or a walk past the time budget fails closed with one reason — no
recursion error, no regex over the raw text that could go quadratic.

The parser (~15 ms to load) is loaded on first use, never at import.
"""

from __future__ import annotations

import os
import re
from typing import Any

from swebash.safety.classify import (
    builtins,
    checks,
    envflow,
    lines,
    memo,
    processes,
    searching,
    streams,
    written,
)
from swebash.safety.classify.dispatch import check_argv, judge
from swebash.safety.classify.hooks_text import feed_kind
from swebash.safety.classify.model import MAX_DEPTH, Findings, OverBudget, Word, base, text
from swebash.safety.classify.registry import known
from swebash.safety.classify.tables import HIJACK_VARS, INTERPRETERS, META_READERS, SHELLS
from swebash.safety.classify.words import word_of
from swebash.safety.classify.wrappers import check_env_name

MAX_CHARS = 64 * 1024
MAX_TREE_DEPTH = 80
MAX_NODES = 40_000
# bytes bash reads differently from tree-sitter (blanks vs word characters, line joins)
DISAGREE = re.compile("[\x01-\x08\x0b\x0c\x0d\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e"
                      "\u2066-\u2069\u200b-\u200f\u2060-\u2064\ufeff\u00a0\u00ad\u034f"
                      "\u061c\u115f\u1160\u1680\u17b4\u17b5\u180e\u2000-\u200a\u202f"
                      "\u205f\u3000\u3164\ufe00-\ufe0f\uffa0]")
STRUCTURAL = frozenset({
    "program", "list", "subshell", "compound_statement", "if_statement", "elif_clause",
    "else_clause", "while_statement", "for_statement", "c_style_for_statement", "do_group",
    "case_statement", "case_item", "negated_command", "command_substitution",
    "process_substitution", "herestring_redirect", "variable_assignments", "test_command",
    "comment", "arithmetic_expansion", "binary_expression", "unary_expression",
    "parenthesized_expression", "postfix_expression", "ternary_expression", "subscript",
})
LEAVES = frozenset({"word", "string", "raw_string", "ansi_c_string", "concatenation", "number",
                    "simple_expansion", "expansion", "translated_string", "brace_expression",
                    "string_content", "variable_name", "heredoc_body", "heredoc_start",
                    "heredoc_end", "regex", "extglob_pattern", "special_variable_name",
                    "test_operator", "file_descriptor", "heredoc_content", "command_name"})
STD_STREAMS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1",
                         "/dev/fd/2"})
WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
HEREDOC_PARTS = ("heredoc_start", "heredoc_body", "heredoc_end")
# programs that run what they read on stdin as commands (besides shells and interpreters)
STDIN_RUNNERS = frozenset({"ed", "ex", "vim", "vi", "nvim", "sqlite3", "gdb", "mysql", "psql",
                           "ftp", "sftp", "at", "batch", "expect", "lua", "redis-cli",
                           "mongo", "mongosh", "tclsh", "wish", "osascript", "m4", "dc",
                           "source", ".", "jshell", "irb", "ghci", "duckdb", "lldb",
                           "cqlsh", "clickhouse-client", "crontab", "red", "sbcl",
                           "guile", "racket", "R", "Rscript", "julia", "pwsh"})
PIPE_SENDERS = frozenset({"ssh", "nc", "ncat", "netcat", "socat", "telnet", "sftp", "ftp",
                          "tftp", "openssl", "mail", "sendmail", "mutt", "xclip", "xsel",
                          "pbcopy", "wl-copy"})
STDIN_CODE = SHELLS | INTERPRETERS | {"m4", "dc", "at", "batch", "source", ".", "ssh"}
ARITH_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
HEREDOC_DELIMITER = re.compile(r"-?(\w+|'\w+'|\"\w+\"|\\\w+)")


def classify(command: str, cwd: str, home: str) -> Findings:
    """Classify a bash command line; never raises."""
    findings = Findings(cwd=cwd, home=home)
    findings.nested = classify_into
    findings.judge = judge
    findings.feed_kind = feed_kind
    try:
        classify_into(command, findings, 0)
        lines.after(findings)  # the commands judged since the last `cd` (builtins.cd)
    except OverBudget as exc:
        # what was not checked may be anything: a dangerous verdict is kept, never dropped
        findings.ask(f"{exc} (treated as dangerous)", True)
    except RecursionError:
        findings.ask("the command nests too deeply to be checked", True)
    except Exception as exc:  # a fault in a rule must never let a command through
        findings.ask(f"the classifier failed on this command ({type(exc).__name__}); not "
                     "checked", True)
    if findings.endless_stdout and findings.stdout_to_file:
        findings.ask("an endless stream reaches a file through a group, a function or exec "
                     "(it fills the disk)", True)
    if findings.tainted and findings.evaluates:
        findings.ask("evaluates a value set at run time as arithmetic or a name (this can run "
                     "code)", dangerous=True)
    return findings


def classify_into(command: str, findings: Findings, depth: int) -> None:
    # Input the classifier cannot read the way bash will is dangerous, not merely unknown:
    # whatever it hides would run without the flag that keeps --yes from running it.
    if depth > MAX_DEPTH:
        findings.ask("command nests shells too deeply to be checked", True)
        return
    if len(command) > MAX_CHARS:
        findings.ask(f"the command is longer than {MAX_CHARS // 1024} KB; not checked", True)
        return
    if "\x00" in command:
        findings.ask("command contains a NUL byte", True)
        return
    if DISAGREE.search(command):
        findings.ask("contains control, invisible or direction characters (CR, zero-width, "
                     "bidi overrides…) that bash, the parser or the screen read differently",
                     True)
        return
    if not command.strip():
        return
    from swebash.bashparse import parse

    try:
        tree = parse(command)
    except Exception:
        findings.ask("the command could not be parsed", True)
        return
    root = tree.root_node
    if not within_bounds(root, findings):
        return
    if root.has_error:
        findings.ask("the command could not be parsed completely (unbalanced quotes or "
                     "syntax bash would reject)", True)
    Walker(findings, depth).visit(root)


def within_bounds(root: Any, f: Findings) -> bool:
    """Depth and size of the tree, measured with a cursor (no recursion, no lists)."""
    cursor = root.walk()
    depth = count = 0
    while True:
        count += 1
        if depth > MAX_TREE_DEPTH:
            f.ask("the command nests too deeply to be checked", True)
            return False
        if count > MAX_NODES:
            f.ask("the command is too large to be checked", True)
            return False
        if count % 2048 == 0:
            f.tick()
        if cursor.goto_first_child():
            depth += 1
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return True
            depth -= 1


def runs_stdin_as_code(argv: list[str]) -> bool:
    """The program runs what it reads on stdin (``sh``, ``python -``, ``m4``, a remote
    shell given no command)."""
    if not argv:
        return False
    name = base(argv[0])
    if name not in STDIN_CODE:
        return False
    rest = [a for a in argv[1:] if not a.startswith("-") or a == "-"]
    if name in SHELLS:
        return not rest or rest[0] == "-" or "-s" in argv
    if name in ("m4", "dc", "at", "batch"):
        return not rest
    if name in ("source", "."):
        return rest[:1] in ([], ["/dev/stdin"], ["-"])
    if name == "ssh":
        return len(rest) == 1
    return name in INTERPRETERS and (not rest or rest[0] in ("-", "/dev/stdin"))


class Walker:
    def __init__(self, findings: Findings, depth: int) -> None:
        self.f = findings
        self.depth = depth
        self.visits = 0
        # nodes whose stream and secret flow a pipeline or a redirected statement around them
        # judges (tree-sitter's node.parent walks from the root: never asked per command)
        self.enclosed: set[int] = set()
        self.outer: dict[int, Any] = {}  # pipeline id → the redirected statement around it
        # plain commands judged clean, by their text: (the state they were judged in, what
        # they recorded) — `sort | uniq -c | sort -rn` judges the second `sort` once only
        self.clean: dict[tuple[bytes, bool], tuple[bytes, list[list[str]]]] = {}

    def visit(self, node: Any) -> None:
        if not node.is_named:
            return
        self.visits += 1
        if self.visits % 32 == 0:
            self.f.tick()
        kind = node.type
        handler = HANDLERS.get(kind)
        if handler is not None:
            handler(self, node)
        elif kind in ("ERROR", "MISSING"):
            self.f.ask("the command could not be parsed completely", True)
        elif kind in STRUCTURAL or kind in LEAVES:
            if kind == "case_statement":  # `case $TOKEN in ghp_*)` guesses the value too
                value = node.child_by_field_name("value")
                if value is not None:
                    envflow.asks_use(self.f, text(value))
            if kind in ("arithmetic_expansion", "c_style_for_statement"):
                self.f.evaluates.append(kind)
            elif kind == "compound_statement" and node.children and \
                    node.children[0].type == "((":
                self.f.evaluates.append("(( ))")
            self.children(node)
        else:
            # not walked: whatever it holds is unchecked
            self.f.ask(f"unfamiliar shell construct ({kind}); not checked", True)

    def children(self, node: Any) -> None:
        for child in node.children:
            self.visit(child)

    # ------------------------------------------------------------------ structure

    def pipeline(self, node: Any, fed: bool = False) -> None:
        """``fed``: the first stage also reads piped data (a here-doc's ``<<EOF | sh``)."""
        first = len(self.f.commands)
        previous: list[str] | None = None
        named = [c for c in node.children if c.is_named]
        self.enclosed.update(c.id for c in named)
        for child in node.children:
            before = len(self.f.commands)
            self.f.feed = previous
            try:
                self.visit(child)
            finally:
                self.f.feed = None
            if child.is_named:
                recorded = self.f.commands[before:]
                previous = recorded[0] if child.type == "command" and recorded else None
        raws = [c.text or b"" for c in named]
        names = [envflow.quick_name(c, raw) for c, raw in zip(named, raws, strict=True)]
        outer = self.outer.get(node.id)
        envflow.pipeline(self.f, named, names, outer, raws)
        streams.pipeline(self.f, named, names, outer, raws)
        stages = self.f.commands[first:]
        for n, argv in enumerate(stages):
            if (n or fed) and runs_stdin_as_code(argv):
                self.f.ask(f"runs code read from a pipe ({base(argv[0])})", dangerous=True)
            elif (n or fed) and argv and base(argv[0]) in PIPE_SENDERS and not (
                    base(argv[0]) == "openssl" and argv[1:2] not in (["s_client"],
                                                                     ["s_server"])):
                self.f.ask(f"sends piped data over the network ({base(argv[0])})", True)
        searching.listing_filtered(self.f, stages)

    def redirected(self, node: Any) -> None:
        body = node.child_by_field_name("body")
        if node.id not in self.enclosed:
            envflow.single(self.f, node)
            streams.single(self.f, node)
        if body is not None and streams.hides_stdout_writer(self.f, body, node):
            self.f.stdout_to_file = True
        if body is not None:
            self.enclosed.add(body.id)
            if body.type == "pipeline":
                self.outer[body.id] = node
        argv: list[str] | None = None
        if body is not None:
            before = len(self.f.commands)
            self.visit(body)
            if body.type == "command" and len(self.f.commands) > before:
                argv = self.f.commands[before]
        for child in node.named_children:
            if body is not None and child.id == body.id:
                continue
            if argv and runs_stdin_as_code(argv) and child.type == "file_redirect" and any(
                    c.type == "process_substitution" for c in child.named_children):
                self.f.ask(f"runs code produced by another command ({base(argv[0])})", True)
            if child.type == "herestring_redirect" and argv and (
                    base(argv[0]) in SHELLS or base(argv[0]) in INTERPRETERS or
                    runs_stdin_as_code(argv)):
                self.f.ask(f"feeds a string to an interpreter as code ({base(argv[0])})", True)
            if child.type == "file_redirect" and argv:
                self.stdin_file(child, argv)
            if child.type == "heredoc_redirect":
                self.heredoc(child, argv)
            else:
                self.redirect(child, base(argv[0]) if argv else "")

    def stdin_file(self, node: Any, argv: list[str]) -> None:
        """``sh < script``, ``ssh host < cmds``, ``openssl s_client … < file``: a file fed
        to a program that runs it or sends it away."""
        op = next((text(c) for c in node.children if not c.is_named), "")
        targets = [c for c in node.named_children if c.type != "file_descriptor"]
        if op not in ("<", "<>") or not targets:
            return
        source = word_of(targets[0])
        if not source.dynamic and source.text in STD_STREAMS | {"/dev/null", "/dev/zero"}:
            return
        name = base(argv[0])
        if runs_stdin_as_code(argv) or name in STDIN_RUNNERS:
            self.f.ask(f"feeds a file to a program that runs it as code ({name})", True)
        elif (name in PIPE_SENDERS and name not in ("xclip", "xsel", "pbcopy", "wl-copy")) or (
                not known(name) and any("://" in word for word in argv[1:])):
            self.f.ask(f"sends a file over the network ({name})", True)

    def heredoc(self, node: Any, argv: list[str] | None = None) -> None:
        name = base(argv[0]) if argv else ""
        if name in SHELLS or name in INTERPRETERS or name in STDIN_RUNNERS:
            self.f.ask(f"feeds a here-document to an interpreter ({name})", dangerous=True)
        for child in node.named_children:  # `cat <<EOF | sh`: the pipeline hangs off here
            if child.type == "heredoc_start" and not HEREDOC_DELIMITER.fullmatch(text(child)):
                self.f.ask("a here-document delimiter the parser may read differently from "
                           "bash", True)
            if child.type == "pipeline":
                self.pipeline(child, fed=True)
            elif child.type not in HEREDOC_PARTS:
                self.visit(child)
            elif child.type == "heredoc_body":
                for sub in child.named_children:  # expansions in an unquoted here-doc run
                    if sub.type != "heredoc_content":
                        if name not in envflow.DISCARDS:
                            envflow.asks_use(self.f, text(sub))
                        self.visit(sub)

    def redirect(self, node: Any, consumer: str = "") -> None:
        op = next((text(c) for c in node.children if not c.is_named), "")
        targets = [c for c in node.named_children if c.type != "file_descriptor"]
        for target in targets:
            self.visit_substitutions(target)
        if node.type == "herestring_redirect" or not targets or \
                targets[0].type == "process_substitution":
            return
        word = word_of(targets[0])
        searching.check_glob(self.f, word.source)
        if op in (">&", "<&") and (targets[0].type == "number" or word.text in ("-", "")
                                   or word.text.rstrip("-").isdigit()):
            return  # fd duplication or closing
        if op in ("<", "<&", "<>"):
            if word.dynamic and consumer not in META_READERS:
                self.f.ask("reads a file named only at run time")
            elif word.dynamic:
                pass
            else:
                checks.read_path(self.f, word.text)
            if op != "<>":
                return
        if op in WRITE_OPS:
            if word.dynamic:
                self.f.ask("writes to a file named only at run time", dangerous=True)
            elif word.text not in STD_STREAMS:
                self.f.ask(f"redirect writes {word.text[:60]}")
                lines.after(self.f)  # the commands before this write run without it
                written.note_write(self.f, word.text)
                checks.write_target(self.f, word.text, "redirect",
                                    overwrite_is_dangerous=op in (">", ">|", "&>", ">&"))

    # ------------------------------------------------------------------ assignments

    def assignment(self, node: Any, prefix: bool = False) -> None:
        name_node = node.child_by_field_name("name")
        name = text(name_node) if name_node is not None else text(node).split("=", 1)[0]
        value = node.child_by_field_name("value")
        if name_node is not None and name_node.type == "subscript":
            self.f.evaluates.append("subscript")
            name = name.split("[", 1)[0]
        word = word_of(value) if value is not None else Word("", False, "")
        self.f.bound.pop(name, None)
        envflow.assigned(self.f, name, word.source)
        processes.assigned(self.f, name, word.source)
        builtins.history_variable(self.f, name)
        check_env_name(self.f, name, None if word.dynamic else word.text, prefix=prefix)
        if word.dynamic or builtins.EXPANDS.search(word.text):
            self.f.tainted = True
        self.visit_substitutions(node)

    def declaration(self, node: Any) -> None:
        keyword = text(node.children[0]) if node.children else "declare"
        argv, dyn = [keyword], [False]
        for child in node.named_children:
            if child.type == "variable_assignment":
                name_node = child.child_by_field_name("name")
                value = child.child_by_field_name("value")
                word = word_of(value) if value is not None else Word("", False, "")
                name = text(name_node) if name_node is not None else ""
                envflow.assigned(self.f, name, word.source)
                processes.assigned(self.f, name, word.source)
                argv.append(f"{name}={word.text}")
                dyn.append(word.dynamic and False)
                if word.dynamic:
                    self.f.tainted = True
            else:
                word = word_of(child)
                argv.append(word.text)
                dyn.append(word.dynamic)
            self.visit_substitutions(child)
        rule = builtins.BUILTIN_RULES.get(keyword, builtins.declare)
        rule(self.f, keyword, argv, dyn, self.depth)
        if node.id not in self.enclosed:
            envflow.dumps(self.f, [argv])
        self.f.record(argv)

    def command(self, node: Any) -> None:
        """A simple command. One judged before in this walk with the same text, in the same
        state, without a question and without changing the state, would be judged the same
        again: its records are replayed instead."""
        key = (node.text or b"", node.id in self.enclosed)
        state = memo.state(self.f)
        seen = self.clean.get(key)
        if seen is not None and seen[0] == state:
            self.f.tick()
            for argv in seen[1]:
                self.f.record(list(argv))
            return
        asks, first = self.f.asks, len(self.f.commands)
        if self.judge_command(node) and self.f.asks == asks and memo.state(self.f) == state:
            self.clean[key] = (state, [list(a) for a in self.f.commands[first:]])

    def judge_command(self, node: Any) -> bool:
        """Judge a simple command; True when it is plain: static words only, no assignment,
        redirect or substitution (all it does is in its words)."""
        words: list[Word] = []
        feeds = []  # redirects that feed stdin: a here-string or a process substitution
        redirects: list[Any] = []
        prefixes: list[str] = []  # the values of assignments in front of the command
        for child in node.named_children:
            kind = child.type
            if kind == "herestring_redirect" or (kind == "file_redirect" and any(
                    c.type == "process_substitution" for c in child.named_children)):
                feeds.append(child)
            if kind == "variable_assignment":
                self.assignment(child, prefix=True)
                value = child.child_by_field_name("value")
                if value is not None:
                    prefixes.append(text(value))
            elif kind == "command_name":
                inner = child.named_children[0] if child.named_children else child
                words.append(word_of(inner))
                if inner.child_count:
                    self.visit_substitutions(inner)
            elif kind in ("file_redirect", "herestring_redirect"):
                redirects.append(child)
            else:
                words.append(word_of(child))
                if child.child_count:
                    self.visit_substitutions(child)
        for child in redirects:
            self.redirect(child, base(words[0].text) if words else "")
        if node.id not in self.enclosed:
            streams.single(self.f, node)
            envflow.single(self.f, node)
        if words:
            name = base(words[0].text)
            if feeds and (name in SHELLS or name in INTERPRETERS or name in STDIN_RUNNERS):
                self.f.ask(f"feeds code to an interpreter through a redirect ({name})", True)
            if prefixes or feeds or any(w.dynamic for w in words):
                envflow.command_uses(self.f, words, prefixes, [
                    text(c) for c in feeds if c.type == "herestring_redirect"])
            for word in words:
                if "*" in word.source or "?" in word.source or "[" in word.source:
                    searching.check_glob(self.f, word.source)
            check_argv(self.f, words, self.depth)
        return bool(words) and not (feeds or redirects or prefixes) and \
            not any(w.dynamic for w in words)

    def function(self, node: Any) -> None:
        name_node = node.child_by_field_name("name")
        name = text(name_node) if name_node is not None else ""
        body = node.child_by_field_name("body")
        self.f.functions.add(name)
        if body is not None:
            called = {text(n) for n in descendants(body, "command_name")}
            self.f.calls[name] = called
            if name in called or "FUNCNAME" in text(body) or recursive(self.f.calls, name):
                self.f.ask(f"function {name[:20]} calls itself (fork bomb)", dangerous=True)
        for child in node.named_children:
            if child.type != "word":
                self.visit(child)

    def for_loop(self, node: Any) -> None:
        variable = node.child_by_field_name("variable")
        if variable is not None and HIJACK_VARS.match(text(variable)):
            self.f.ask(f"for loop sets {text(variable)}, which changes how programs run", True)
        values: list[str] | None = []
        for value in node.children_by_field_name("value"):
            word = word_of(value)
            searching.check_glob(self.f, word.source)
            if word.dynamic or set("*?[") & set(word.text):
                self.f.tainted = True
            if word.dynamic or values is None:
                values = None
            elif set("*?[") & set(word.text) and not word.source.startswith(("'", '"')):
                matches = checks.bounded_glob(self.f, checks.expand(word.text, self.f.cwd,
                                                                    self.f.home))
                values = None if matches is None else values + (
                    [os.path.relpath(m, self.f.cwd) if not os.path.isabs(word.text) else m
                     for m in matches] or [word.text])
            else:
                values.append(word.text)
        if variable is not None:
            name = text(variable)
            envflow.assigned(self.f, name, " ".join(
                text(v) for v in node.children_by_field_name("value")))
            if values is not None and len(values) <= checks.MAX_GLOB:
                self.f.bound[name] = values
            else:
                self.f.bound.pop(name, None)
        self.children(node)

    def loop(self, node: Any) -> None:
        streams.loop(self.f, node)
        if node.type == "c_style_for_statement":
            self.f.evaluates.append(node.type)
        self.children(node)

    def test_command(self, node: Any) -> None:
        operators = [text(n) for n in descendants(node, "test_operator")]
        for compared in descendants(node, "binary_expression"):
            if any(c.type in ("&&", "||") for c in compared.children):
                continue  # its comparisons are binary expressions of their own
            # `[[ $TOKEN == ab* ]]` guesses the value a piece at a time
            if envflow.asks_use(self.f, text(compared)):
                break
        if ARITH_TESTS & set(operators):
            self.f.evaluates.append("[[ -eq ]]")
        for op in descendants(node, "unary_expression"):
            parts = op.children
            if parts and text(parts[0]) == "-v" and len(parts) > 1:
                operand = word_of(parts[1])
                if operand.dynamic or "[" in operand.text:
                    self.f.ask("test -v evaluates a subscript, which can run code", True)
        self.children(node)

    def expansion(self, node: Any) -> None:
        kinds = [c.type for c in node.children]
        source = text(node)
        envflow.expansion(self.f, source)
        if kinds[1:2] == ["!"] and not re.search(r"[*@]\}$|\[[*@]\]\}$", source):
            self.f.ask("indirect expansion ${!name} is not checked")
            self.f.evaluates.append("${!x}")
        if "@" in kinds and re.search(r"@[PEA]\}$", source):
            self.f.ask("prompt expansion ${x@P} evaluates a value")
            self.f.evaluates.append("${x@P}")
        subscript = next((c for c in node.children if c.type == "subscript"), None)
        index = text(subscript).split("[", 1)[-1] if subscript is not None else ""
        offsets = re.search(r"^\$\{#?\w+:([^-=+?].*)\}$", source)
        if (re.search(r"[A-Za-z_$`]", index.rstrip("]")) and index not in ("@]", "*]")) or (
                offsets and re.search(r"[A-Za-z_$`\[]", offsets.group(1))):
            self.f.evaluates.append("subscript")
        name = next((text(c) for c in node.children if c.type == "variable_name"), "")
        if re.search(r":?=", "".join(kinds)) and HIJACK_VARS.match(name):
            self.f.ask(f"assigns {name} in an expansion", dangerous=True)
        self.children(node)

    def substitution(self, node: Any) -> None:
        source = text(node)
        if source.startswith("`") and "\\`" in source:
            self.f.ask("nested backticks are not checked", True)
            return
        self.f.capturing += 1
        try:
            self.children(node)
        finally:
            self.f.capturing -= 1

    def visit_substitutions(self, node: Any) -> None:
        stack = [node]
        while stack:
            current = stack.pop()
            if current.type in ("command_substitution", "process_substitution", "expansion",
                                "arithmetic_expansion"):
                self.visit(current)
                continue
            stack.extend(current.named_children)


def recursive(graph: dict[str, set[str]], start: str) -> bool:
    """Functions defined in this command that call each other in a cycle through ``start``."""
    seen: set[str] = set()
    stack = list(graph.get(start, ()))
    while stack:
        name = stack.pop()
        if name == start:
            return True
        if name in seen or name not in graph:
            continue
        seen.add(name)
        stack.extend(graph[name])
    return False


def descendants(node: Any, kind: str) -> list[Any]:
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        if current.type == kind:
            found.append(current)
        stack.extend(current.children)
    return found


HANDLERS = {
    "command": Walker.command, "redirected_statement": Walker.redirected,
    "pipeline": Walker.pipeline, "variable_assignment": Walker.assignment,
    "declaration_command": Walker.declaration, "unset_command": Walker.declaration,
    "file_redirect": Walker.redirect, "heredoc_redirect": Walker.heredoc,
    "function_definition": Walker.function, "for_statement": Walker.for_loop,
    "test_command": Walker.test_command, "expansion": Walker.expansion,
    "command_substitution": Walker.substitution, "while_statement": Walker.loop,
    "c_style_for_statement": Walker.loop,
}
