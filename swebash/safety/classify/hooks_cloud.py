"""Hooks of the container, Kubernetes and cloud CLIs.

aws, gcloud and az have thousands of verbs; their read verbs have a shape (``describe-*``,
``list-*``, ``get-*``; ``list``, ``describe``, ``show``) and their parameters are request
fields, so a read verb passes with any ``--parameter`` — except the verbs and parameters
that hand out secrets or send your credentials elsewhere (``get-secret-value``,
``--with-decryption``, ``print-access-token``, ``--endpoint-url``, ``--debug``). Every other
verb changes live infrastructure: dangerous.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from swebash.safety.classify import suspicion
from swebash.safety.classify.checks import read_path, write_target
from swebash.safety.classify.model import Findings
from swebash.safety.classify.parser import Parsed

SECRETS = re.compile(r"(?i)(secret|password|passwd|token|credential|login|session|"
                     r"decrypt|signed|presign|ciphertext|data-key|plaintext|private|"
                     r"auth-code|access-key$|sas$|connection-string|keys$)")


def local_files(f: Findings, words: list[str]) -> None:
    """``file://path`` / ``fileb://path`` parameters send a local file's content."""
    for word in words:
        value = word.split("=", 1)[-1]
        for prefix in ("file://", "fileb://"):
            if value.startswith(prefix):
                read_path(f, value[len(prefix):])


def split_flags(words: list[str], values: frozenset[str]) -> tuple[list[str], list[str]]:
    """Positional words and ``--flags`` (a known value-taking flag takes the next word)."""
    positional, flags = [], []
    k = 0
    while k < len(words):
        word = words[k]
        if word.startswith("-"):
            flags.append(word)
            if "=" not in word and word in values and k + 1 < len(words):
                k += 1
                flags.append(words[k])
        else:
            positional.append(word)
        k += 1
    return positional, flags


AWS_VALUES = frozenset({"--region", "--profile", "--output", "--query", "--page-size",
                        "--max-items", "--starting-token", "--color", "--cli-read-timeout",
                        "--cli-connect-timeout", "--ca-bundle", "--cli-binary-format",
                        "--endpoint-url", "--cli-input-json", "--cli-input-yaml"})
AWS_READ = re.compile(r"^(describe|list|get|head|lookup|search|batch-get|estimate|validate|"
                      r"check|detect|filter|preview|simulate|test|wait)(-|$)|"
                      r"^(scan|query|tail)$")
AWS_STS_READ = frozenset({"get-caller-identity", "get-access-key-info"})


def aws(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(p.dynamic[1:]):
        f.ask("aws: a parameter known only at run time")
    positional, flags = split_flags(words, AWS_VALUES)
    names = {w.split("=", 1)[0] for w in flags if w.startswith("--")}
    if "--endpoint-url" in names:
        f.ask("aws: sends your signed requests to another endpoint", True)
    if "--debug" in names:
        f.ask("aws: --debug prints signed requests (session tokens)", True)
    local_files(f, words)
    if not positional:
        return
    service, op = positional[0], (positional[1] if len(positional) > 1 else "")
    if service == "s3":
        s3_copy(f, "aws s3", op, positional[2:], flags, ("ls", "help"))
        return
    if service == "configure":
        if op in ("list", "list-profiles", "help", "") or (
                op == "get" and not SECRETS.search(" ".join(positional[2:]))):
            return
        dangerous = op in ("get", "export-credentials")
        f.ask(f"aws configure {op[:20]}: "
              f"{'prints credentials' if dangerous else 'changes the configuration'}",
              dangerous)
        return
    if service == "sts" and op not in AWS_STS_READ:
        f.ask(f"aws sts {op[:30]}: hands out credentials", True)
        return
    if op == "help" or (service == "help"):
        return
    if AWS_READ.match(op):
        if SECRETS.search(op) or "--with-decryption" in names:
            f.ask(f"aws {service} {op[:30]}: hands out secrets or credentials", True)
        elif op == "get-object" or op.startswith("download"):
            f.ask(f"aws {service} {op}: writes a file")
        return
    f.ask(f"aws {service[:20]} {op[:30]}: changes live infrastructure", True)


def s3_copy(f: Findings, label: str, op: str, operands: list[str], flags: list[str],
            reads: tuple[str, ...]) -> None:
    """cp/mv/sync/rsync: to a bucket uploads (dangerous); from one downloads (asks)."""
    if op in reads:
        return
    if op in ("rm", "rb", "mv", "presign") or "--delete" in flags or "-d" in flags:
        f.ask(f"{label} {op}: deletes objects or hands out access", True)
        return
    if op in ("cp", "sync", "rsync"):
        *sources, destination = operands or [""]
        remote = ("s3://", "gs://")
        if destination.startswith(remote):
            f.ask(f"{label} {op}: uploads files", True)
            for source in sources:
                if not source.startswith(remote):
                    read_path(f, source)
        else:
            f.ask(f"{label} {op}: downloads files")
            if destination and destination != "-":
                write_target(f, destination, label, overwrite_is_dangerous=True)
        return
    f.ask(f"{label} {op[:20]}: changes live infrastructure", True)


GCLOUD_VALUES = frozenset({"--project", "--format", "--filter", "--limit", "--sort-by",
                           "--page-size", "--verbosity", "--configuration", "--account",
                           "--billing-project", "--region", "--zone", "--flags-file",
                           "--impersonate-service-account", "--access-token-file"})
GCLOUD_READ = re.compile(r"^(list|describe|get-iam-policy|get-value|get|info|version|"
                         r"list-[\w-]+|describe-[\w-]+|get-ancestors[\w-]*|search[\w-]*|"
                         r"lookup|read|tail|show|status|query|explain|test-iam-permissions|"
                         r"browse)$")
GCLOUD_DANGER = re.compile(r"^(print-access-token|print-identity-token|access|"
                           r"print-refresh-token|ssh|scp|connect|get-credentials|"
                           r"export|get-password|reset-windows-password|get-serial-port-"
                           r"output|create-login-profile|get-login-profile|sign-blob|"
                           r"sign-jwt|generate-access-token|generate-id-token|keys)$")


def gcloud(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    positional, flags = split_flags(words, GCLOUD_VALUES)
    names = {w.split("=", 1)[0] for w in flags}
    if names & {"--log-http", "--impersonate-service-account", "--access-token-file",
                "--credential-file-override"}:
        f.ask("gcloud: logs or substitutes credentials", True)
    if "--flags-file" in names:
        f.ask("gcloud: reads flags from a file")
    local_files(f, words)
    if positional[:1] in (["config"], ["auth"]):
        verb = positional[1] if len(positional) > 1 else ""
        if verb in ("list", "get-value", "get", "describe", "") or (
                verb == "configurations" and positional[2:3] in (["list"], ["describe"])):
            return
        if "print" in verb or (len(positional) > 2 and "print" in positional[2]):
            f.ask(f"gcloud {positional[0]} {verb}: prints credentials", True)
        else:
            f.ask(f"gcloud {positional[0]} {verb[:20]}: changes the configuration or login")
        return
    for word in positional:
        if GCLOUD_DANGER.match(word) or (word == "versions" and "access" in positional):
            f.ask(f"gcloud {word}: hands out credentials, secrets or a shell", True)
            return
        if GCLOUD_READ.match(word):
            return
    if positional[:1] in (["components"],) and positional[1:2] == ["list"]:
        return
    if positional:
        suspicion.destroys(f, "gcloud", positional)
        f.ask("gcloud: changes live infrastructure", True)


AZ_READ = re.compile(r"^(list|show|get|version|list-[\w-]+|show-[\w-]+|get-[\w-]+|"
                     r"exists|check-[\w-]+|query|wait|tail|browse|download-logs?)$")
AZ_VALUES = frozenset({"-g", "--resource-group", "-n", "--name", "-o", "--output", "--query",
                       "--subscription", "-l", "--location", "--vault-name"})


def az(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    positional, flags = split_flags(words, AZ_VALUES)
    if "--debug" in flags:
        f.ask("az: --debug prints requests with their tokens", True)
    local_files(f, [w.lstrip("@") for w in words])
    verb = positional[-1] if positional else ""
    if verb in ("login", "logout", "configure", "config", "init"):
        f.ask(f"az {verb}: changes the login or configuration")
        return
    if AZ_READ.match(verb) and not any(SECRETS.search(w) for w in positional):
        return
    if AZ_READ.match(verb):
        f.ask(f"az {' '.join(positional)[:30]}: hands out secrets or credentials", True)
        return
    if positional:
        f.ask("az: changes live infrastructure", True)


GSUTIL_READ = ("ls", "du", "stat", "cat", "hash", "version", "help", "signurl-check")


def gsutil(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    if any(w in ("-D", "-DD") or w.startswith("-o") for w in words):
        f.ask("gsutil: debug output or boto options (credentials)", True)
    positional, flags = split_flags([w for w in words if w not in ("-m", "-q")],
                                    frozenset({"-h", "-u", "-o"}))
    if not positional:
        return
    s3_copy(f, "gsutil", positional[0], positional[1:], flags, GSUTIL_READ)


GENERIC_READ = re.compile(r"^(list|ls|get|show|describe|status|version|info|ip|whoami|"
                          r"account|profile|logs?|inspect)$")
LOCAL_CLUSTERS = frozenset({"kind", "minikube", "k3d"})


def cloud_generic(f: Findings, p: Parsed, depth: int) -> None:
    positional = [w for w in p.argv[1:] if not w.startswith("-")]
    if any(w in ("kubeconfig", "token", "credentials", "ssh-key", "access-token")
           for w in positional):
        f.ask(f"{p.name}: prints credentials", True)
        return
    if any(GENERIC_READ.match(w) for w in positional[:4]) and not suspicion.destroys(
            f, p.name, positional):
        return
    if suspicion.destroys(f, p.name, positional):
        return
    where = "a local cluster" if p.name in LOCAL_CLUSTERS else "live infrastructure"
    f.ask(f"{p.name}: changes {where}", p.name not in LOCAL_CLUSTERS)


OUTPUTS = re.compile(r"^(yaml|json|jsonpath.*|go-template.*|template.*|custom-columns.*|"
                     r"jsonpath-file.*|go-template-file.*)$")
SECRET_RESOURCE = re.compile(r"(^|[,/])secrets?($|[,/.])")


def kubectl_get(f: Findings, p: Parsed, depth: int) -> None:
    resources = [a.text for a in p.operands]
    raw = p.values("--raw")
    if any("secret" in r for r in raw):
        f.ask("kubectl get --raw: reads secrets", True)
    secret = any(SECRET_RESOURCE.search(r) for r in resources)
    if secret and any(OUTPUTS.match(o) for o in p.values("-o", "--output")):
        f.ask("kubectl get secret: prints secret values", True)


def kubectl_config_view(f: Findings, p: Parsed, depth: int) -> None:
    if p.has("--raw", "--flatten"):
        f.ask("kubectl config view: prints credentials", True)


def kubectl_proxy(f: Findings, p: Parsed, depth: int) -> None:
    address = (p.values("--address") or ["127.0.0.1"])[-1]
    if address not in ("127.0.0.1", "localhost", "::1") or p.has("--accept-hosts",
                                                                 "--disable-filter"):
        f.ask("kubectl proxy: exposes the cluster's API to the network", True)


DOCKER_HOST_ACCESS = re.compile(r"^--privileged$|^--(pid|net|network|ipc|uts|userns|"
                                r"cgroupns)=host$|^--cap-add|^--device|^--security-opt|"
                                r"docker\.sock|^/:|^/?(etc|root|home|var|proc|sys|dev|usr|"
                                r"boot)?(/[^:]*)?:/")


def docker(f: Findings, p: Parsed, depth: int) -> None:
    if p.values("-H", "--host") and (p.spec.effect is not None or not p.verbs):
        f.ask(f"{p.name}: runs it on another docker daemon", True)


def docker_run(f: Findings, p: Parsed, depth: int) -> None:
    words = p.argv[1:]
    for k, word in enumerate(words):
        value = word
        if word in ("-v", "--volume", "--mount", "--pid", "--net", "--network", "--ipc",
                    "--userns", "--uts") and k + 1 < len(words):
            value = f"{word}={words[k + 1]}" if word.startswith("--") else words[k + 1]
        if DOCKER_HOST_ACCESS.search(value) or (value.startswith("~") and ":" in value):
            f.ask(f"{p.name} run: gives the container access to the host ({value[:30]})",
                  True)
            return


def terraform_fmt(f: Findings, p: Parsed, depth: int) -> None:
    if not (p.has("-check") or "-write=false" in p.argv):
        f.ask(f"{p.name} fmt: rewrites files")


def pulumi_output(f: Findings, p: Parsed, depth: int) -> None:
    if "--show-secrets" in p.argv:
        f.ask("pulumi: prints secrets", True)


def pulumi_config(f: Findings, p: Parsed, depth: int) -> None:
    if "--show-secrets" in p.argv:
        f.ask("pulumi config: prints secrets", True)
    if p.operands and p.operands[0].text in ("set", "rm", "set-all", "rm-all", "cp",
                                             "refresh", "env"):
        f.ask("pulumi config: changes the stack's configuration")


def image_push(f: Findings, p: Parsed, depth: int) -> None:
    """``docker buildx build --push`` / ``--output type=registry``: the image leaves."""
    words = p.argv[1:]
    if any(w == "--push" or ("type=registry" in w) or w.startswith("push=true")
           for w in words):
        f.ask(f"{p.name} buildx: publishes the image to a registry", True)


HOOKS: dict[str, Callable[[Findings, Parsed, int], None]] = {
    "image_push": image_push, "aws": aws, "gcloud": gcloud, "az": az, "gsutil": gsutil,
    "cloud_generic": cloud_generic,
    "kubectl_get": kubectl_get, "kubectl_config_view": kubectl_config_view,
    "kubectl_proxy": kubectl_proxy, "docker": docker, "docker_run": docker_run,
    "terraform_fmt": terraform_fmt, "pulumi_output": pulumi_output,
    "pulumi_config": pulumi_config, "terraform_providers": lambda f, p, d: None,
}
