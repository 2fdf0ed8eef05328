"""Hooks of programs whose effect lands outside the sandbox, though they write no file in
it: handing a file or URL to another program (a browser, the desktop's opener), writing to
other people (``wall``, ``mesg y``) or the system log, capturing the screen, the clipboard,
the microphone or the camera, changing the scripts a package manager runs, and serving
documentation.

Each is a property of the program, its verb or an option (``ffmpeg -f x11grab``), never of a
particular command line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import hooks_launch
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed

HANDOFF = "opens it in another program, outside the sandbox"
# ffmpeg input formats that read a device: the screen, a camera, a microphone
CAPTURE_FORMATS = {
    "x11grab": "the screen", "kmsgrab": "the screen", "fbdev": "the screen",
    "gdigrab": "the screen", "avfoundation": "the screen, camera or microphone",
    "dshow": "the camera or microphone", "v4l2": "the camera", "video4linux2": "the camera",
    "alsa": "the microphone", "pulse": "the microphone", "jack": "the microphone",
    "oss": "the microphone", "sndio": "the microphone", "openal": "the microphone",
    "pipewire": "the microphone"}


def ffmpeg(f: Findings, p: Parsed, depth: int) -> None:
    """A device input format captures what it names, whatever the output."""
    words = p.argv[1:]
    for k, word in enumerate(words[:-1]):
        if word == "-f":
            device = CAPTURE_FORMATS.get(words[k + 1].lower())
            if device:
                f.ask(f"ffmpeg: captures {device} (-f {words[k + 1][:12]})", True)
    hooks_launch.ffmpeg(f, p, depth)


# package.json keys whose value a tool runs: npm's scripts, a package's executables, the
# hook runners' settings
RUN_KEYS = re.compile(r"^(scripts|bin|gypfile|husky|lint-staged|simple-git-hooks|"
                      r"pre-commit|config\.script-shell)(\.|\[|$)")


def npm_pkg_set(f: Findings, p: Parsed, depth: int) -> None:
    """``npm pkg set KEY=VALUE…``: a script or an executable changes what a tool runs."""
    for operand in p.operands:
        key = operand.text.split("=", 1)[0]
        if operand.dynamic or RUN_KEYS.match(key):
            f.ask(f"npm pkg: changes a script a tool runs ({key[:24]})", True)
            return


def mesg(f: Findings, p: Parsed, depth: int) -> None:
    """``mesg`` shows whether others may write to your terminal; ``mesg y`` lets them."""
    words = [w for w in p.argv[1:] if w not in ("-v", "--verbose")]
    if not words:
        return
    if words[0] in ("y", "yes"):
        f.ask("mesg y: lets other users write to your terminal", True)
    else:
        f.ask("mesg: changes who may write to your terminal")


def pydoc(f: Findings, p: Parsed, depth: int) -> None:
    """``pydoc NAME`` imports NAME (its code runs); ``-w`` writes NAME.html; ``-p``/``-b``
    serve documentation to the network."""
    words = p.argv[1:]
    if any(w in ("-p", "-b", "-n") or w.startswith(("-p", "-n")) for w in words):
        f.ask("pydoc: serves documentation: it listens for connections", True)
        return
    if "-w" in words:
        f.ask("pydoc -w: writes an HTML file for each name")
    elif words[:1] == ["-k"]:
        f.ask("pydoc -k: imports every module it searches (their code runs)")
    elif words:
        f.ask("pydoc: imports the module it documents (its code runs)")


XATTR_WRITES = frozenset("wdc")


def xattr(f: Findings, p: Parsed, depth: int) -> None:
    """``xattr [-lrsxz] FILE`` and ``xattr -p NAME FILE`` read; ``-w``/``-d``/``-c``
    change the file's attributes."""
    letters = {c for w in p.argv[1:] if re.fullmatch(r"-[a-z]+", w) for c in w[1:]}
    unknown = letters - set("lrsvxzpwdch")
    if unknown:
        f.ask(f"xattr: unknown option -{sorted(unknown)[0]}")
    if letters & XATTR_WRITES:
        f.ask("xattr: changes a file's extended attributes")


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "ffmpeg_capture": ffmpeg, "npm_pkg_set": npm_pkg_set, "mesg": mesg, "pydoc": pydoc,
    "xattr": xattr,
}
