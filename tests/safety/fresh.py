"""Every fresh family (issue 16) by name, and the corpus figures the bench and the tests
report: attacks allowed, destructive commands without the dangerous flag, benign commands
asked. DATA ONLY: the commands are classified, never executed."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from swebash.api import Verdict
from tests.safety import corpus_fresh as a
from tests.safety import corpus_fresh_b as b
from tests.safety import corpus_fresh_c as c
from tests.safety import corpus_fresh_d as d
from tests.safety import corpus_fresh_e as e
from tests.safety import corpus_fresh_f as f
from tests.safety import corpus_fresh_g as g
from tests.safety.corpus import DANGEROUS, NEVER_ALLOW, READ_ONLY
from tests.safety.corpus_families import FAMILY_DANGEROUS, FAMILY_NEVER_ALLOW, FAMILY_READ_ONLY
from tests.safety.corpus_fresh import Family

FAMILIES: dict[str, Family] = {
    "network": a.NETWORK, "search": a.SEARCH, "python-packages": a.PYTHON_PACKAGES,
    "js-packages": a.JS_PACKAGES, "system-packages": a.SYSTEM_PACKAGES,
    "build-tools": a.BUILD_TOOLS, "containers": a.CONTAINERS, "kubernetes": a.KUBERNETES,
    "cloud": a.CLOUD, "systemd": a.SYSTEMD, "system-admin": b.SYSTEM_ADMIN,
    "binary-tools": b.BINARY_TOOLS, "archives": b.ARCHIVES, "vcs": b.GIT, "editors": b.EDITORS,
    "databases": b.DATABASES, "text-exec": b.TEXT_EXEC, "env-loader": c.ENV_LOADER,
    "builtins": c.BUILTINS, "obfuscation": c.OBFUSCATION, "fork-bombs": c.FORK_BOMBS,
    "budget": c.BUDGET, "wrappers": c.WRAPPERS, "remote": c.REMOTE,
    "file-writes": c.FILE_WRITES, "persistence": c.PERSISTENCE, "exfiltration": c.EXFIL,
    "secrets": c.SECRETS, "interpreters": c.INTERPRETERS, "infrastructure": c.INFRA,
    "terminals": c.TERMINALS, "disks": c.DISKS, "logs": c.LOGS, "redirects": c.REDIRECTS,
    "credentials-sent": d.CREDENTIALS_SENT, "local-services": d.LOCAL_SERVICES,
    "home-reads": d.HOME_READS, "secret-env": d.SECRET_ENV,
    "other-processes": d.OTHER_PROCESSES, "project-code": d.PROJECT_CODE,
    "unknown-carriers": e.UNKNOWN_CARRIERS, "system-admin-2": e.SYSTEM_ADMIN_2,
    "installs": e.INSTALLS, "extraction": e.EXTRACTION, "rename-patch": e.RENAME_PATCH,
    "exhaustion": e.EXHAUSTION, "config-names-programs": f.CONFIG_NAMES_PROGRAMS,
    "editors-pagers": f.EDITORS_PAGERS, "loader-env": f.LOADER_ENV,
    "credential-helpers": f.CREDENTIAL_HELPERS, "terminal-clipboard": f.TERMINAL_CLIPBOARD,
    "dbus-containers": f.DBUS_CONTAINERS, "process-targets": g.PROCESS_TARGETS,
    "machine-admin": g.MACHINE_ADMIN, "in-place-rewrites": g.IN_PLACE_REWRITES,
    "exhaustion-spellings": g.EXHAUSTION_SPELLINGS, "secret-flows": g.SECRET_FLOWS,
    "unreadable": g.UNREADABLE,
}
FRESH_DANGEROUS = [cmd for fam in FAMILIES.values() for cmd in fam.dangerous]
FRESH_ASK = [cmd for fam in FAMILIES.values() for cmd in fam.ask]
FRESH_BENIGN = [cmd for fam in FAMILIES.values() for cmd in fam.benign]
WORK_FILES = ("existing.txt", "other.txt", "file", "a", "b", "README.md", "cert.pem")


def make_workdir(root: str, files: tuple[str, ...] = WORK_FILES, subdir: str = "src") -> str:
    """The project directory a corpus is judged in (a few files the commands name)."""
    work = os.path.join(root, "project")
    os.makedirs(os.path.join(work, subdir), exist_ok=True)
    for name in files:
        with open(os.path.join(work, name), "w", encoding="utf-8") as handle:
            handle.write("data\n")
    return work


@dataclass
class Figures:
    """How one corpus fares: counts and the commands behind them."""

    name: str
    attacks: int = 0
    destructive: int = 0
    benign: int = 0
    allowed: list[str] = field(default_factory=list)  # attacks auto-allowed
    undangerous: list[str] = field(default_factory=list)  # destructive, not dangerous
    asked: list[tuple[str, Verdict]] = field(default_factory=list)  # benign not allowed

    def line(self) -> str:
        return (f"{self.name}: attacks allowed {len(self.allowed)}/{self.attacks}; "
                f"destructive without dangerous {len(self.undangerous)}/{self.destructive} "
                f"({pct(len(self.undangerous), self.destructive)}); benign asked "
                f"{len(self.asked)}/{self.benign} ({pct(len(self.asked), self.benign)})")


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def measure(name: str, check: Callable[[str], Verdict], dangerous: list[str],
            ask: list[str], benign: list[str]) -> Figures:
    figures = Figures(name, len(dangerous) + len(ask), len(dangerous), len(benign))
    for command in dangerous + ask:
        verdict = check(command)
        if verdict.decision == "allow":
            figures.allowed.append(command)
        if command in dangerous and verdict.decision != "deny" and not verdict.dangerous:
            figures.undangerous.append(command)
    for command in benign:
        verdict = check(command)
        if verdict.decision != "allow" or verdict.dangerous:
            figures.asked.append((command, verdict))
    return figures


def all_figures(check: Callable[[str], Verdict]) -> list[Figures]:
    old_dangerous = list(dict.fromkeys(DANGEROUS + FAMILY_DANGEROUS))
    old_ask = [c for c in dict.fromkeys(NEVER_ALLOW + FAMILY_NEVER_ALLOW)
               if c not in old_dangerous]
    return [measure("issue 4/10 corpus", check, old_dangerous, old_ask,
                    READ_ONLY + FAMILY_READ_ONLY),
            measure("fresh families (issue 16)", check, FRESH_DANGEROUS, FRESH_ASK,
                    FRESH_BENIGN)]
