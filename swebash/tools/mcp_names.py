"""The names MCP tools are offered under: one per tool, and each one a provider accepts.

Problem: OpenAI and Anthropic accept tool names of ``[A-Za-z0-9_-]{1,64}``; MCP servers name
tools freely (``a.b``, ``git status``, ``ä``, 200 characters) and several servers share one
namespace. Replacing what providers refuse with ``_`` and cutting at 64 made ``a.b`` and
``a_b`` — or two long names alike in their first 64 characters — one name, offered twice and
always reaching the same tool.

Approach: each tool's plain name is ``mcp__<server>__<tool>`` with every refused character
made ``_``, cut at 64. Names that stay unique keep it. Within a group of tools sharing a plain
name, the one tool whose plain name is exactly its real name (nothing replaced, nothing cut)
keeps it, and every other member gets ``_`` and the first hex digits of a SHA-256 of its real
(server, tool) pair, cut so the whole stays within 64. The suffix depends only on the pair,
so the same servers with the same tools get the same names after every restart; in the
(never yet seen) case that a suffixed name meets another name, the suffixes grow.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Sequence

NAME_CAP = 64  # OpenAI's and Anthropic's limit for a tool name
REFUSED = re.compile(r"[^A-Za-z0-9_-]")
SUFFIX_DIGITS = (6, 10, 16, 24, 40)

Pair = tuple[str, str]  # (server, tool) as configured and as the server lists it


def safe_name(text: str) -> str:
    """Providers allow ``[A-Za-z0-9_-]``; anything else becomes ``_``."""
    return REFUSED.sub("_", text) or "_"


def plain_name(server: str, tool: str) -> str:
    return f"mcp__{safe_name(server)}__{safe_name(tool)}"[:NAME_CAP]


def is_exact(server: str, tool: str) -> bool:
    """The plain name says exactly this pair: nothing replaced, nothing cut."""
    return plain_name(server, tool) == f"mcp__{server}__{tool}"


def suffixed(pair: Pair, digits: int) -> str:
    digest = hashlib.sha256(f"{pair[0]}\x00{pair[1]}".encode("utf-8", "surrogatepass"))
    tail = "_" + digest.hexdigest()[:digits]
    return plain_name(*pair)[:NAME_CAP - len(tail)] + tail


def model_names(pairs: Sequence[Pair]) -> dict[Pair, str]:
    """An injective map from every (server, tool) pair to a provider-safe name."""
    groups: dict[str, list[Pair]] = defaultdict(list)
    for pair in dict.fromkeys(pairs):
        groups[plain_name(*pair)].append(pair)
    names: dict[Pair, str] = {}
    crowded: list[Pair] = []
    for plain, members in groups.items():
        exact = [p for p in members if is_exact(*p)]
        keeper = members[0] if len(members) == 1 else exact[0] if len(exact) == 1 else None
        if keeper is not None:
            names[keeper] = plain
        crowded.extend(p for p in members if p != keeper)
    taken = set(names.values())
    for digits in SUFFIX_DIGITS:
        trial = {p: suffixed(p, digits) for p in crowded}
        if len(set(trial.values())) == len(trial) and not taken & set(trial.values()):
            names.update(trial)
            return names
    for n, pair in enumerate(sorted(crowded)):  # 160-bit digests met: number them
        tail = f"_{n}"
        names[pair] = suffixed(pair, 40)[:NAME_CAP - len(tail)] + tail
    return names
