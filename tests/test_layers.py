"""The layer rules of README's "Architecture" section, checked on every import in swebash/.

Data flows one way, so imports do too: the shared kernel imports nothing else of swebash; the
engine's parts (providers, tools, safety) know only what is below them; the interactive UI
reaches the AI half only through the runtime the composition root builds (``host``), never
through ``app`` or the engine's concrete classes; ``app`` is imported by entry points alone.
Every ``import`` counts — at module level, inside a function, or under ``TYPE_CHECKING`` — since
each one is a dependency someone has to keep working.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "swebash"

KERNEL = {"api", "errors", "config", "router", "bashparse", "durable", "workspace",
          "lifecycle", "visible", "wording"}
ENTRY = {"cli", "__main__", "batch", "batch_ai", "app", "loginshell"}
PACKAGES = {"interactive", "shell", "ai", "providers", "tools", "safety", "render", "host"}

# what each layer may import (besides itself and the standard library)
ALLOWED: dict[str, set[str]] = {
    "kernel": set(),
    "safety": {"kernel"},
    "providers": {"kernel"},
    "tools": {"kernel", "safety"},
    "ai": {"kernel", "providers", "tools", "safety"},
    "render": {"kernel"},
    "shell": {"kernel"},
    "host": {"kernel", "render", "safety", "ai"},
    "interactive": {"kernel", "shell", "render", "host"},
}
# entry points may import any layer, with two exceptions
ONLY_CLI_STARTS_THE_UI = "interactive"
ONLY_ENTRY_POINTS_COMPOSE = "app"


def layer_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "kernel"  # swebash/__init__.py: the version
    name = parts[1]
    if name in PACKAGES:
        return name
    if name in KERNEL:
        return "kernel"
    if name in ENTRY:
        return "entry"
    raise AssertionError(f"{module} belongs to no layer: add it to README's Architecture "
                         "section and to this test")


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, imported swebash module) for every import in ``path``."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "swebash":
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            if base.split(".")[0] != "swebash":
                continue
            if base == "swebash":  # `from swebash import config`: a name may be a module
                for alias in node.names:
                    module = PACKAGE / alias.name
                    is_module = module.is_dir() or module.with_suffix(".py").exists()
                    yield node.lineno, f"swebash.{alias.name}" if is_module else "swebash"
            else:
                yield node.lineno, base


def violations() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        importer = module_name(path)
        mine = layer_of(importer)
        for line, target in imports(path):
            theirs = layer_of(target)
            where = f"{path.relative_to(PACKAGE.parent)}:{line}"
            name = target.split(".")[1] if "." in target else ""
            if mine == "entry":
                if name == ONLY_CLI_STARTS_THE_UI and importer != "swebash.cli":
                    found.append(f"{where}: only cli.py starts the interactive UI ({target})")
                continue
            if name == ONLY_ENTRY_POINTS_COMPOSE:
                found.append(f"{where}: {importer} imports the composition root ({target})")
            elif theirs != mine and theirs not in ALLOWED[mine]:
                found.append(f"{where}: {mine} may not import {theirs} ({target})")
    return found


def test_every_import_follows_the_layer_rules() -> None:
    assert violations() == []


def test_the_rules_see_a_breach(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself can fail: a UI module that imports the composition root or the engine
    is reported (in a copy of the package)."""
    import shutil

    copy = tmp_path / "swebash"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "interactive" / "breach.py").write_text(
        "from swebash.app import build_runtime\n"
        "def f() -> None:\n    from swebash.ai.agent import Agent\n")
    monkeypatch.setitem(globals(), "PACKAGE", copy)
    found = violations()
    assert any("breach.py:1" in v and "composition root" in v for v in found)
    assert any("breach.py:3" in v and "interactive may not import ai" in v for v in found)


def test_readme_names_every_layer() -> None:
    readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Architecture", 1)[1].split("\n## ", 1)[0]
    for name in sorted(PACKAGES):
        assert f"swebash/{name}/" in section or f"`{name}/`" in section, name
    for name in sorted(KERNEL | ENTRY - {"__main__"}):
        assert f"{name}.py" in section, name
