"""Hooks of git and gh: where git runs (``-C``, ``--git-dir``: another repository's config can
run programs), which ``-c`` settings are harmless, files read out of history (``HEAD:.env``),
the listing forms of branch/tag/config, and the destructive forms of the write verbs (reset
--hard, push --force, clean -f, checkout -- .) — one short reason each."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable

from swebash.safety.classify import roles
from swebash.safety.classify.checks import read_path, write_target
from swebash.safety.classify.model import Findings, long_option
from swebash.safety.classify.parser import Parsed
from swebash.safety.paths import expand, within

# `-c key=value` settings that only change how output looks
HARMLESS_CONFIG = re.compile(
    r"(?i)^(color\.[\w.-]+|core\.(quotepath|abbrev|autocrlf|safecrlf|eol)|log\.[\w.-]+|"
    r"format\.(pretty|date)|diff\.(noprefix|renames|algorithm|colormoved|mnemonicprefix|"
    r"relative|statgraphwidth|context|interhunkcontext|indentheuristic)|advice\.[\w.-]+|"
    r"i18n\.[\w.-]+|user\.(name|email)|init\.defaultbranch|column\.[\w.-]+|"
    r"safe\.directory|blame\.[\w.-]+|status\.[\w.-]+|grep\.[\w.-]+|"
    r"pager\.[\w-]+=(false|true|0|1|)|gc\.auto=0|maintenance\.auto=false)(=|$)")
CODE_KEYS = re.compile(
    r"(?i)^(core\.(pager|hookspath|sshcommand|editor|fsmonitor|askpass|gitproxy|"
    r"worktree)|alias\..*|diff\..*|merge\..*\.driver|filter\..*|.*\.(command|cmd|program|"
    r"path|helper|tool)|credential\..*|include\..*|includeif\..*|sequence\.editor|"
    r"gpg\.program|uploadpack\..*|receivepack\..*|remote\..*\.(uploadpack|receivepack|"
    r"proxy|url|pushurl)|http\..*proxy.*|url\..*|protocol\..*|pager\..*|interactive\..*|"
    r"web\.browser|browser\..*|man\..*|instaweb\..*|sendemail\..*|submodule\..*\.update|"
    r"core\.sshcommand)$")
# where a remote's commits go or come from: a new address redirects the next push or fetch
REMOTE_KEYS = re.compile(r"(?i)^(remote\..*\.(url|pushurl)|url\..*\.(insteadof|"
                         r"pushinsteadof))$")
NAMED_LISTS = ("-l", "--list", "--contains", "--no-contains", "--merged", "--no-merged",
               "--points-at", "--sort", "--format", "-a", "--all", "-r", "--remotes",
               "--show-current", "-n", "-v", "-vv", "--verbose", "--column", "--omit-empty")
RUNS = ("--upload-pack", "--receive-pack", "--exec", "--template", "--ext-diff",
        "--textconv", "--extcmd", "--tool", "--open-files-in-pager", "--config-env",
        "--exec-path", "--strategy-option", "--gpg-program", "--sign-with")
PATCHES = ("-p", "-u", "--patch", "-U", "--unified", "--word-diff", "--color-words",
           "--patch-with-raw", "--patch-with-stat", "--cc", "-c", "-m", "--remerge-diff")


def git(f: Findings, p: Parsed, depth: int) -> None:
    """Global options: where git runs, and what ``-c`` sets."""
    for used in p.before_verb():
        name, value = used.opt.name, used.value or ""
        if name in ("-C", "--git-dir", "--work-tree") and outside(f, value):
            f.ask("git: runs in another repository (its configuration can run programs)",
                  True)
        elif name == "-c" and not HARMLESS_CONFIG.match(value):
            f.ask(f"git: -c {value.split('=', 1)[0][:24]} can make git run programs", True)
        elif name == "--exec-path" and used.value is not None:
            f.ask("git: --exec-path makes git run its commands from another directory", True)
        elif name in ("-p", "--paginate"):
            f.ask("git: runs a pager")


def outside(f: Findings, place: str) -> bool:
    """Not under the working directory (nor under any directory a cd went to)."""
    cwds = f.cwds or [f.cwd]
    return not any(within(os.path.realpath(expand(place, cwd, f.home)), os.path.realpath(cwd))
                   for cwd in cwds)


def history_paths(f: Findings, p: Parsed) -> None:
    """``git show HEAD:.env`` prints a file from history: the path guard applies to it."""
    for arg in p.operands:
        if not arg.dynamic and ":" in arg.text and "://" not in arg.text:
            read_path(f, arg.text.split(":", 1)[1] or ".")


def revs(f: Findings, p: Parsed, depth: int) -> None:
    """log/show/diff: a path whose content is shown (a patch, ``--no-index``) is read."""
    history_paths(f, p)
    shows = p.verbs[:1] in (["show"], ["diff"], ["cat-file"]) or p.has(*PATCHES)
    if not shows:
        return
    for arg in p.operands:
        if arg.dynamic:
            continue
        if ":" not in arg.text:
            read_path(f, arg.text)


def paths(f: Findings, p: Parsed, depth: int) -> None:
    for arg in p.operands:
        roles.check(f, "git", "r", arg.text, arg.dynamic, depth)


def grep(f: Findings, p: Parsed, depth: int) -> None:
    history_paths(f, p)
    if p.has("--no-index", "--untracked"):
        operands = p.operands[0 if p.has("-e", "-f") else 1:]
        for arg in operands:
            roles.check(f, "git grep", "t", arg.text, arg.dynamic, depth)
        if not operands:
            roles.tree(f, "git grep", ".", hidden=True)


def reflog(f: Findings, p: Parsed, depth: int) -> None:
    if p.operands and p.operands[0].text in ("expire", "delete", "drop"):
        f.ask(f"git reflog {p.operands[0].text}: deletes reflog entries", True)


def symref(f: Findings, p: Parsed, depth: int) -> None:
    if len(p.operands) > 1:
        f.ask("git symbolic-ref: changes what history shows (points a ref elsewhere)", True)


def listing(f: Findings, p: Parsed, what: str) -> None:
    """branch/tag: with a name and no listing option they create one."""
    if p.operands and not p.has(*NAMED_LISTS):
        f.ask(f"git {p.verbs[0]}: creates {what}")


def branch(f: Findings, p: Parsed, depth: int) -> None:
    listing(f, p, "a branch")


def tag(f: Findings, p: Parsed, depth: int) -> None:
    listing(f, p, "a tag")


CONFIG_READS = ("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color",
                "--get-colorbool", "-l", "--list")
CONFIG_VERBS_READ = frozenset({"get", "list"})
CONFIG_VERBS_WRITE = frozenset({"set", "unset", "rename-section", "remove-section", "edit"})


def config(f: Findings, p: Parsed, depth: int) -> None:
    words = [a.text for a in p.operands]
    if any(a.dynamic for a in p.operands):
        f.ask("git config: a key or value known only at run time")
        return
    if words and words[0] in CONFIG_VERBS_READ:
        return
    if words and words[0] in CONFIG_VERBS_WRITE:
        words = words[1:]
    elif p.has(*CONFIG_READS) or len(words) <= 1:
        return
    key = words[0] if words else ""
    if REMOTE_KEYS.match(key):
        f.ask("git config: points a remote at another address (where commits are sent)",
              True)
    elif CODE_KEYS.match(key):
        f.ask("git config: sets a key that runs a program", True)
    else:
        f.ask("git config: changes the configuration")


# `host:path` — an address has no spaces (`git commit -m "fix: x"` names no host)
SCP_LIKE = re.compile(r"^(?:[\w.-]+@)?(\[[^\]]+\]|[\w.-]+):(?!.*\s)")


def remote_url(f: Findings, p: Parsed, depth: int) -> None:
    for arg in p.operands:
        if arg.text.startswith(("ext::", "fd::")) or "::" in arg.text.split("/", 1)[0]:
            f.ask(f"git {p.verbs[0]}: a remote helper address runs a command (ext::)", True)
        elif "://" in arg.text and not arg.dynamic:
            reason = roles.url_reason(arg.text.split("://", 1)[1])
            if reason:
                f.ask(f"git {p.verbs[0]}: {reason}", True)
        elif not arg.dynamic and (shape := SCP_LIKE.match(arg.text)) and \
                not os.path.exists(expand(arg.text, f.cwd, f.home)):
            reason = roles.internal_host(shape.group(1))
            if reason:
                f.ask(f"git {p.verbs[0]}: {reason}", True)


def clean(f: Findings, p: Parsed, depth: int) -> None:
    if p.has("-f", "--force"):
        f.ask("git clean: deletes untracked files", True)
    elif not p.has("-n", "--dry-run"):
        f.ask("git clean: not a dry run (-n)")


def stash_bare(f: Findings, p: Parsed, depth: int) -> None:
    if p.verbs == ["stash"]:
        f.ask("git stash: stashes the changes in the working tree")


def write(f: Findings, p: Parsed, depth: int) -> None:
    """The destructive forms of git's write verbs, and options that run programs."""
    verb = p.verbs[-1]
    rest = p.argv[p.argv.index(verb) + 1:] if verb in p.argv else []
    words = [w for w in rest if not w.startswith("-")]
    flags = {w.split("=", 1)[0] for w in rest if w.startswith("-")}
    letters = {c for w in rest if re.fullmatch(r"-[a-zA-Z]+", w) for c in w[1:]}
    remote_url(f, p, depth)
    if p.verbs[:2] == ["remote", "add"] and len(words) >= 2:
        f.notes.setdefault("git-remotes", set()).add(words[0])
    if verb == "push" and set(words) & f.notes.get("git-remotes", set()):
        f.ask("git push: sends the repository to a remote added in this same command", True)
    if any(long_option(w, *RUNS) for w in rest) or (verb == "clone" and (
            letters & {"u"} or "--config" in flags or "-c" in rest)):
        f.ask(f"git {verb}: an option makes git run a program", True)
    if verb == "apply" and "--unsafe-paths" in flags:
        f.ask("git apply --unsafe-paths: writes outside the working tree", True)
    directories = [w.split("=", 1)[1] for w in rest if w.startswith("--directory=")] + [
        b for a, b in itertools.pairwise(rest) if a == "--directory"]
    if verb in ("apply", "am") and any(d.startswith(("/", "~", "..")) for d in directories):
        f.ask(f"git {verb}: applies the patch under a directory outside the tree", True)
    if p.verbs[-2:] == ["repo", "create"] and "--push" in flags:
        f.ask("gh repo create --push: publishes commits to a new remote", True)
    if verb == "reset" and "--hard" in flags:
        f.ask("git reset --hard: discards uncommitted work", True)
    elif verb == "push":
        if any("://" in w or re.match(r"^[\w.-]+@[\w.-]+:", w) for w in words):
            f.ask("git push: sends the repository to an address given inline", True)
        if flags & {"--force", "--force-with-lease", "--mirror", "--delete", "--prune",
                    "--force-if-includes"} or letters & {"f", "d"} or any(
                w.startswith(("+", ":")) for w in words):
            f.ask("git push: rewrites or deletes remote history", True)
    elif verb in ("checkout", "restore", "switch") and (
            "." in words or flags & {"--force", "--discard-changes", "--overwrite-ignore"}
            or "f" in letters or ("--" in rest and rest.index("--") < len(rest) - 1)
            or (verb == "restore" and words)):
        f.ask(f"git {verb}: discards changes in the working tree", True)
    elif verb == "commit" and "--amend" in flags:
        f.ask("git commit --amend: rewrites history", True)
    elif verb == "bisect" and words[:1] == ["run"]:
        start = rest.index("run") + 1
        f.judge(f, rest[start:], [False] * len(rest[start:]), depth)
    elif verb == "format-patch":
        for directory in [rest[k + 1] for k, w in enumerate(rest[:-1])
                          if w in ("-o", "--output-directory")]:
            write_target(f, directory, "git format-patch", overwrite_is_dangerous=False)
    elif verb == "difftool" and (letters & {"x", "t"} or flags & {"--extcmd", "--tool"}):
        f.ask("git difftool: runs the program it is given", True)


def gh_api(f: Findings, p: Parsed, depth: int) -> None:
    """``gh api PATH`` is a GET; fields, an input body or another method send or change."""
    words = p.argv[p.argv.index("api") + 1:] if "api" in p.argv else []
    writes = ""
    for k, word in enumerate(words):
        head = word.split("=", 1)[0]
        if head in ("-X", "--method") or word.startswith("-X"):
            method = (word[2:] if word.startswith("-X") and len(word) > 2 else
                      word.split("=", 1)[1] if "=" in word else
                      words[k + 1] if k + 1 < len(words) else "")
            if method.upper() not in ("GET", "HEAD", "OPTIONS"):
                writes = writes or method.upper()[:10]
        elif head in ("-f", "-F", "--field", "--raw-field", "--input") or \
                word.startswith(("-f", "-F")):
            writes = writes or "POST"
    if writes:
        named = [b for a, b in itertools.pairwise(words) if a == "--hostname"]
        host = (p.values("--hostname") + named or ["github.com"])[-1]
        f.ask(f"gh api: changes something on {host[:40]} ({writes})", True)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "git": git, "git_revs": revs, "git_paths": paths, "git_grep": grep,
    "git_reflog": reflog, "git_symref": symref, "git_branch": branch, "git_tag": tag,
    "git_config": config, "git_remote_url": remote_url, "git_clean": clean,
    "git_stash_bare": stash_bare, "git_write": write, "gh_api": gh_api,
}
