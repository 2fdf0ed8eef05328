"""swebash as a login shell and as `$SHELL` for editors: the compiled launcher keeps argv[0]
(`-swebash` from login/sshd), the startup files are read in bash's order and only once, the
invocation options mean what they mean to bash (`$SHELL -ilc env`), and `--install-shell`
adds the launcher to a shells file (a temp copy, never the real /etc/shells)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.e2e.conftest import SWEBASH, Term

BASH = shutil.which("bash") or "/bin/bash"
SKEL = Path("/etc/skel")
# without a C compiler make leaves pip's script, which cannot see argv[0] (README says so)
needs_launcher = pytest.mark.skipif(shutil.which(os.environ.get("CC", "cc")) is None,
                                    reason="no C compiler, so no launcher")


class LoginTerm(Term):
    """The launcher started the way login and sshd start a login shell: argv[0] `-swebash`."""

    def __init__(self, env: dict[str, str], rows: int = 30, cols: int = 110) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        self.child = pexpect.spawn(BASH, ["-c", 'exec -a -swebash "$0"', SWEBASH], env=env,
                                   dimensions=(rows, cols), cwd=env["HOME"])


def plain_env(home: Path, etc: Path, **extra: str) -> dict[str, str]:
    """What login or an editor gives a shell: a small environment, nothing of the test run."""
    return {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "TERM": "xterm-256color",
            "LANG": "C.UTF-8", "USER": "tester", "SWEBASH_SYSTEM_DIR": str(etc), **extra}


def run(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[str, str, int]:
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    return done.stdout, done.stderr, done.returncode


@needs_launcher
def test_the_launcher_keeps_argv0(hermetic_env: Path) -> None:
    with open(SWEBASH, "rb") as handle:
        assert handle.read(4) == b"\x7fELF"  # make built the launcher, not pip's script
    env = plain_env(hermetic_env, hermetic_env)
    for argv0, expected in (("-swebash", 0), ("swebash", 1)):
        _, _, status = run([BASH, "-c", f'exec -a {argv0} "$0" -c "shopt -q login_shell"',
                            SWEBASH], env, hermetic_env)
        assert status == expected, argv0


def test_ilc_env_gives_the_same_variables_as_bash(hermetic_env: Path, tmp_path: Path) -> None:
    for name in (".bashrc", ".profile"):
        shutil.copy(SKEL / name, hermetic_env / name)
    (hermetic_env / ".bashrc").write_text((hermetic_env / ".bashrc").read_text()
                                          + "export FROM_BASHRC=1\n")
    seen = {}
    for shell in (SWEBASH, BASH):
        env = plain_env(hermetic_env, tmp_path / "etc", SHELL=shell)
        out, _, status = run([shell, "-ilc", "env"], env, hermetic_env)
        assert status == 0
        seen[shell] = {line.split("=", 1)[0]: line.split("=", 1)[1]
                       for line in out.splitlines() if "=" in line}
    ours, theirs = seen[SWEBASH], seen[BASH]
    assert sorted(ours) == sorted(theirs)
    assert ours["FROM_BASHRC"] == "1" and ours["PATH"] == theirs["PATH"]


@pytest.mark.parametrize("options", [
    ["-lc"], ["-lic"], ["-ic"], ["-c", "-x"], ["-ec"], ["-eo", "pipefail", "-c"],
    ["-O", "extglob", "-c"], ["--norc", "--noprofile", "-ic"], ["--posix", "-c"],
    ["--rcfile", "RC", "-ic"], ["--login", "-c"],
])
def test_invocation_options_mean_what_they_mean_to_bash(options: list[str], hermetic_env: Path,
                                                        tmp_path: Path) -> None:
    (hermetic_env / ".bashrc").write_text("echo from-bashrc; BASHRC=1\n")
    (hermetic_env / ".profile").write_text("echo from-profile; PROFILE=1\n")
    (tmp_path / "RC").write_text("echo from-rcfile\n")
    options = [str(tmp_path / "RC") if word == "RC" else word for word in options]
    script = ('echo "[$BASHRC/$PROFILE/$-]"; shopt -q extglob && echo extglob; '
              '{ false | true; } 2>/dev/null; echo "pipe=$?"; shopt -qo posix && echo posix; '
              'shopt -q login_shell && echo login; false; echo after')
    env = plain_env(hermetic_env, tmp_path / "etc")
    ours = run([SWEBASH, *options, script, "zero"], env, hermetic_env)
    theirs = run([BASH, *options, script, "zero"], env, hermetic_env)
    assert ours == theirs


@needs_launcher
def test_login_reads_etc_profile_then_bash_profile_and_bashrc_once(hermetic_env: Path,
                                                                     tmp_path: Path) -> None:
    etc = tmp_path / "etc"
    etc.mkdir(exist_ok=True)
    (etc / "profile").write_text('ORDER="${ORDER}etc-profile "\n')
    (etc / "bash.bashrc").write_text('ORDER="${ORDER}etc-bashrc "\n')  # not for login shells
    (hermetic_env / ".bash_profile").write_text(
        'ORDER="${ORDER}bash_profile "\n[ -f ~/.bashrc ] && . ~/.bashrc\n')
    (hermetic_env / ".profile").write_text('ORDER="${ORDER}profile "\n')  # not read: .bash_profile
    (hermetic_env / ".bashrc").write_text(
        'case $- in *i*) ;; *) return;; esac\nORDER="${ORDER}bashrc "\nPS1="login-ps1 \\$ "\n')
    (hermetic_env / ".swebashrc").write_text('ORDER="${ORDER}swebashrc "\n')
    term = LoginTerm(plain_env(hermetic_env, etc))
    try:
        term.run('echo "order: $ORDER"; shopt -q login_shell && echo "login zero=$0"')
        text = term.text()
        assert "order: etc-profile bash_profile bashrc swebashrc" in text
        assert "login zero=-bash" in text
        assert text.startswith("login-ps1 ")  # the user's prompt from the first one on
    finally:
        term.close()


def test_interactive_reads_system_bashrc_bashrc_then_swebashrc(spawn: object,
                                                                hermetic_env: Path) -> None:
    etc = Path(os.environ["SWEBASH_SYSTEM_DIR"])
    (etc / "bash.bashrc").write_text(
        '[ -z "$PS1" ] && return\nORDER="${ORDER}etc-bashrc "\n')  # Debian's own guard
    (etc / "profile").write_text('ORDER="${ORDER}etc-profile "\n')  # login only
    (hermetic_env / ".bashrc").write_text('ORDER="${ORDER}bashrc "\n')
    (hermetic_env / ".swebashrc").write_text('ORDER="${ORDER}swebashrc "\n')
    assert callable(spawn)
    term = spawn()
    term.run('echo "order: $ORDER"')
    assert "order: etc-bashrc bashrc swebashrc" in term.text()
    bare = spawn(["--norc"])
    bare.run('echo "order: [$ORDER]"')
    assert "order: []" in bare.text()


def test_install_shell_adds_the_launcher_once(hermetic_env: Path, tmp_path: Path) -> None:
    etc = tmp_path / "etc"
    etc.mkdir(exist_ok=True)
    shells = etc / "shells"
    shells.write_text("# /etc/shells: valid login shells\n/bin/sh\n/bin/bash")  # no final \n
    shells.chmod(0o644)
    env = plain_env(hermetic_env, etc)
    out, err, status = run([SWEBASH, "--install-shell"], env, hermetic_env)
    assert status == 0 and err == "" and f"chsh -s {SWEBASH}" in out
    assert shells.read_text() == ("# /etc/shells: valid login shells\n/bin/sh\n/bin/bash\n"
                                  f"{SWEBASH}\n")
    out, _, status = run([SWEBASH, "--install-shell"], env, hermetic_env)
    assert status == 0 and "already in" in out
    assert shells.read_text().count(SWEBASH) == 1 and shells.stat().st_mode & 0o777 == 0o644
    missing = plain_env(hermetic_env, tmp_path / "no-such-dir")  # cannot be written: one line
    out, err, status = run([SWEBASH, "--install-shell"], missing, hermetic_env)
    assert status == 1 and out == "" and err.count("\n") == 1 and "cannot write" in err


def test_interactive_options_apply_before_the_startup_files(spawn: object,
                                                            hermetic_env: Path) -> None:
    (hermetic_env / ".bashrc").write_text("echo not read in posix mode\n")
    (hermetic_env / "env.sh").write_text('echo "rc sees: $-"\nFROM_RC=1\n')
    assert callable(spawn)  # posix mode: $ENV instead of ~/.bashrc, as bash reads it
    term = spawn(["--posix", "-x", "-O", "extglob", "-o", "pipefail"],
                 env={"ENV": str(hermetic_env / "env.sh")})
    term.run("shopt -qo posix && shopt -q extglob && shopt -qo pipefail && echo all-set")
    text = term.text()
    # bash -x traces the rc file's commands (and nothing of swebash's around them)
    assert "rc sees: " in text and "x" in text.split("rc sees: ")[1].split()[0]
    assert "FROM_RC=1" in text and "all-set" in text
    assert "__sb" not in text and "special builtin" not in text and "not read" not in text
