"""Hooks of launchers (unshare, sg, entr, firejail/flatpak-spawn), document tools that can
run commands (gnuplot, TeX, ghostscript), gpg, logrotate, script and mount."""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import roles
from swebash.safety.classify.checks import read_path
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed


def launcher(f: Findings, p: Parsed, depth: int) -> None:
    if p.command is None:
        f.ask(f"{p.name}: starts a shell or a long-running helper")


def sg(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if "-c" in words and words.index("-c") + 1 < len(words):
        k = words.index("-c") + 1
        roles.check(f, p.name, "c", words[k], p.dynamic[k + 1], depth)
    elif len(words) > 1:
        f.judge(f, words[1:], p.dynamic[2:], depth)


def entr(f: Findings, p: Parsed, depth: int) -> None:
    if p.command is None:
        f.ask("entr: no command")
        return
    rest = p.argv[p.command:]
    if p.has("-s"):
        roles.check(f, "entr", "c", " ".join(rest), any(p.dynamic[p.command:]), depth)


def firejail(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if p.name == "flatpak-spawn" and any(w.startswith("--host") for w in words):
        f.ask("flatpak-spawn --host: runs a command outside the sandbox", True)
    k = 0
    while k < len(words) and words[k].startswith("-"):
        k += 1
    if k < len(words):
        f.judge(f, words[k:], p.dynamic[k + 1:], depth)
    else:
        f.ask(f"{p.name}: starts a shell")


def gnuplot(f: Findings, p: Parsed, depth: int) -> None:
    for script in p.values("-e", "-c"):
        if re.search(r"\bsystem\b|^\s*!|`|\bpipe\b|\|", script):
            f.ask("gnuplot: runs shell commands", True)
    if p.operands or p.has("-c"):
        f.ask("gnuplot: runs gnuplot scripts (they can run shell commands)")


TEX_IO = re.compile(r"\\(openout|write18|immediate\s*\\write|input\s*\||openin)")


def tex(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(re.match(r"^--?(shell-escape|enable-write18|shell-restricted=false)", w)
           or "-shell-escape" in w for w in words):
        f.ask(f"{p.name}: lets the document run shell commands", True)
    # TeX source given inline (a word starting with a control sequence) that opens files
    # or pipes: it writes wherever it names, or runs a command
    if any(w.startswith("\\") and TEX_IO.search(w) for w in words):
        f.ask(f"{p.name}: runs inline TeX that writes files or runs commands", True)
    if words and all(w in ("--version", "-v", "--help", "-h", "-version") for w in words):
        return
    f.ask(f"{p.name}: compiles a document (TeX reads and writes files)")


def ghostscript(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(w.startswith(("-dNOSAFER", "-dDELAYSAFER", "-dNOSAFETY", "-dWRITESYSTEMDICT",
                         "-dNOPLATFONTS")) for w in words):
        f.ask(f"{p.name}: turns off the interpreter's safe mode", True)
    if words and all(w in ("--version", "-v", "-h", "--help", "-v") for w in words):
        return
    f.ask(f"{p.name}: interprets PostScript or PDF")


def ffmpeg(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if words and all(w in ("-version", "--version", "-h", "-help", "--help", "-formats",
                           "-codecs", "-encoders", "-decoders", "-filters", "-hide_banner")
                     for w in words):
        return
    f.ask("ffmpeg: converts media and writes files")


GPG_READ = frozenset({"--list-keys", "-k", "--list-public-keys", "--list-secret-keys", "-K",
                      "--fingerprint", "--list-sigs", "--check-sigs", "--verify",
                      "--version", "--help", "-h", "--list-packets", "--with-colons",
                      "--with-fingerprint", "--keyid-format", "--list-options",
                      "--show-keys", "--import-options", "--export", "--armor", "-a",
                      "--batch", "--no-tty", "--quiet", "-q", "-v", "--verbose"})


# commands that change the keyring in your home (not a file in the tree)
GPG_KEYRING = re.compile(r"--(delete|import|recv|edit-key|gen-key|full-gen|generate-key|"
                         r"full-generate|quick-|sign-key|lsign|tsign|refresh|update-trustdb|"
                         r"fetch-keys|card-edit|change-passphrase|passwd|send-keys|"
                         r"locate-keys|auto-key-locate|import-ownertrust)")


def gpg(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(w.startswith(("--export-secret", "--decrypt", "-d", "--export-ownertrust",
                         "--gen-revoke", "--generate-revocation")) and not w.startswith(
            "--default") for w in words):
        f.ask("gpg: exports or uses secret keys", True)
    for word in words:
        if not word.startswith("-"):
            read_path(f, word)
    if any(GPG_KEYRING.match(w) for w in words):
        f.ask("gpg: changes your keyring (keys, trust, key servers)", True)
    if not all(w in GPG_READ or not w.startswith("-") for w in words):
        f.ask("gpg: changes the keyring or signs, encrypts or decrypts")
    elif not any(w.startswith("-") for w in words) and words:
        f.ask("gpg: processes a file (it may decrypt it)")


def logrotate(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if words and any(w in ("-d", "--debug", "--version", "-?", "--help") for w in words):
        return
    f.ask("logrotate: rotates and deletes logs", True)


def script_cmd(f: Findings, p: Parsed, depth: int) -> None:
    if not p.values("-c", "--command"):
        f.ask("script: starts a shell that records the terminal", True)
    if not p.operands and not p.has("-c", "--command"):
        return
    if not p.operands:
        f.ask("script: writes a typescript file")


MOUNT_READ = re.compile(r"^(-[lhvV]+|--(show-labels|verbose|help|version)|-t|--types=?.*)$")


def mount(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    reads = all(MOUNT_READ.match(w) or (k and words[k - 1] in ("-t", "--types"))
                for k, w in enumerate(words))
    if not reads:
        f.ask("mount: mounts or remounts filesystems", True)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "launcher": launcher, "sg": sg, "entr": entr, "firejail": firejail, "gnuplot": gnuplot,
    "tex": tex, "ghostscript": ghostscript, "ffmpeg": ffmpeg, "gpg": gpg,
    "logrotate": logrotate, "script_cmd": script_cmd, "mount": mount,
}
