"""``swebash --install-shell``: put this swebash in /etc/shells, so ``chsh -s`` accepts it.

chsh refuses a shell that /etc/shells does not list, and login, sshd and su start the listed
shell with argv[0] ``-swebash`` to make it a login shell. A Python console script never sees
that ``-`` (the kernel runs the interpreter with the script's path), so the ``swebash`` that
``make install`` builds is a small C launcher (launcher/swebash.c) that passes argv[0] on; the
entry added here is that launcher. Adding is idempotent (a line already there is left alone)
and whole: the new file is written next to the old one and renamed over it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

LAUNCHER_MAGIC = b"\x7fELF"


def launcher_path() -> Path:
    """The installed ``swebash`` next to this interpreter (the venv's bin directory)."""
    beside = Path(sys.executable).parent / "swebash"
    if beside.exists():
        return beside.absolute()
    found = shutil.which("swebash")
    return Path(found).absolute() if found else beside.absolute()


def is_compiled(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(4) == LAUNCHER_MAGIC
    except OSError:
        return False


def add_line(shells: Path, entry: str) -> bool:
    """Add ``entry`` to the shells file unless it is listed; True when the file changed."""
    try:
        text = shells.read_text()
    except FileNotFoundError:
        text = ""
    if entry in (line.strip() for line in text.splitlines()):
        return False
    if text and not text.endswith("\n"):
        text += "\n"
    fd, temp = tempfile.mkstemp(dir=shells.parent, prefix=".shells-")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(text + entry + "\n")
        mode = shells.stat().st_mode & 0o7777 if shells.exists() else 0o644
        os.chmod(temp, mode)
        os.replace(temp, shells)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return True


def install_shell() -> int:
    from swebash.config import resolve_paths

    shells = resolve_paths(os.environ).shells_file
    entry = launcher_path()
    try:
        changed = add_line(shells, str(entry))
    except OSError as exc:
        print(f"swebash: cannot write {shells}: {exc.strerror} — try: sudo {entry} "
              "--install-shell", file=sys.stderr)
        return 1
    print(f"{entry} {'added to' if changed else 'is already in'} {shells}; now: chsh -s {entry}")
    if not is_compiled(entry):
        print(f"swebash: note: {entry} is a script, not the compiled launcher (no C compiler "
              "when it was installed?), so a login started as -swebash is not seen as one; "
              "see README, 'Using swebash as your login shell'", file=sys.stderr)
    return 0
