"""Program name → grammar. The tables hold builders; a grammar is built the first time its
program is met, so importing the classifier builds none."""

from __future__ import annotations

from collections.abc import Callable

from swebash.safety.classify.grammar import Spec
from swebash.safety.classify.programs import (
    cloud,
    core,
    db,
    dev,
    files,
    launchers,
    misc,
    more,
    net,
    packages,
    search,
    shell,
    system,
    text,
    vcs,
)

Builder = Callable[[], Spec]
TABLES: tuple[dict[str, Builder], ...] = (core.SPECS, shell.SPECS, text.SPECS, search.SPECS,
                                               files.SPECS, vcs.SPECS, net.SPECS,
                                               packages.SPECS, dev.SPECS, cloud.SPECS,
                                               system.SPECS, db.SPECS, launchers.SPECS,
                                               misc.SPECS, more.SPECS)
BUILDERS: dict[str, Builder] = {name: build for table in TABLES for name, build in table.items()}
_built: dict[int, Spec] = {}


def lookup(name: str) -> Spec | None:
    build = BUILDERS.get(name)
    if build is None:
        return None
    spec = _built.get(id(build))
    if spec is None:
        spec = _built[id(build)] = build()
    return spec


def known(name: str) -> bool:
    return name in BUILDERS
