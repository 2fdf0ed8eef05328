"""The positive model's mechanisms, one by one: what is not modelled asks; what cannot be
read keeps (or sets) the dangerous flag; globs are bounded; loop variables and pipelines
carry what is known about their values; wildcard injection; the SQL reader. (Commands are
only classified, never run.)"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from swebash.api import Verdict
from swebash.safety.classify import hosts, model, sql
from swebash.safety.gate import DefaultGate


@pytest.fixture
def work(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("print(1)\n")
    (project / "README.md").write_text("hi\n")
    return project


def verdict(command: str, work: Path, home: Path) -> Verdict:
    return DefaultGate(home=str(home)).check_command(command, str(work))


@pytest.mark.parametrize("command", [
    "frobnicate --help-me", "ls --frobnicate", "kubectl frobnicate pods", "git frobnicate",
    "sort --bogus file", "cat -Z file", "docker ps --no-such-flag"])
def test_what_is_not_modelled_asks(command: str, work: Path, hermetic_env: Path) -> None:
    result = verdict(command, work, hermetic_env)
    assert result.decision == "ask", result
    assert any("not" in reason for reason in result.reasons), result


def test_an_unknown_verb_of_live_infrastructure_is_dangerous(work: Path,
                                                            hermetic_env: Path) -> None:
    for command in ("kubectl frobnicate pods", "terraform frobnicate"):
        found = verdict(command, work, hermetic_env)
        assert found.dangerous and not found.unknown, command  # known: live infrastructure
    found = verdict("frobnicate", work, hermetic_env)
    assert found.dangerous and found.unknown  # only unknown


def test_a_global_option_value_is_not_the_verb(work: Path, hermetic_env: Path) -> None:
    result = verdict("systemctl -p status stop nginx", work, hermetic_env)
    assert result.decision == "ask" and result.dangerous
    assert "stop" in result.reasons[0]
    assert verdict("systemctl -p ActiveState show nginx", work, hermetic_env).decision == \
        "allow"


def test_abbreviated_and_clustered_options_are_found(work: Path, hermetic_env: Path) -> None:
    assert verdict("sort --comp=sh f", work, hermetic_env).dangerous
    assert verdict("sort -rno out.txt f", work, hermetic_env).decision == "ask"
    assert verdict("rg --pre=./x foo", work, hermetic_env).dangerous


def test_running_out_of_time_keeps_dangerous(work: Path, hermetic_env: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model, "BUDGET_SECONDS", -1.0)
    result = verdict("ls; rm -rf x", work, hermetic_env)
    assert result.decision == "ask" and result.dangerous
    assert "too complex" in " ".join(result.reasons)


@pytest.mark.parametrize("command", ["ls \u200b; rm -rf x", "ls\u00a0-la", "echo \u202eabc",
                                     "ls\r\nrm x", "cat <<'E'OF\nx\nEOF", "ls 'unterminated",
                                     "x" * 70_000, "(" * 200 + "ls" + ")" * 200])
def test_what_cannot_be_read_is_dangerous(command: str, work: Path,
                                          hermetic_env: Path) -> None:
    result = verdict(command, work, hermetic_env)
    assert result.decision != "allow" and result.dangerous, result


def test_globs_are_expanded_within_bounds(work: Path, hermetic_env: Path) -> None:
    for n in range(450):
        (work / f"d{n}").mkdir()
    started = time.monotonic()
    result = verdict("cat */x/*/y", work, hermetic_env)
    assert time.monotonic() - started < 5  # generous: the point is that it ends
    assert result.decision == "ask" and "too large" in " ".join(result.reasons)
    assert verdict("cat src/*.py", work, hermetic_env).decision == "allow"
    (work / "src" / ".env").write_text("KEY=1\n")
    assert verdict("cat src/.*", work, hermetic_env).decision == "deny"


def test_fork_bombs_by_any_name_and_mutual_recursion(work: Path, hermetic_env: Path) -> None:
    for command in ("f(){ f|f& };f", "a(){ b& }; b(){ a& }; a", "g(){ $FUNCNAME & }; g",
                    ".(){ .|.& };."):
        assert verdict(command, work, hermetic_env).dangerous, command
    assert verdict("f(){ ls; }; g(){ f; }; g", work, hermetic_env).decision == "allow"


def test_xargs_knows_what_find_feeds_it(work: Path, hermetic_env: Path) -> None:
    assert verdict("find . -name '*.py' | xargs grep -l print", work,
                   hermetic_env).decision == "allow"
    assert verdict("find . -type f | xargs grep -l print", work, hermetic_env).decision == "ask"
    result = verdict("find ~/.ssh -type f | xargs cat", work, hermetic_env)
    assert result.dangerous


def test_loop_variables_over_globs_are_known(work: Path, hermetic_env: Path) -> None:
    assert verdict('for f in src/*.py; do grep -c print "$f"; done', work,
                   hermetic_env).decision == "allow"
    (work / "src" / "key.pem").write_text("-----BEGIN RSA PRIVATE KEY-----\n")
    assert verdict('for f in src/*; do cat "$f"; done', work, hermetic_env).decision == "deny"
    assert verdict('while read f; do cat "$f"; done < list', work,
                   hermetic_env).decision == "ask"


def test_wildcard_injection(work: Path, hermetic_env: Path) -> None:
    (work / "--checkpoint-action=exec=sh x").write_text("")
    result = verdict("cat *", work, hermetic_env)
    assert result.dangerous and "option" in result.reasons[0]
    assert verdict("cat '*'", work, hermetic_env).decision == "allow"


def test_secrets_through_run_time_paths(work: Path, hermetic_env: Path) -> None:
    assert verdict("strings /proc/$$/environ", work, hermetic_env).dangerous
    assert verdict('cat "$HOME/.ssh/id_rsa"', work, hermetic_env).dangerous


@pytest.mark.parametrize("host", ["169.254.169.254", "0xa9fea9fe", "2852039166",
                                  "0251.0376.0251.0376", "fd00:ec2::254",
                                  "::ffff:169.254.169.254", "metadata.google.internal",
                                  "169.254.169.254.nip.io", "100.100.100.200"])
def test_metadata_addresses_in_every_spelling(host: str) -> None:
    assert hosts.judge(host) == hosts.METADATA


@pytest.mark.parametrize("host", [
    "127.0.0.1", "127.1", "0", "0.0.0.0", "2130706433", "0x7f000001", "0177.0.0.1",
    "0x7f.1", "127.000.000.001", "[::1]", "::ffff:127.0.0.1", "[::ffff:7f00:1]",
    "[64:ff9b::7f00:1]", "[::]", "2002:7f00:1::", "LOCALHOST", "localhost.", "api.localhost",
    "localhost.localdomain", "10.0.0.1", "10.1", "167772165", "172.17.0.1", "192.168.1.1",
    "100.64.0.1", "fd12:3456::1", "fe80::1%25eth0", "127.0.0.1.nip.io", "127-0-0-1.sslip.io",
    "7f000001.nip.io", "app.10.0.0.5.nip.io", "localtest.me", "foo.lvh.me", "vault",
    "kubernetes.default.svc", "printer.local", "db.internal", "nas.home.arpa",
    "\uff11\uff12\uff17.\uff10.\uff10.\uff11", "%6c%6f%63%61%6c%68%6f%73%74"])
def test_local_and_private_places_in_every_spelling(host: str) -> None:
    assert hosts.judge(host) == hosts.LOCAL, host


@pytest.mark.parametrize("host", ["{127.0.0.1,example.com}", "127.0.0.[1-2]",
                                  "example.com\\", "ex%zzample.com"])
def test_hosts_a_client_reads_differently_are_odd(host: str) -> None:
    assert hosts.judge(host) == hosts.ODD, host


@pytest.mark.parametrize("host", ["example.com", "api.github.com", "1.1.1.1", "8.8.8.8",
                                  "127.example.com", "localhost.example.com",
                                  "2606:4700::1111", "evil.example"])
def test_public_hosts_are_public(host: str) -> None:
    assert hosts.judge(host) is None


@pytest.mark.parametrize(("query", "expected"), [
    ("select count(*) from users", None),
    ("SHOW TABLES; select 1", None),
    ("\\dt", None),
    (".schema users", None),
    ("EXPLAIN select 1", None),
    ("EXPLAIN ANALYZE DELETE FROM x", True),
    ("WITH d AS (DELETE FROM t RETURNING *) SELECT 1", True),
    ("select * from t into outfile '/tmp/x'", True),
    ("select pg_read_file('/etc/passwd')", True),
    ("insert into t values (1)", False),
    ("PRAGMA writable_schema = 1", False),
    ("\\! id", True),
    (".shell id", True),
])
def test_the_sql_reader(query: str, expected: bool | None) -> None:
    found = sql.problem(query)
    assert (found is None) if expected is None else (found is not None and
                                                     found[1] == expected), found


def test_a_broken_grammar_fails_closed(work: Path, hermetic_env: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from swebash.safety.classify import registry

    def broken() -> object:
        raise ValueError("typo in a spec")
    monkeypatch.setitem(registry.BUILDERS, "cat", broken)
    monkeypatch.setattr(registry, "_built", {})
    result = verdict("cat README.md", work, hermetic_env)
    assert result.decision == "ask" and result.dangerous


def test_home_is_the_working_tree(hermetic_env: Path) -> None:
    """A terminal's default directory: reading the project is reading the home."""
    assert verdict("grep -r token .", hermetic_env, hermetic_env).decision == "deny"
    assert verdict("ls -la", hermetic_env, hermetic_env).decision == "allow"
    assert os.path.isdir(hermetic_env)


def test_policy_check_explains_how_a_command_was_read(
        work: Path, hermetic_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from swebash.safety.policy_cli import main

    assert main(["check", "--explain", "--cwd", str(work), "--",
                 "systemctl -p status stop nginx | frob x"]) == 0
    out = capsys.readouterr().out
    assert "decision: ask (dangerous)" in out
    assert "[verbs: stop]" in out and "option -p status" in out
    assert "no grammar for frob (asks)" in out


@pytest.mark.parametrize(("command", "dangerous"), [
    ("touch $'index\\u200D.php'", True),     # a zero-width joiner: two names look the same
    ("mv a $'b\\u202e'", True),              # a direction override
    ("cp a $'x\\x7f'", True),
    ("echo $'a\\tb\\nc'", False),            # tab and newline show as what they are
    ("printf $'\\e[31mred\\e[0m\\n'", False),  # colours: terminal.py's judgement
    ("ls $'caf\\u00e9'", False)])
def test_an_escaped_word_with_hidden_characters_is_dangerous(
        command: str, dangerous: bool, work: Path, hermetic_env: Path) -> None:
    found = verdict(command, work, hermetic_env)
    assert found.dangerous == dangerous, (command, found.reasons)
    assert any("invisible" in r for r in found.reasons) == dangerous


@pytest.mark.parametrize(("command", "dangerous"), [
    ("echo '{}' > .vscode/tasks.json", True),     # runs when the folder is opened
    ("cp hooks.yaml .pre-commit-config.yaml", True),  # runs at the next commit
    ("printf 'x' >> .husky/pre-commit", True),
    ("echo import os > src/.pdbrc", True),          # pdb reads it in this directory
    ("echo x > src/vscode.txt", False),             # only the names that run on their own
    ("echo x > docs/idea.md", False)])
def test_writing_what_an_editor_or_tool_runs_on_its_own_is_dangerous(
        command: str, dangerous: bool, work: Path, hermetic_env: Path) -> None:
    found = verdict(command, work, hermetic_env)
    assert found.decision == "ask" and found.dangerous == dangerous, (command, found.reasons)


@pytest.mark.parametrize(("command", "dangerous"), [
    ("touch -d 1970-01-01 README.md", True), ("touch -t 202210312359 README.md", True),
    ("touch -r src/app.py README.md", True), ("touch --date=@0 README.md", True),
    ("touch -am README.md", False), ("touch new.txt", False),
    # a new working tree is a place written: outside the project, like any write there
    ("git worktree add ../x", True), ("git worktree move wt ../y", True),
    ("git worktree add -b feat wt/feat", False), ("git worktree add --detach wt HEAD~1", False)])
def test_chosen_file_times_and_worktrees_outside_are_dangerous(
        command: str, dangerous: bool, work: Path, hermetic_env: Path) -> None:
    found = verdict(command, work, hermetic_env)
    assert found.decision == "ask" and found.dangerous == dangerous, (command, found.reasons)


def test_giving_files_away_or_freezing_them_is_dangerous(work: Path, hermetic_env: Path) -> None:
    import grp
    import os
    import pwd

    me = pwd.getpwuid(os.getuid()).pw_name
    mine = grp.getgrgid(pwd.getpwuid(os.getuid()).pw_gid).gr_name
    other = next(p.pw_name for p in pwd.getpwall() if p.pw_uid != os.getuid())
    for command in (f"chown {me} README.md", f"chown {me}:{mine} README.md",
                    f"chgrp {mine} README.md", "chattr -i README.md"):
        found = verdict(command, work, hermetic_env)
        assert found.decision == "ask" and not found.dangerous, (command, found.reasons)
    for command in (f"chown {other} README.md", f"chown {me}.{other}x README.md",
                    "chown $OWNER README.md", "chattr +i README.md", "chattr =a README.md"):
        found = verdict(command, work, hermetic_env)
        assert found.dangerous, (command, found.reasons)


@pytest.mark.parametrize(("command", "unknown"), [
    ("bash /tmp/x.sh", True), ("python3 /tmp/x.py", True), ("source /tmp/x.sh", True),
    ("make -f /tmp/x.mk", True), ("make -f/tmp/x.mk all", True), ("make -C /tmp/x", True),
    ("cmake -P /tmp/x.cmake", True), ("cd /tmp && bash x.sh", True),
    ("bash src/run.sh", False), ("python3 src/app.py", False), ("make -C src test", False),
    ("source src/env.sh", False), ("sh /usr/share/doc/x.sh", False)])
def test_code_from_outside_the_tree_is_unknown(command: str, unknown: bool, work: Path,
                                               hermetic_env: Path) -> None:
    """The project's own code and installed code are judged by their rules (a plain ask);
    a script from anywhere else is something nothing here vouches for."""
    found = verdict(command, work, hermetic_env)
    assert found.decision == "ask" and found.dangerous == unknown, (command, found.reasons)
    assert found.unknown == unknown


@pytest.mark.parametrize(("command", "asks"), [
    ("ls ~/.ssh", True), ("ls -la ~/.config", True), ("stat ~/.bashrc", True),
    ("ls -la ~/.aws", True), ("ls ~", False), ("ls -la", False), ("ls src", False),
    ("stat README.md", False)])
def test_listing_a_secret_or_hidden_place_of_the_home_asks(command: str, asks: bool,
                                                           work: Path,
                                                           hermetic_env: Path) -> None:
    """Names only, never content: it asks (which keys, accounts and tools you have), and is
    not dangerous."""
    found = verdict(command, work, hermetic_env)
    assert (found.decision == "ask") == asks and not found.dangerous, (command, found.reasons)
