"""Every file a file tool opens or lists passes the path guard, not just the argument.

The world is a temp HOME full of canary secrets (tests/conftest.py gives every test its own):
~/.ssh, ~/.aws, a shell history, another project's .env, and a project (a git repo with a
nested repo inside) holding a .env, symlinks to secrets, a hard link to a key, and a private key
under an innocent name. The model's search starts at ``~``, as an attacker's would.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

from swebash.config import ToolConfig
from swebash.errors import InvalidArguments, PermissionDenied
from swebash.safety.boundary import FileBoundary
from swebash.tools import search
from swebash.tools.base import ToolContext, ToolExecutor
from swebash.tools.fs import FilesystemTool
from swebash.tools.search import ListFilesTool, SearchTextTool
from swebash.tools.walk import WalkLimits

CANARY = "CANARY-51d2"
KEY_LINE = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2"  # 64 base64
PEM = ("-----BEGIN OPENSSH PRIVATE KEY-----\n" + f"{KEY_LINE}\n" * 6
       + "-----END OPENSSH PRIVATE KEY-----\n")
TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"


def put(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def make_home(home: Path) -> Path:
    """The canary world; returns the project the shell is in."""
    put(home / ".ssh/id_rsa", PEM)
    put(home / ".aws/credentials", f"[default]\naws_secret_access_key = {CANARY}\n")
    put(home / ".aws/config", f"[default]\nregion = {CANARY}\n")
    put(home / ".bash_history", f"export TOKEN={CANARY}\n")
    put(home / "projects/other/.env", f"DB_PASSWORD={CANARY}\n")
    app = home / "projects/app"
    (app / ".git").mkdir(parents=True)
    put(app / "src/main.py", "print('needle')\n")
    put(app / ".env", f"API_KEY={CANARY}\n")
    put(app / "vendor/lib/.git/config", "[core]\n")
    put(app / "vendor/lib/.env.local", f"SECRET={CANARY}\n")
    put(app / "vendor/lib/code.py", "needle = 1\n")
    (app / "notes-link").symlink_to(home / ".ssh/id_rsa")
    (app / "aws-link").symlink_to(home / ".aws")
    # a private key under an innocent name, past the 4 KB the gate's head sniff reads
    put(app / "docs/innocent.txt", "filler line\n" * 500 + PEM + f"{CANARY}\n")
    os.link(home / ".aws/credentials", app / "hard-link.txt")  # no key inside: the link tells
    put(app / "config.md", f"github: {TOKEN}\nneedle here\n")
    return app


@pytest.fixture
def app(hermetic_env: Path) -> Path:
    return make_home(hermetic_env)


def ctx_in(cwd: Path, home: Path | None = None) -> ToolContext:
    files = FileBoundary(str(home)) if home is not None else None
    return ToolContext(cwd=str(cwd), env=dict(os.environ), config=ToolConfig(), files=files)


def call(tool: ToolExecutor, args: dict[str, Any], ctx: ToolContext) -> tuple[dict[str, Any],
                                                                                str]:
    out = asyncio.run(tool.execute(args, ctx))
    result: dict[str, Any] = json.loads(out.content)
    return result, out.summary


def matched_files(result: dict[str, Any]) -> set[str]:
    return {m["file"] for m in result["matches"]}


@pytest.mark.parametrize("shared", [True, False], ids=["session-boundary", "from-context"])
def test_search_from_home_skips_and_names_every_secret(app: Path, hermetic_env: Path,
                                                        shared: bool) -> None:
    ctx = ctx_in(app, hermetic_env if shared else None)
    args = {"pattern": "CANARY-[0-9a-f]{4}|needle", "path": "~"}  # not the canary itself
    result, summary = call(SearchTextTool(), args, ctx)
    text = json.dumps(result)
    assert CANARY not in text and KEY_LINE not in text
    assert matched_files(result) == {"src/main.py", "vendor/lib/code.py", "config.md"}
    skipped = result["skipped"]
    for name in (".ssh", ".aws", ".bash_history", "projects/other/.env", "projects/app/.env",
                 "vendor/lib/.env.local", "notes-link", "aws-link", "docs/innocent.txt",
                 "hard-link.txt"):
        assert name in skipped, (name, skipped)
    assert skipped.startswith("skipped 10 secret")
    assert "skipped 10 secret" in summary


def test_a_per_line_pattern_cannot_reassemble_a_key(app: Path, hermetic_env: Path) -> None:
    ctx = ctx_in(app, hermetic_env)
    for root in ("~", ".", "docs/innocent.txt"):
        result, _ = call(SearchTextTool(), {"pattern": "^[A-Za-z0-9+/=]{60,}$", "path": root},
                         ctx)
        assert result["matches"] == [] and KEY_LINE not in json.dumps(result), root


def test_tokens_are_redacted_before_the_pattern_sees_them(app: Path,
                                                          hermetic_env: Path) -> None:
    ctx = ctx_in(app, hermetic_env)
    probe, _ = call(SearchTextTool(), {"pattern": "ghp_[a-z]"}, ctx)  # no oracle on the value
    assert probe["matches"] == []
    shown, _ = call(SearchTextTool(), {"pattern": "github"}, ctx)
    assert shown["matches"] == [{"file": "config.md", "line": 1,
                                 "text": "github: [REDACTED:github-token]"}]


def test_reading_a_key_under_an_innocent_name_or_through_links_is_refused(
        app: Path, hermetic_env: Path) -> None:
    ctx = ctx_in(app, hermetic_env)
    for path in ("docs/innocent.txt", "notes-link", "hard-link.txt", "aws-link/config"):
        with pytest.raises(PermissionDenied):
            call(FilesystemTool(), {"operation": "read", "path": path}, ctx)
    got, _ = call(FilesystemTool(), {"operation": "read", "path": "src/main.py"}, ctx)
    assert got["content"] == "print('needle')\n"


@pytest.mark.parametrize("tool", [ListFilesTool(), FilesystemTool()], ids=["list_files", "fs"])
def test_listing_skips_and_names_secret_entries(tool: ToolExecutor, app: Path,
                                                hermetic_env: Path) -> None:
    args: dict[str, Any] = {"path": "~"} if isinstance(tool, ListFilesTool) else {
        "operation": "list", "path": "~"}
    result, _ = call(tool, args, ctx_in(app, hermetic_env))
    names = {e["name"] for e in result["entries"]}
    assert {".ssh", ".aws", ".bash_history"}.isdisjoint(names) and "projects" in names
    assert all(n in result["skipped"] for n in (".ssh", ".aws", ".bash_history"))
    inner, _ = call(tool, {**args, "path": "."}, ctx_in(app, hermetic_env))
    inner_names = {e["name"] for e in inner["entries"]}
    assert {".env", "notes-link", "aws-link", "hard-link.txt"}.isdisjoint(inner_names)
    assert {"src", "docs", "config.md"} <= inner_names


@pytest.mark.parametrize("pattern", ["(a+)+$", "(a|aa)*b", "(x+x+)+y", "^(a|a?)+$"])
def test_catastrophic_patterns_return(pattern: str, tmp_path: Path) -> None:
    # Python's backtracking `re` would not return from these within the test timeout.
    (tmp_path / "bait.txt").write_text("a" * 40_000 + "!\n" + "x" * 40_000 + "\n")
    result, _ = call(SearchTextTool(), {"pattern": pattern}, ctx_in(tmp_path))
    assert result["matches"] == []


@pytest.mark.parametrize(("pattern", "says"), [("(?=x)", "look-around"),
                                               ("(a)\\1", "backreference"),
                                               ("(", "missing )"),
                                               ("x" * 5000, "too long")])
def test_unsupported_patterns_are_a_clear_error(pattern: str, says: str,
                                                tmp_path: Path) -> None:
    with pytest.raises(InvalidArguments, match="bad pattern") as caught:
        call(SearchTextTool(), {"pattern": pattern}, ctx_in(tmp_path))
    assert says in str(caught.value)


def test_grep_semantics_line_anchors_and_no_match_across_lines(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("alpha\nbeta gamma\nab\ncd end\n")
    ctx = ctx_in(tmp_path)
    assert [m["line"] for m in call(SearchTextTool(), {"pattern": "^a"}, ctx)[0]["matches"]] \
        == [1, 3]
    assert [m["text"] for m in call(SearchTextTool(), {"pattern": "d$"}, ctx)[0]["matches"]] \
        == ["cd end"]
    assert call(SearchTextTool(), {"pattern": "b[^x]*c"}, ctx)[0]["matches"] == []
    assert call(SearchTextTool(), {"pattern": "a\\nb"}, ctx)[0]["matches"] == []
    assert len(call(SearchTextTool(), {"pattern": ""}, ctx)[0]["matches"]) == 4


@pytest.mark.parametrize(("limits", "says"), [
    (WalkLimits(files=3), "3 files"),
    (WalkLimits(entries=4), "4 directory entries"),
    (WalkLimits(total_bytes=100), "100 bytes"),
    (WalkLimits(seconds=0.0), "0 s"),
])
def test_the_walk_is_bounded_and_says_it_stopped(limits: WalkLimits, says: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(10):
        put(tmp_path / f"d{n % 3}" / f"f{n}.txt", "needle " * 10 + "\n")
    monkeypatch.setattr(search, "WALK_LIMITS", limits)
    result, summary = call(SearchTextTool(), {"pattern": "needle"}, ctx_in(tmp_path))
    assert result["truncated"] is True and len(result["matches"]) < 10
    assert "stopped early" in result["stopped"] and says in result["stopped"]
    assert "stopped early" in summary


def test_an_unreadable_root_or_a_secret_root_is_refused(app: Path, hermetic_env: Path) -> None:
    ctx = ctx_in(app, hermetic_env)
    for root in ("~/.ssh", "aws-link", ".env"):
        with pytest.raises(PermissionDenied):
            call(SearchTextTool(), {"pattern": "x", "path": root}, ctx)
        with pytest.raises(PermissionDenied):
            call(ListFilesTool(), {"path": root}, ctx)


def test_a_key_is_known_by_its_shape_not_by_a_mention(tmp_path: Path) -> None:
    put(tmp_path / "parser.py", 'MARKER = "-----BEGIN RSA PRIVATE KEY-----"  # needle\n')
    put(tmp_path / "gcp.json", json.dumps({"private_key": PEM, "note": "needle"}))
    put(tmp_path / "id.pem.txt", "needle\n" + PEM.replace("\n", "\r\n"))
    result, _ = call(SearchTextTool(), {"pattern": "needle"}, ctx_in(tmp_path))
    assert matched_files(result) == {"parser.py"}
    assert "gcp.json" in result["skipped"] and "id.pem.txt" in result["skipped"]


def test_one_of_a_kind_is_said_in_the_singular(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    put(tmp_path / "a.txt", "needle\n")
    put(tmp_path / "big.txt", "needle " * 40 + "\n")
    put(tmp_path / "id.pem", PEM)
    monkeypatch.setattr(search, "WALK_LIMITS", WalkLimits(file_bytes=100))
    result, _ = call(SearchTextTool(), {"pattern": "needle"}, ctx_in(tmp_path))
    assert result["skipped"] == "skipped 1 secret file: id.pem"
    assert result["not_searched"] == "1 file over 100 bytes"
    listed, _ = call(ListFilesTool(), {}, ctx_in(tmp_path))
    assert listed["skipped"] == "skipped 1 secret entry: id.pem"
