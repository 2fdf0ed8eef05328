"""Parse-based command classifier: bash text → findings (allow | ask | deny, dangerous, reasons).

Substring checks miss ``r''m``, ``\\rm``, ``/bin/rm``, ``$(echo rm)``, ``xargs rm``, ``sort -o``
and ``> file``. So: parse with tree-sitter-bash; fail closed (``ask``) on parse errors and on
any node type not understood; visit EVERY simple command wherever it sits (pipelines, lists,
subshells, groups, ``$( )``, backticks, process substitution, loops, case, functions, here-docs)
and every redirection; resolve each word the way bash would (quotes, backslashes, ANSI-C
strings) or mark it dynamic; peel wrappers (``rules.py``) and judge the real command by its
argument rules (``rules_commands.py``). ``allow`` only when every part is provably read-only.

The parser (~15 ms to load) is loaded on first use, never at import.
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass, field
from typing import Any, Literal

MAX_DEPTH = 8  # nested `bash -c` / eval strings

STRUCTURAL = frozenset({
    "program", "list", "pipeline", "subshell", "compound_statement", "redirected_statement",
    "if_statement", "elif_clause", "else_clause", "while_statement", "for_statement",
    "c_style_for_statement", "do_group", "case_statement", "case_item", "negated_command",
    "command_substitution", "process_substitution", "function_definition",
    "heredoc_redirect", "herestring_redirect", "file_redirect", "variable_assignments",
    "test_command", "comment", "arithmetic_expansion", "binary_expression", "unary_expression",
    "parenthesized_expression", "postfix_expression", "ternary_expression",
})
LEAVES = frozenset({"word", "string", "raw_string", "ansi_c_string", "concatenation", "number",
                    "simple_expansion", "expansion", "translated_string", "brace_expression",
                    "string_content", "variable_name", "heredoc_body", "heredoc_start",
                    "heredoc_end", "regex", "extglob_pattern", "special_variable_name",
                    "test_operator", "file_descriptor", "heredoc_content"})
WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
HEREDOC_PARTS = ("heredoc_start", "heredoc_body", "heredoc_end")

@dataclass
class Findings:
    """What the walk found: the judgement so far and each simple command's argv."""

    cwd: str
    home: str
    decision: Literal["allow", "ask", "deny"] = "allow"
    dangerous: bool = False
    reasons: list[str] = field(default_factory=list)
    commands: list[list[str]] = field(default_factory=list)

    def ask(self, reason: str, dangerous: bool = False) -> None:
        if self.decision == "allow":
            self.decision = "ask"
        self.dangerous = self.dangerous or dangerous
        if reason not in self.reasons:
            self.reasons.append(reason)

    def deny(self, reason: str) -> None:
        self.decision = "deny"
        self.dangerous = True
        if reason not in self.reasons:
            self.reasons.append(reason)


@dataclass(frozen=True)
class Word:
    text: str  # the static value (the source text when dynamic)
    dynamic: bool  # contains an expansion bash would substitute at run time
    source: str  # as written


def text(node: Any) -> str:
    raw: bytes = node.text
    return raw.decode("utf-8", "replace")


def unescape_word(raw: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            if raw[i + 1] != "\n":
                out.append(raw[i + 1])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def decode_ansi_c(raw: str) -> str:
    body = raw[2:-1] if raw.startswith("$'") and raw.endswith("'") else raw
    try:
        return codecs.decode(body.encode("latin-1", "backslashreplace"), "unicode_escape")
    except (UnicodeDecodeError, ValueError):
        return body


def word_of(node: Any) -> Word:
    kind = node.type
    source = text(node)
    if kind == "word":
        return Word(unescape_word(source), False, source)
    if kind == "number":
        return Word(source, False, source)
    if kind == "raw_string":
        return Word(source[1:-1], False, source)
    if kind == "ansi_c_string":
        return Word(decode_ansi_c(source), False, source)
    if kind == "string":
        parts = []
        for child in node.named_children:
            if child.type != "string_content":
                return Word(source, True, source)
            parts.append(re.sub(r"\\([$`\"\\\n])", r"\1", text(child)))
        return Word("".join(parts), False, source)
    if kind == "concatenation":
        pieces = [word_of(child) for child in node.named_children]
        if any(p.dynamic for p in pieces) or re.search(r"\{[^{}]*,[^{}]*\}", source):
            return Word(source, True, source)  # expansions, or brace expansion into words
        return Word("".join(p.text for p in pieces), False, source)
    return Word(source, True, source)


def classify(command: str, cwd: str, home: str) -> Findings:
    """Classify a bash command line; never raises."""
    findings = Findings(cwd=cwd, home=home)
    classify_into(command, findings, 0)
    return findings


def classify_into(command: str, findings: Findings, depth: int) -> None:
    from swebash.safety.rules import FORK_BOMB

    if depth > MAX_DEPTH:
        findings.ask("command nests shells too deeply to be checked")
        return
    if "\x00" in command:
        findings.ask("command contains a NUL byte")
        return
    if not command.strip():
        return
    if "()" in command and FORK_BOMB.search(command):
        findings.ask("defines a function that forks itself endlessly (fork bomb)",
                     dangerous=True)
    from swebash.bashparse import parse

    try:
        tree = parse(command)
    except Exception:
        findings.ask("the command could not be parsed")
        return
    if tree.root_node.has_error:
        findings.ask("the command could not be parsed completely (unbalanced quotes or "
                     "syntax bash would reject)")
    Walker(findings, depth).visit(tree.root_node)


class Walker:
    def __init__(self, findings: Findings, depth: int) -> None:
        self.f = findings
        self.depth = depth

    def visit(self, node: Any) -> None:
        if not node.is_named:
            return
        kind = node.type
        if kind == "command":
            self.command(node)
        elif kind == "redirected_statement":
            self.redirected(node)
        elif kind == "pipeline":
            self.pipeline(node)
        elif kind in ("variable_assignment", "declaration_command", "unset_command"):
            self.assignment_statement(node)
        elif kind in ("file_redirect", "herestring_redirect"):
            self.redirect(node)
        elif kind == "heredoc_redirect":
            self.heredoc(node, None)
        elif kind in ("ERROR", "MISSING"):
            self.f.ask("the command could not be parsed completely")
        elif kind in STRUCTURAL or kind in LEAVES or kind == "command_name":
            for child in node.children:
                self.visit(child)
        else:
            self.f.ask(f"unfamiliar shell construct ({kind}); not auto-approved")

    # ------------------------------------------------------------------ structure

    def pipeline(self, node: Any, fed: bool = False) -> None:
        """``fed``: the first stage also reads piped data (a here-doc's ``<<EOF | sh``)."""
        from swebash.safety.rules import runs_stdin_as_code, sends_data

        first = len(self.f.commands)
        for child in node.children:
            self.visit(child)
        stages = self.f.commands[first:]
        for n, argv in enumerate(stages):
            if (n or fed) and runs_stdin_as_code(argv):
                source = next((s for s in stages[:n] if sends_data(s)), None)
                if source is not None:
                    self.f.ask(f"downloads or decodes data and runs it: {' '.join(source)} | "
                               f"{' '.join(argv)}", dangerous=True)
                else:
                    self.f.ask(f"runs code read from a pipe: | {' '.join(argv)}",
                               dangerous=True)

    def redirected(self, node: Any) -> None:
        body = node.child_by_field_name("body")
        argv: list[str] | None = None
        if body is not None:
            before = len(self.f.commands)
            self.visit(body)
            if body.type == "command" and len(self.f.commands) > before:
                argv = self.f.commands[before]
        for child in node.named_children:
            if body is not None and child.id == body.id:
                continue
            if child.type == "heredoc_redirect":
                self.heredoc(child, argv)
            else:
                self.redirect(child)

    def heredoc(self, node: Any, argv: list[str] | None) -> None:
        from swebash.safety.rules import INTERPRETERS, SHELLS

        if argv and (argv[0] in SHELLS or argv[0] in INTERPRETERS):
            self.f.ask(f"feeds a here-document to an interpreter: {argv[0]}", dangerous=True)
        for child in node.named_children:  # `cat <<EOF | sh`: the pipeline hangs off here
            if child.type == "pipeline":
                self.pipeline(child, fed=True)
            elif child.type not in HEREDOC_PARTS:
                self.visit(child)
            elif child.type == "heredoc_body":
                for sub in child.named_children:  # $(…) in an unquoted here-doc runs
                    if sub.type in ("command_substitution", "process_substitution"):
                        self.visit(sub)

    def redirect(self, node: Any) -> None:
        op = next((text(c) for c in node.children if not c.is_named), "")
        targets = [c for c in node.named_children if c.type != "file_descriptor"]
        for target in targets:
            self.visit_substitutions(target)
        if node.type == "herestring_redirect" or not targets:
            return
        target = targets[0]
        word = word_of(target)
        if op in (">&", "<&") and (target.type == "number" or word.text in ("-", "")
                                   or word.text.isdigit()):
            return  # fd duplication or closing
        if op in ("<", "<&"):
            if not word.dynamic:
                self.read_path(word.text)
            return
        if op in WRITE_OPS:
            if word.dynamic:
                self.f.ask(f"writes to a file named by an expansion: {op} {word.source}",
                           dangerous=True)
            elif word.text != "/dev/null":
                self.write_path(word.text, truncate=op in (">", ">|", "&>", ">&"))

    def read_path(self, path: str) -> None:
        from swebash.safety.paths import check_path

        verdict = check_path(path, self.f.cwd, self.f.home, write=False)
        if verdict.decision == "deny":
            self.f.deny(verdict.reasons[0])

    def write_path(self, path: str, truncate: bool) -> None:
        from swebash.safety.paths import check_path, expand

        verdict = check_path(path, self.f.cwd, self.f.home, write=True)
        if verdict.decision == "deny":
            self.f.deny(verdict.reasons[0])
            return
        if truncate and os.path.exists(expand(path, self.f.cwd, self.f.home)):
            self.f.ask(f"overwrites an existing file: > {path}", dangerous=True)
        for reason in verdict.reasons:
            self.f.ask(reason.replace("writes ", "redirect writes ", 1), verdict.dangerous)

    def assignment_statement(self, node: Any) -> None:
        from swebash.safety.rules import check_assignment

        if node.type == "variable_assignment":
            check_assignment(self.f, node)
        for child in node.named_children:
            if child.type == "variable_assignment":
                check_assignment(self.f, child)
            self.visit_substitutions(child)

    def command(self, node: Any) -> None:
        from swebash.safety.rules import check_argv, check_assignment

        words: list[Word] = []
        for child in node.named_children:
            if child.type == "variable_assignment":
                check_assignment(self.f, child)
                self.visit_substitutions(child)
            elif child.type == "command_name":
                inner = child.named_children[0] if child.named_children else child
                words.append(word_of(inner))
                self.visit_substitutions(inner)
            elif child.type in ("file_redirect", "herestring_redirect"):
                self.redirect(child)
            else:
                words.append(word_of(child))
                self.visit_substitutions(child)
        if words:
            check_argv(self.f, words, self.depth)

    def visit_substitutions(self, node: Any) -> None:
        if node.type in ("command_substitution", "process_substitution"):
            self.visit(node)
            return
        for child in node.named_children:
            self.visit_substitutions(child)
