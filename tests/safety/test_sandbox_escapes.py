"""The side doors an attacker found in the sandbox, each tried again with a canary, per backend.

Payloads are harmless: they touch, cat or connect to canaries in the test's temp dir (HOME is a
temp dir too), start ``sleep``, and talk to a tmux server this test starts on its own socket.
Where a backend cannot close a door, the test asserts that ``ai status`` says so.
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import subprocess
import sys
import tty
from pathlib import Path

import pytest

import swebash
from swebash.safety import sandbox as sandbox_mod
from swebash.safety import sandbox_seccomp
from swebash.safety.sandbox_policy import runtime_places
from tests.safety.sandbox_fixtures import (
    CANARY,
    World,
    available,
    make_sandbox,
    run,
    wait_gone,
)

# ---------------------------------------------------------------------------- 1. .git


def test_git_can_be_neither_replaced_nor_given_hooks(world: World) -> None:
    if available("bwrap") is not None:
        pytest.skip("bubblewrap does not work here")
    git = world.work / ".git"
    before = sorted(p.name for p in git.iterdir())
    inode = git.stat().st_ino
    result = run("mv .git .git-old; mkdir .git-new && mv .git-new .git; rm -rf .git; "
                 "printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> .git/config; "
                 "echo evil > .git/hooks/pre-commit; echo ../src > .git/commondir; "
                 "echo done", world, make_sandbox(world, "bwrap"))
    assert result["stdout"].strip() == "done"
    assert (git / "config").read_text() == "[core]\n"
    assert sorted(p.name for p in git.iterdir()) == before  # nothing removed, nothing added
    assert git.stat().st_ino == inode and not (world.work / ".git-old").exists()


def test_a_missing_hooks_directory_cannot_be_created(world: World, tmp_path: Path) -> None:
    if available("bwrap") is not None:
        pytest.skip("bubblewrap does not work here")
    repo = tmp_path / "bare-repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git/config").write_text("[core]\n")
    result = run("mkdir -p .git/hooks && echo evil > .git/hooks/post-checkout; touch ok",
                 world, make_sandbox(world, "bwrap"), cwd=repo)
    assert not (repo / ".git/hooks").exists()
    assert (repo / "ok").exists() and result["exit_code"] == 0  # the tree itself is writable


def test_what_an_editor_or_hook_manager_runs_stays_read_only(world: World) -> None:
    """`.vscode/tasks.json` runs on folder open, `.pre-commit-config.yaml` at commit: outside
    the sandbox. Neither can be changed, nor `.vscode` replaced; the tree stays writable."""
    if available("bwrap") is not None:
        pytest.skip("bubblewrap does not work here")
    (world.work / ".vscode").mkdir()
    tasks = world.work / ".vscode" / "tasks.json"
    tasks.write_text("{}\n")
    hooks = world.work / ".pre-commit-config.yaml"
    hooks.write_text("repos: []\n")
    result = run("echo evil >> .vscode/tasks.json; echo evil > .vscode/settings.json; "
                 "mv .vscode .vscode-old; echo evil >> .pre-commit-config.yaml; touch ok; "
                 "echo done", world, make_sandbox(world, "bwrap"))
    assert result["stdout"].strip() == "done"
    assert tasks.read_text() == "{}\n" and hooks.read_text() == "repos: []\n"
    assert sorted(p.name for p in (world.work / ".vscode").iterdir()) == ["tasks.json"]
    assert not (world.work / ".vscode-old").exists() and (world.work / "ok").exists()


def test_landlock_says_it_does_not_protect_git(world: World) -> None:
    line = make_sandbox(world, "landlock").describe(str(world.work))
    assert "not protected by Landlock: .git" in line and ".vscode" in line
    assert "swebash's own installation" in line


def test_swebash_own_installation_in_the_tree_stays_read_only(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A project venv with swebash installed in it, or swebash's own checkout: its next start,
    a restarted supervisor, an MCP launcher and every sandbox's bwrap run that code outside
    any sandbox. It cannot be changed from inside; the rest of the tree stays writable."""
    if available("bwrap") is not None:
        pytest.skip("bubblewrap does not work here")
    venv, package = world.work / ".venv", world.work / "swebash"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin/bwrap").write_text("#!/bin/sh\n")
    package.mkdir()
    (package / "__init__.py").write_text("")
    elsewhere = world.outside / "venv"  # an installation in no git repository
    (elsewhere / "bin").mkdir(parents=True)
    monkeypatch.setattr(sandbox_mod, "runtime_places", lambda: (
        str(venv.resolve()), str(package.resolve()), str(elsewhere.resolve())))
    result = run("echo evil > .venv/bin/bwrap; touch .venv/bin/new swebash/new; "
                 "mv .venv .venv-old; mv swebash s2; touch ok; echo done", world,
                 make_sandbox(world, "bwrap"))
    assert result["stdout"].strip() == "done"
    assert (venv / "bin/bwrap").read_text() == "#!/bin/sh\n"
    assert sorted(p.name for p in (venv / "bin").iterdir()) == ["bwrap"]
    assert sorted(p.name for p in package.iterdir()) == ["__init__.py"]
    assert (world.work / "ok").exists() and not (world.work / ".venv-old").exists()
    alone = run("pip-like() { touch swebash/new; }; pip-like", world,
                make_sandbox(world, "bwrap"))
    assert str(package.resolve() / "new") in (alone["blocked"] or "")  # the audit saw it
    # a tree inside the installation (no git root above it): all of it read-only
    inner = run("touch here; echo done", world, make_sandbox(world, "bwrap"),
                cwd=elsewhere / "bin")
    assert inner["stdout"].strip() == "done" and not (elsewhere / "bin/here").exists()


def test_the_running_installation_is_what_is_protected() -> None:
    places = runtime_places()
    assert os.path.realpath(os.path.dirname(swebash.__file__)) in places
    assert os.path.realpath(sys.executable) in places
    if sys.prefix != sys.base_prefix:
        assert os.path.realpath(sys.prefix) in places
    assert "/" not in places


# ---------------------------------------------------------------------------- 2. unix sockets


def tmux_server(sock: Path) -> None:
    subprocess.run(["tmux", "-S", str(sock), "-f", "/dev/null", "new-session", "-d", "-s",
                    "canary", "sleep 600"], check=True, timeout=10,
                   env={**os.environ, "TMUX": ""})


@pytest.mark.parametrize("where", ["bwrap", "landlock", "off"])
def test_tmux_outside_cannot_be_reached(world: World, tmp_path: Path, where: str) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    if available(where) is not None:
        pytest.skip(f"{where} does not work here")
    sock = tmp_path / "tmux.sock"
    tmux_server(sock)
    canary = world.outside / "tmux-ran"
    world.env.update(TMUX=f"{sock},1,0", DBUS_SESSION_BUS_ADDRESS=f"unix:path={sock}",
                     DISPLAY=":0", WAYLAND_DISPLAY="wayland-0", STY="1.pts-0")
    try:
        result = run("echo \"vars:${TMUX-}${STY-}${DBUS_SESSION_BUS_ADDRESS-}${DISPLAY-}"
                     f"${{WAYLAND_DISPLAY-}}.\"; tmux new-window -d 'touch {canary}'; "
                     f"tmux -S {sock} new-window -d 'touch {canary}'; sleep 0.3",
                     world, make_sandbox(world, where))
        if where == "off":  # the control: the same command does reach it unconfined
            assert wait_for(canary.exists)
            return
        assert "vars:." in result["stdout"]
        assert not canary.exists()
    finally:
        subprocess.run(["tmux", "-S", str(sock), "kill-server"], check=False, timeout=10)


def wait_for(condition: object, seconds: float = 5.0) -> bool:
    import time

    assert callable(condition)
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return bool(condition())


# ---------------------------------------------------------------------------- 3. terminal, caps

PROBE = r'''
import ctypes, errno, fcntl, json, os, sys, termios
out = {}
def attempt(name, fn):
    try:
        fn(); out[name] = "ok"
    except OSError as exc:
        out[name] = errno.errorcode.get(exc.errno, str(exc.errno))
attempt("dev_tty", lambda: os.close(os.open("/dev/tty", os.O_RDWR)))
def inject_user_tty():
    fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NOCTTY)  # TIOCSTI needs no write access
    fcntl.ioctl(fd, termios.TIOCSTI, b"x")
attempt("user_tty_tiocsti", inject_user_tty)
def inject_own_pty():
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSTI, b"x")
attempt("own_pty_tiocsti", inject_own_pty)
status = dict(l.split(":\t", 1) for l in open("/proc/self/status").read().splitlines()
              if ":\t" in l)
out.update({k: status[k].strip() for k in ("CapEff", "CapPrm", "CapBnd", "CapAmb",
                                           "NoNewPrivs")})
libc = ctypes.CDLL(None, use_errno=True)
ring = libc.syscall(int(sys.argv[3]), 0, -3, 0)  # keyctl(GET_KEYRING_ID, session)
out["keyctl"] = "ok" if ring >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")
try:
    out["environ"] = open(f"/proc/{sys.argv[2]}/environ", "rb").read().decode(errors="replace")
except OSError as exc:
    out["environ"] = errno.errorcode.get(exc.errno, "?")
print(json.dumps(out))
'''


def test_no_terminal_no_injection_no_capabilities_no_keyring(world: World,
                                                             backend: str) -> None:
    machine = sandbox_seccomp.arch()
    if machine is None:
        pytest.skip("no seccomp filter for this CPU")
    (world.work / "probe.py").write_text(PROBE)
    master, slave = os.openpty()
    tty.setraw(slave)  # an injected byte is readable at once (tests/e2e would see a prompt)
    neighbour = subprocess.Popen(["sleep", "60"], env={"CANARY_ENV": CANARY})
    try:
        result = run(f"python3 probe.py {os.ttyname(slave)} {neighbour.pid} "
                     f"{machine.nr['keyctl']}", world, make_sandbox(world, backend))
        os.set_blocking(slave, False)
        with pytest.raises(BlockingIOError):
            os.read(slave, 16)  # nothing was typed into the terminal
    finally:
        neighbour.kill()
        neighbour.wait()
        os.close(master)
        os.close(slave)
    found = json.loads(result["stdout"])
    assert found["dev_tty"] != "ok"  # no controlling terminal
    assert found["user_tty_tiocsti"] != "ok" and found["own_pty_tiocsti"] != "ok"
    assert {found[k] for k in ("CapEff", "CapPrm", "CapBnd", "CapAmb")} == {"0" * 16}
    assert found["NoNewPrivs"] == "1"
    assert found["keyctl"] in ("EACCES", "EPERM")
    assert CANARY not in found["environ"]


def test_the_probe_does_see_an_injection_when_unconfined(world: World) -> None:
    if os.geteuid() != 0:
        pytest.skip("TIOCSTI on another terminal needs root: the control is meaningless")
    (world.work / "probe.py").write_text(PROBE)
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        run(f"python3 probe.py {os.ttyname(slave)} 1 0", world, make_sandbox(world, "off"))
        assert wait_for(lambda: select.select([slave], [], [], 0)[0] != [])
        assert os.read(slave, 16) == b"x"
    finally:
        os.close(master)
        os.close(slave)


# ---------------------------------------------------------------------------- 4. $HOME as tree


def test_home_as_the_tree_keeps_config_rc_and_bin_read_only(world: World,
                                                            backend: str) -> None:
    home = world.home
    originals = {".bashrc": "# mine\n", ".config/swebash/config.toml": "[ai]\n",
                 ".config/git/config": "[user]\n", ".local/bin/tool": "#!/bin/sh\n"}
    for rel, text in originals.items():
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text(text)
    (home / "notes").mkdir()
    attacks = ["echo evil >> ~/.bashrc", "echo 'mode = \"off\"' > ~/.config/swebash/config.toml",
               "echo '[core]' > ~/.config/git/config", "echo x > ~/.gitconfig",
               "touch ~/.bash_profile", "mkdir -p ~/.config/autostart",
               "mkdir -p ~/.config/systemd/user", "touch ~/.local/bin/ls",
               "echo x > ~/.local/bin/tool", "mkdir ~/bin", "mv ~/.config ~/.config-old",
               "rm -rf ~/.local/bin"]
    result = run("; ".join(attacks) + "; touch notes/ok ~/.cache/ok; echo done", world,
                 make_sandbox(world, backend), cwd=home)
    assert result["stdout"].strip() == "done"
    for rel, text in originals.items():
        assert (home / rel).read_text() == text, rel
    for rel in (".gitconfig", ".bash_profile", ".config/autostart", ".config/systemd",
                ".local/bin/ls", "bin", ".config-old"):
        assert not (home / rel).exists(), rel
    assert (home / "notes/ok").exists() and (home / ".cache/ok").exists()
    assert "dotfiles read-only" in make_sandbox(world, backend).describe(str(home))


def test_a_tree_holding_home_cannot_swap_or_edit_it(world: World, backend: str,
                                                    tmp_path: Path) -> None:
    home = world.home  # tmp_path/home: the tree tmp_path holds it
    (home / ".bashrc").write_text("# mine\n")
    (home / "notes").mkdir()
    result = run("mv home home-old; mkdir -p fake && mv fake home; echo evil >> home/.bashrc; "
                 "touch home/notes/ok; touch top-level; echo done", world,
                 make_sandbox(world, backend), cwd=tmp_path)
    assert result["stdout"].strip() == "done"
    assert (home / ".bashrc").read_text() == "# mine\n" and not (tmp_path / "home-old").exists()
    assert (home / "notes/ok").exists()
    # bubblewrap pins $HOME with a mount point; Landlock keeps the levels above it list-only
    assert (tmp_path / "top-level").exists() == (backend == "bwrap")
    stopped = run("echo evil >> home/.bashrc", world, make_sandbox(world, backend),
                  cwd=tmp_path)
    assert str((home / ".bashrc").resolve()) in (stopped["blocked"] or "")  # the audit's view


# ---------------------------------------------------------------------------- 5. leftovers


@pytest.mark.parametrize("where", ["bwrap", "landlock", "off"])
def test_processes_left_behind_are_reaped_when_the_command_ends(world: World,
                                                                where: str) -> None:
    if available(where) is not None:
        pytest.skip(f"{where} does not work here")
    marker = f"{random.randint(100000, 999999)}"
    result = run(f"(sleep 30{marker} &); setsid sleep 31{marker} & "
                 f"nohup sleep 32{marker} >/dev/null 2>&1 & disown; echo started",
                 world, make_sandbox(world, where))
    assert result["stdout"].strip() == "started"
    assert wait_gone(marker) == []


def test_host_shared_memory_is_not_writable(world: World, backend: str) -> None:
    name = f"swebash-canary-{random.randint(100000, 999999)}"
    try:
        run(f"touch /dev/shm/{name}; echo x > /dev/shm/{name}", world,
            make_sandbox(world, backend))
        assert not os.path.exists(f"/dev/shm/{name}")
    finally:
        if os.path.exists(f"/dev/shm/{name}"):
            os.unlink(f"/dev/shm/{name}")  # our own canary, if the test failed


# ---------------------------------------------------------------------------- 6. blocked?


def test_printing_an_error_does_not_make_a_command_blocked(world: World,
                                                           backend: str) -> None:
    result = run("echo \"touch: cannot touch '/etc/x': Read-only file system\" >&2; "
                 "echo 'curl: (7) Failed to connect: Network is unreachable'; "
                 "echo 'cat: x: Permission denied' >&2; exit 1", world,
                 make_sandbox(world, backend))
    assert result["exit_code"] == 1 and result["blocked"] is None


def test_a_refused_write_is_known_from_the_sandbox(world: World, backend: str) -> None:
    target = os.path.realpath(world.outside) + "/made-quietly"
    result = run(f"touch {target} 2>/dev/null; exit 3", world, make_sandbox(world, backend))
    assert result["exit_code"] == 3 and not os.path.exists(target)
    assert result["blocked"] is not None and target in result["blocked"]
    assert "write outside" in result["blocked"]


def test_the_shared_offline_namespace_carries_nothing_between_commands(world: World) -> None:
    """With bubblewrap and no network, commands enter one loopback-only namespace the
    supervisor made once: what one command leaves listening there ends with it, and the
    next one reaches neither that port nor the host's."""
    if available("bwrap") is not None:
        pytest.skip("bubblewrap does not work here")
    sandbox = make_sandbox(world, "bwrap")
    port = random.randint(20000, 40000)
    listen = (f"python3 -c \"import socket, time; s = socket.socket(); "
              f"s.bind(('127.0.0.1', {port})); s.listen(); time.sleep(30)\"")
    connect = (f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), "
               f"1); print('reached')\"")
    first = run(f"nohup {listen} >/dev/null 2>&1 & sleep 0.5; {connect}", world, sandbox,
                keep=True)
    assert first["stdout"].strip() == "reached"  # the same command reaches its own listener
    assert sandbox.supervisor().offline
    assert "--unshare-net" not in sandbox.confinement(sandbox.policy(str(world.work), {}),
                                                      str(world.work), True, True).bwrap
    second = run(connect, world, sandbox)
    assert "reached" not in second["stdout"]
