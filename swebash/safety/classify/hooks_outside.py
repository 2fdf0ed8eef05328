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

from swebash.safety.classify import hooks_launch, processes
from swebash.safety.classify.checks import in_tree, read_path, resolved
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed

HANDOFF = "opens it in another program, outside the sandbox"


def clipboard(f: Findings, p: Parsed, depth: int) -> None:
    """The clipboard is outside the tree in both directions: it holds what you copied last
    (often a password), and what is put there is what you paste next (into a terminal)."""
    words = p.argv[1:]
    if any(w in ("-o", "--output", "-out") or re.fullmatch(r"-[a-z]*o[a-z]*", w)
           for w in words if p.name in ("xclip", "xsel")):
        f.ask(f"{p.name}: captures the clipboard (it may hold a password)", True)
        return
    f.ask(f"{p.name}: sets the clipboard (what you paste next)", True)


RUNNABLE = re.compile(r"\.(desktop|command|sh|app|exe|bat|tool|jar|py|pl|rb|js)$", re.I)
GIO_READ = frozenset({"info", "list", "tree", "version", "help", "--version", "--help"})


def opener(f: Findings, p: Parsed, depth: int) -> None:
    """Whatever the desktop opens a file or URL with runs outside the sandbox, with the
    user's rights (a browser, an editor, the handler of a file type)."""
    words = p.argv[1:]
    if p.name == "gio" and words[:1] != ["open"]:
        if words[:1] and words[0] in GIO_READ:
            return
        f.ask(f"gio {words[0][:12] if words else ''}: changes files or settings".strip())
        return
    if p.name == "xdg-mime":
        if words[:1] != ["query"]:
            f.ask("xdg-mime: changes which program opens a type of file", True)
        return
    if any(RUNNABLE.search(w) or w in ("-a", "--args") for w in words):
        f.ask(f"{p.name}: runs a program or script", True)
        return
    f.ask(f"{p.name}: {HANDOFF}", True)


# ffmpeg input formats that read a device: the screen, a camera, a microphone
CAPTURE_FORMATS = {
    "x11grab": "the screen", "kmsgrab": "the screen", "fbdev": "the screen",
    "gdigrab": "the screen", "avfoundation": "the screen, camera or microphone",
    "dshow": "the camera or microphone", "v4l2": "the camera", "video4linux2": "the camera",
    "alsa": "the microphone", "pulse": "the microphone", "jack": "the microphone",
    "oss": "the microphone", "sndio": "the microphone", "openal": "the microphone",
    "pipewire": "the microphone"}


def ffmpeg(f: Findings, p: Parsed, depth: int) -> None:
    """A device input format (``-f DEVICE`` before an ``-i``) captures what it names; the
    same format before an output only plays to it."""
    words = p.argv[1:]
    for k, word in enumerate(words[:-1]):
        if word == "-f" and "-i" in words[k + 2:]:
            device = CAPTURE_FORMATS.get(words[k + 1].lower())
            if device:
                f.ask(f"ffmpeg: captures {device} (-f {words[k + 1][:12]})", True)
    hooks_launch.ffmpeg(f, p, depth)


# GStreamer source elements that read a device
GST_SOURCES = {"ximagesrc": "the screen", "waylandsrc": "the screen", "kmssrc": "the screen",
               "pipewiresrc": "the screen or microphone", "v4l2src": "the camera",
               "libcamerasrc": "the camera", "autovideosrc": "the camera",
               "pulsesrc": "the microphone", "alsasrc": "the microphone",
               "autoaudiosrc": "the microphone", "jackaudiosrc": "the microphone",
               "osssrc": "the microphone", "avfvideosrc": "the camera",
               "dshowvideosrc": "the camera", "gdiscreencapsrc": "the screen"}


def gstreamer(f: Findings, p: Parsed, depth: int) -> None:
    """``gst-launch-1.0 ELEMENT ! …``: a device source captures it; any pipeline may write
    files (``filesink``) or reach the network."""
    for word in p.argv[1:]:
        device = GST_SOURCES.get(word.split()[0].lower()) if word.strip() else None
        if device:
            f.ask(f"{p.name}: captures {device} ({word.split()[0][:16]})", True)
    f.ask(f"{p.name}: runs a media pipeline (it may write files or reach the network)")


def sox(f: Findings, p: Parsed, depth: int) -> None:
    """``sox -d OUT`` records from the default device (the microphone); ``-t alsa`` or
    ``-t pulseaudio`` before the first file does too."""
    words = p.argv[1:]
    files = [w for w in words if not w.startswith("-") or w in ("-d", "-n")]
    device_type = words[:1] == ["-t"] and len(words) > 1 and words[1].lower() in (
        "alsa", "pulseaudio", "coreaudio", "oss", "waveaudio", "sndio", "ao")
    if files[:1] == ["-d"] or (p.name == "sox" and device_type):
        f.ask(f"{p.name}: captures the microphone", True)
    f.ask(f"{p.name}: converts or plays audio (it may write files)")


def pw_cat(f: Findings, p: Parsed, depth: int) -> None:
    if any(w in ("-r", "--record") for w in p.argv[1:]):
        f.ask(f"{p.name}: captures the microphone", True)
    f.ask(f"{p.name}: plays or converts audio")


def cpulimit(f: Findings, p: Parsed, depth: int) -> None:
    """``cpulimit -p PID`` limits another process (the processes.py rule); ``-e NAME``,
    ``-P PATH`` a process found by name; ``cpulimit -l N -- CMD`` runs CMD."""
    words = p.argv[1:]
    for k, word in enumerate(words):
        head, equals, value = word.partition("=")
        if head in ("-p", "--pid"):
            pid = value if equals else (words[k + 1] if k + 1 < len(words) else "")
            processes.act_on(f, "cpulimit", "changes the limits of", [pid] if pid else [])
            return
        if head in ("-e", "--exe", "-P", "--path"):
            f.ask("cpulimit: limits a process found by name (not one this command started)",
                  True)
            return
        if word == "--" or not word.startswith("-"):
            rest = words[k + 1:] if word == "--" else words[k:]
            if k > 0 and words[k - 1] in ("-l", "--limit", "-c", "--cpu"):
                continue
            if rest:
                f.judge(f, rest, list(p.dynamic[len(words) - len(rest) + 1:]), depth)
            return
    f.ask("cpulimit: not told which process")


PID_OPTIONS = ("-p", "--pid", "--process-id", "-pid")


def pid_tool(f: Findings, p: Parsed, depth: int) -> None:
    """``jstack PID``, ``jcmd PID …``, ``dotnet-dump collect -p PID``, ``rbspy record --pid
    PID``: attaching reads the process's memory (the processes.py rule)."""
    words = p.argv[1:]
    targets: list[str] = []
    for k, word in enumerate(words):
        head, equals, value = word.partition("=")
        if head in PID_OPTIONS:
            targets.append(value if equals else (words[k + 1] if k + 1 < len(words) else ""))
    if not targets and p.name.startswith("j"):
        targets = [w for w in words if not w.startswith("-")][:1]
    if targets or p.name.startswith("j"):
        processes.act_on(f, p.name, "attaches to (reads the memory of)",
                         [t for t in targets if t])
    else:
        f.ask(f"{p.name}: runs or attaches to a program")


def cgclassify(f: Findings, p: Parsed, depth: int) -> None:
    """``cgclassify -g CONTROLLERS:PATH PID…``: moves processes into a cgroup."""
    words = p.argv[1:]
    values = {k + 1 for k, w in enumerate(words) if w == "-g"}
    targets = [w for k, w in enumerate(words) if k not in values and not w.startswith("-")]
    processes.act_on(f, "cgclassify", "moves into a control group", targets)


WMCTRL_READS = frozenset({"-l", "-d", "-m", "-p", "-G", "-x", "-lp", "-lG", "-lx", "-lpG",
                          "-h", "--help", "-V"})


def wmctrl(f: Findings, p: Parsed, depth: int) -> None:
    if not set(p.argv[1:]) <= WMCTRL_READS:
        f.ask("wmctrl: controls other programs' windows", True)


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


# trufflehog's sources that are this machine's files; every other one (github, s3, docker,
# postman…) is read from a service with the credentials it is given or finds
LOCAL_SOURCES = frozenset({"filesystem", "git"})


def trufflehog(f: Findings, p: Parsed, depth: int) -> None:
    """A secret scanner that, unless told not to, sends each secret it finds to the service
    it belongs to, to check that it works: what it finds leaves the machine."""
    words = [w for w in p.argv[1:] if not w.startswith("-")]
    source = words[0] if words else ""
    if "--no-verification" not in p.argv:
        f.ask("trufflehog: sends each secret it finds to its service to check it (unless "
              "--no-verification)", True)
    if source not in LOCAL_SOURCES or any("://" in w and not w.startswith("file://")
                                          for w in words[1:]):
        f.ask(f"trufflehog: scans {source[:20] or 'a source'} outside this machine, with the "
              "credentials it finds or is given", True)
        return
    f.ask("trufflehog: prints the secrets it finds")
    for path in words[1:] or ["."]:
        path = path.removeprefix("file://")
        read_path(f, path)
        if not all(in_tree(f, full) for full in resolved(f, path)):
            f.ask(f"trufflehog: collects the secrets of {path[:30]}, outside the working tree",
                  True)
            return


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "trufflehog": trufflehog,
    "ffmpeg_capture": ffmpeg, "npm_pkg_set": npm_pkg_set, "mesg": mesg, "pydoc": pydoc,
    "xattr": xattr, "gstreamer": gstreamer, "sox": sox, "pw_cat": pw_cat,
    "cpulimit": cpulimit, "pid_tool": pid_tool, "cgclassify": cgclassify,
    "wmctrl": wmctrl, "clipboard": clipboard, "opener": opener,
}
