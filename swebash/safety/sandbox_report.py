"""What the sandbox says: the ``ai status`` line, and what it stopped (for the model and the
rerun question). Plain text, one line each.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from swebash.safety import sandbox_landlock, sandbox_seccomp
from swebash.safety.paths import within


def unconfined_line(why: str) -> str:
    if why == "off":
        return ("off (SWEBASH_AI_SANDBOX=off or [sandbox] mode = \"off\"): AI commands run "
                "unconfined (still ended with swebash)")
    return f"unavailable ({why}): AI commands run unconfined"


def status_line(backend: str, root: str, home: str, network: str,
                allowed: Sequence[str]) -> str:
    writes = "private temp dir only" if root == "/" else f"{root} + private temp dir"
    if within(home, root) and root != "/":
        writes += "; $HOME's own level and its dotfiles read-only (~/.cache writable)"
    net = network_words(backend, network, allowed)
    common = ("no terminal, no capabilities, no keyring, no unix sockets"
              if sandbox_seccomp.supported() else "no capabilities (no seccomp filter on "
              "this CPU: terminal ioctls, keyring and unix sockets not refused)")
    if backend == "bwrap":
        if os.path.lexists(os.path.join(root, ".git")):
            writes += " (.git read-only)"
        return f"bubblewrap — writes: {writes}, network: {net}, secrets hidden, {common}"
    abi = sandbox_landlock.abi_version()
    return (f"landlock ABI {abi} — writes: {writes}, network: {net}, home and system "
            f"secrets unreadable, {common}; not protected by Landlock: .git, "
            "startup files, editor and hook configs (.vscode, .husky…), swebash's own "
            "installation and secret-looking files inside the tree")


def network_words(backend: str, network: str, allowed: Sequence[str]) -> str:
    abi = sandbox_landlock.abi_version()
    if network == "on":
        return "on (unrestricted)"
    if network == "off":
        return "off" if backend == "bwrap" or abi >= 4 else \
            f"not restricted (Landlock ABI {abi} < 4)"
    how = ("its only way out" if backend == "bwrap" else "TCP to the proxy's port only"
           if abi >= 4 else f"TCP not restricted: Landlock ABI {abi} < 4")
    return (f"through swebash's proxy ({how}; allowed: {', '.join(allowed) or 'none yet'}; "
            "a new domain asks)")


def denied_line(denied: Sequence[str], refusals: Sequence[str]) -> str | None:
    """One line from the audit's records (``write:…``, ``socket:…``, ``connect:…``) and the
    proxy's refusals."""
    writes = [d[6:] for d in denied if d.startswith("write:")]
    sockets = [d[7:] for d in denied if d.startswith("socket:")]
    connects = [d[8:] for d in denied if d.startswith("connect:")]
    parts = []
    if writes:
        more = f" and {len(writes) - 3} more" if len(writes) > 3 else ""
        parts.append(f"a write outside the working tree or to a protected path "
                     f"({', '.join(writes[:3])}{more})")
    for kind in dict.fromkeys(sockets):
        parts.append(f"a {kind} socket (network access)")
    if connects:
        parts.append(f"network access to {', '.join(connects[:3])} (only swebash's proxy is "
                     "reachable)")
    parts += refusals
    return "; ".join(dict.fromkeys(parts)) or None
