"""The file tools' write policy: the sandbox's writable tree, the protected places inside it,
and a write that lands only where it was judged (a symlink swapped in afterwards is refused).

Payloads are harmless: small text files in the test's temp dirs (HOME is a temp dir too).
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

from swebash.config import ToolConfig
from swebash.errors import PermissionDenied
from swebash.safety.boundary import FileBoundary
from swebash.safety.gate import DefaultGate
from swebash.tools.base import ToolContext
from swebash.tools.edit import EditFileTool, WriteFileTool


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    (work / ".git/hooks").mkdir(parents=True)
    (work / ".git/config").write_text("[core]\n")
    (work / "src").mkdir()
    (work / "src/app.py").write_text("x = 1\n")
    (tmp_path / "outside").mkdir()
    return work


def judge(boundary: FileBoundary, path: str, cwd: Path) -> tuple[str, bool, bool, str]:
    v = boundary.check(path, str(cwd), write=True)
    return v.decision, v.dangerous, v.needs_person, " ".join(v.reasons)


def test_a_plain_write_in_the_tree_asks_like_before(repo: Path, hermetic_env: Path) -> None:
    boundary = FileBoundary(str(hermetic_env))
    for path in ("src/new.py", "src/app.py", "deep/er/file.txt"):
        assert judge(boundary, path, repo / "src")[:3] == ("ask", False, False), path


@pytest.mark.parametrize("path", ["../outside/x.txt", "/tmp/x.txt", "~/notes.txt",
                                  "../work-sibling.txt"])
def test_outside_the_tree_needs_a_person(path: str, repo: Path, hermetic_env: Path) -> None:
    decision, dangerous, person, reason = judge(FileBoundary(str(hermetic_env)), path, repo)
    assert (decision, dangerous, person) == ("ask", True, True)
    assert "outside the working tree" in reason and str(repo) in reason


@pytest.mark.parametrize("path", [".git/hooks/pre-commit", ".git/config", ".git", ".git/HEAD",
                                  "vendor/lib/.git/hooks/post-checkout", ".bashrc",
                                  "sub/.zshrc", ".gitattributes", ".vscode/tasks.json",
                                  ".husky/pre-commit", ".pre-commit-config.yaml",
                                  "src/.pdbrc", ".idea/runConfigurations/x.xml"])
def test_protected_places_in_the_tree_need_a_person(path: str, repo: Path,
                                                    hermetic_env: Path) -> None:
    decision, dangerous, person, _ = judge(FileBoundary(str(hermetic_env)), path, repo / "src")
    assert (decision, dangerous, person) == ("ask", True, True), path


def test_a_symlinked_directory_is_judged_where_it_lands(repo: Path, tmp_path: Path,
                                                        hermetic_env: Path) -> None:
    (repo / "out").symlink_to(tmp_path / "outside")
    (repo / "hooks").symlink_to(repo / ".git/hooks")
    boundary = FileBoundary(str(hermetic_env))
    assert judge(boundary, "out/x.txt", repo)[2] is True
    assert judge(boundary, "hooks/pre-push", repo)[2] is True


@pytest.mark.parametrize("path", [".config/swebash/rules.toml", ".config/swebash/config.toml",
                                  ".config/git/config", ".gitconfig", ".local/bin/ls",
                                  ".profile", ".config/autostart/x.desktop",
                                  ".local/state/swebash/audit.jsonl"])
def test_home_as_the_tree_keeps_its_hidden_places(path: str, hermetic_env: Path) -> None:
    boundary = FileBoundary(str(hermetic_env))
    decision, dangerous, person, _ = judge(boundary, path, hermetic_env)
    assert (decision, dangerous, person) == ("ask", True, True), path
    assert judge(boundary, "notes/today.md", hermetic_env)[:3] == ("ask", False, False)


def test_a_tree_containing_home_keeps_its_hidden_places(tmp_path: Path,
                                                        hermetic_env: Path) -> None:
    (tmp_path / ".git").mkdir()  # the tree is tmp_path, which holds the temp HOME
    boundary = FileBoundary(str(hermetic_env))
    assert judge(boundary, "home/.config/swebash/rules.toml", tmp_path)[2] is True
    assert judge(boundary, "home/.local/bin/git", tmp_path)[2] is True
    assert judge(boundary, "home/plain.txt", tmp_path)[:3] == ("ask", False, False)


def test_extra_protected_places_and_secrets(repo: Path, hermetic_env: Path) -> None:
    boundary = FileBoundary(str(hermetic_env), protected=(str(repo / "state"),))
    assert judge(boundary, "state/audit.jsonl", repo)[2] is True
    assert judge(boundary, ".env", repo)[0] == "deny"
    assert judge(boundary, "~/.ssh/authorized_keys", repo)[0] == "deny"


def test_the_gate_and_the_policy_cli_use_the_boundary(repo: Path, hermetic_env: Path) -> None:
    gate = DefaultGate(home=str(hermetic_env))
    assert gate.check_path("../outside/x", str(repo), write=True).needs_person
    assert not gate.check_path("src/y.py", str(repo), write=True).needs_person
    assert gate.check_path("src/app.py", str(repo), write=False).decision == "allow"
    assert gate.files.home == str(hermetic_env)


def ctx(cwd: Path, boundary: FileBoundary | None = None) -> ToolContext:
    return ToolContext(cwd=str(cwd), env=dict(os.environ), config=ToolConfig(), files=boundary)


def execute(tool: WriteFileTool | EditFileTool, args: dict[str, Any],
            context: ToolContext) -> dict[str, Any]:
    out = asyncio.run(tool.execute(args, context))
    result: dict[str, Any] = json.loads(out.content)
    return result


def test_a_write_tool_called_without_approval_stays_in_the_tree(repo: Path, tmp_path: Path
                                                                ) -> None:
    context = ctx(repo)
    with pytest.raises(PermissionDenied, match="outside the working tree"):
        execute(WriteFileTool(), {"path": "../outside/x.txt", "content": "no"}, context)
    with pytest.raises(PermissionDenied, match="git"):
        execute(EditFileTool(), {"path": ".git/config", "old_text": "[core]",
                                 "new_text": "[core]\n\tfsmonitor = touch pwned"}, context)
    assert not (tmp_path / "outside/x.txt").exists()
    assert (repo / ".git/config").read_text() == "[core]\n"
    execute(WriteFileTool(), {"path": "src/new.py", "content": "ok\n"}, context)
    assert (repo / "src/new.py").read_text() == "ok\n"


def test_a_write_lands_only_where_it_was_judged(repo: Path, tmp_path: Path,
                                                hermetic_env: Path) -> None:
    boundary = FileBoundary(str(hermetic_env))
    (repo / "build").mkdir()
    assert judge(boundary, "build/out.txt", repo)[:3] == ("ask", False, False)
    (repo / "build").rmdir()  # swapped for a symlink after the approval
    (repo / "build").symlink_to(tmp_path / "outside")
    with pytest.raises(PermissionDenied):
        execute(WriteFileTool(), {"path": "build/out.txt", "content": "x"}, ctx(repo, boundary))
    assert not (tmp_path / "outside/out.txt").exists()


def test_an_approved_write_outside_goes_where_it_was_judged(repo: Path, tmp_path: Path,
                                                            hermetic_env: Path) -> None:
    boundary = FileBoundary(str(hermetic_env))
    assert judge(boundary, "../outside/ok.txt", repo)[2] is True  # the person said yes
    execute(WriteFileTool(), {"path": "../outside/ok.txt", "content": "fine\n"},
            ctx(repo, boundary))
    assert (tmp_path / "outside/ok.txt").read_text() == "fine\n"


def test_writing_through_a_symlinked_file_writes_its_target(repo: Path,
                                                            hermetic_env: Path) -> None:
    (repo / "src/alias.py").symlink_to(repo / "src/app.py")
    boundary = FileBoundary(str(hermetic_env))
    assert judge(boundary, "src/alias.py", repo)[:3] == ("ask", False, False)
    execute(WriteFileTool(), {"path": "src/alias.py", "content": "x = 2\n"},
            ctx(repo, boundary))
    assert (repo / "src/alias.py").is_symlink()
    assert (repo / "src/app.py").read_text() == "x = 2\n"
