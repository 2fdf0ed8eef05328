"""The path guard: where a file tool (or a command's file argument) would land, and whether
that place is secret, sensitive or outside the working tree.

Paths are judged by where they really land: ``~`` and ``~user`` expanded, resolved against the
shell's cwd, symlinks followed (for a file that does not exist yet, through its deepest existing
ancestor). Three spellings are checked, case-insensitively: the lexical path, its resolution,
and the resolution of the path as written — the kernel resolves ``link/..`` through the link,
``normpath`` does not. A secret directory is secret wherever it sits (``/root/.ssh``,
``/home/bob/.aws``), a hard link to a secret file is the secret file, and a readable file whose
first bytes are a private key is secret whatever its name.
"""

from __future__ import annotations

import functools
import os
import pwd
import re
import stat

from swebash.api import Verdict
from swebash.workspace import git_root

# Directories (relative to a home) whose whole content is secret. The sandbox hides them too.
SECRET_HOME_DIRS = (".ssh", ".aws", ".gnupg", ".config/gh", ".kube", ".password-store",
                    ".config/gcloud", ".azure", ".oci", ".config/doctl", ".config/hub",
                    ".config/glab-cli", ".config/op", ".op", ".local/share/keyrings",
                    ".config/rclone", ".config/hcloud", ".wrangler", ".fly", ".config/heroku",
                    ".vault", ".mozilla", ".config/google-chrome", ".config/chromium", ".pki",
                    ".config/BraveSoftware", ".thunderbird", ".config/Signal", ".bitcoin",
                    ".ethereum", ".electrum", ".config/sops", ".sops", ".age", ".config/age",
                    ".minikube", ".netlify", ".vercel", ".config/configstore", ".expo",
                    ".snowflake", ".dbt", ".circleci", ".travis", ".ngrok2", ".config/ngrok",
                    ".tsh", ".cloudflared", ".jfrog", ".config/openai", ".codex", ".claude",
                    ".anthropic", "library/keychains", ".config/code/user/globalstorage",
                    ".config/1password", ".lastpass", ".config/bitwarden", ".config/gopass",
                    ".linode-cli", ".config/linode-cli", ".config/scw", ".aliyun", ".bluemix",
                    ".ibmcloud", ".config/exoscale", ".config/flyctl", ".railway",
                    ".config/railway", ".supabase", ".config/supabase", ".pulumi", ".chef",
                    ".puppetlabs", ".ansible/vault", ".config/gcloud-cli")
# Secret files: a name alone (`.npmrc`) is secret wherever it is; a path (`.m2/settings.xml`)
# wherever it ends a path. Package caches next to them (~/.m2/repository, ~/.gradle/caches,
# ~/.gem/ruby) are not secret, so builds inside the sandbox still find them.
SECRET_HOME_FILES = (".docker/config.json", ".netrc", ".git-credentials", ".npmrc", ".pypirc",
                     ".pgpass", ".my.cnf", ".vault-token", ".boto", ".s3cfg", ".yarnrc",
                     ".yarnrc.yml", ".terraformrc", ".authinfo", ".authinfo.gpg", ".cf",
                     ".env", ".envrc", ".dockercfg", ".gitcookies", ".lesshst",
                     ".databrickscfg", ".sentryclirc", "kubeconfig", ".viminfo",
                     ".rediscli_history", ".sqlite_history", ".irb_history", ".pry_history",
                     ".erlang.cookie", ".xauthority", ".ICEauthority", ".rnd", ".htpasswd",
                     "wp-config.php", "local.settings.json", "appsettings.secrets.json",
                     ".git-askpass", "id_token", "access_token", "refresh_token",
                     ".ansible-vault-password", ".vault_pass", ".vault_pass.txt",
                     ".m2/settings.xml", ".m2/settings-security.xml", ".gradle/gradle.properties",
                     ".nuget/NuGet/NuGet.Config", ".gem/credentials", ".bundle/config",
                     ".composer/auth.json", ".config/composer/auth.json", ".pip/pip.conf",
                     ".config/pip/pip.conf", ".cargo/credentials", ".cargo/credentials.toml",
                     ".terraform.d/credentials.tfrc.json", ".config/helm/registry/config.json",
                     ".config/containers/auth.json", ".config/git/credentials",
                     ".huggingface/token", ".cache/huggingface/token", ".config/vultr-cli.yaml",
                     ".docker/.token_seed", ".helm/repository/repositories.yaml")
HISTORY = re.compile(r"(^|/)\.?[\w.-]*_?history$|(^|/)\.[\w-]*hst$|(^|/)fish_history$", re.I)
SECRET_NAME = re.compile(
    r"(^|/)(\.env(\.(?!(example|sample|template|dist|defaults?|schema)$)[^/]+)?|[^/]*\.key|"
    r"id_(rsa|dsa|ecdsa|ed25519|ecdsa_sk|ed25519_sk)(?!\.pub$)[^/]*|[^/]*\.p12|[^/]*\.pfx|"
    r"[^/]*\.jks|[^/]*\.keystore|[^/]*\.ppk|[^/]*\.kdbx|[^/]*\.tfstate(\.backup)?|"
    r"[^/]*\.tfvars|credentials(\.json|\.toml|\.yml|\.yaml|\.xml)?|\.?htpasswd|"
    r"master\.key|secrets?\.(ya?ml|json|toml|env)|service[-_]?account[^/]*\.json|"
    r"token(\.json)?|\.vault-token|[^/]*\.gpg|[^/]*_rsa|[^/]*\.ovpn|[^/]+\.env|"
    r"[^/]*\.secrets?|secrets?/.*|core\.\d+|[^/]+\.core|[^/]+\.dmp|[^/]+\.hprof|"
    r"[^/]*\.keyring|kubeconfig[^/]*|[^/]*\.kubeconfig)$", re.I)
# `*.pem` holds a certificate as often as a key: a name that says certificate is public.
PEM = re.compile(r"(^|/)[^/]*\.pem$", re.I)
CERT_NAME = re.compile(r"(^|/)[^/]*(cert|chain|\bca\b|ca[-_.]|bundle|pub)[^/]*\.pem$", re.I)
PUBLIC_NAME = re.compile(r"(^|/)(id_[a-z0-9_]+\.pub|known_hosts(\.old)?|authorized_keys2?|"
                         r"[^/]*\.pub)$", re.I)
SECRET_SYSTEM = re.compile(
    r"^(/etc/(shadow|gshadow|sudoers|security/opasswd|master\.passwd)(\.d(/.*)?|-)?|"
    r"/etc/ssl/private(/.*)?|/etc/ssh/ssh_host_[^/]*key|/etc/[^/]*\.keytab|/etc/krb5\.keytab|"
    r"/etc/wireguard(/.*)?|/etc/NetworkManager/system-connections(/.*)?|"
    r"/proc/[^/]+/(environ|mem|cmdline|auxv|maps|smaps|pagemap|stack|syscall|task|fd|"
    r"fdinfo|root|cwd|exe|map_files)(/.*)?|"
    r"/proc/(kcore|kallsyms|kmem)|/var/lib/(secrets|sss)(/.*)?|/etc/letsencrypt(/.*)?|/(var/)?run/secrets(/.*)?|"
    r"/var/lib/kubelet(/.*)?|/root(/.*)?|/var/lib/docker(/.*)?|/var/backups(/.*)?|"
    r"/sys/firmware(/.*)?|"
    # a cluster's admin and component credentials, VPN and dial-up secrets, a database's
    # maintenance login, Ceph's keys
    r"/etc/kubernetes/([^/]+\.conf|pki(/.*)?)|/etc/rancher(/.*)?|/var/lib/rancher(/.*)?|"
    r"/etc/ipsec\.secrets|/etc/ppp/(chap|pap)-secrets|/etc/openvpn(/.*)?|"
    r"/etc/pki/tls/private(/.*)?|/etc/mysql/debian\.cnf|/etc/ceph/[^/]*keyring[^/]*|"
    # memory images: what a process held (passwords, keys) lies in its core dump
    r"/var/crash(/.*)?|/var/lib/systemd/coredump(/.*)?|/var/lib/apport/coredump(/.*)?)$",
    re.I)
# What makes a file's content secret. An AWS secret counts with its value (40 characters after
# `=`): code that merely names the setting (boto, docs) is not a secret.
PRIVATE_KEY = re.compile(rb"PRIVATE KEY-----|OPENSSH PRIVATE|PuTTY-User-Key-File|"
                         rb"-----BEGIN PGP PRIVATE|"
                         rb"(?i:aws_secret_access_key)[ \t\"']*[=:][ \t\"']*[A-Za-z0-9/+]{40}")
RC_FILES = frozenset({".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
                      ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".swebashrc", ".inputrc",
                      ".kshrc", ".cshrc", ".tcshrc", "config.fish", ".gitconfig", ".envrc",
                      ".pythonrc", ".npmrc", ".curlrc", ".wgetrc", ".vimrc", ".exrc",
                      ".lesskey", ".xinitrc", ".xprofile", "authorized_keys", "rc.local",
                      "crontab", ".gitattributes"})
# Places in a project that another program runs on its own — an editor opening the folder
# (.vscode tasks and settings, .idea run configurations, .nvim.lua), a hook manager at commit
# (.husky, .pre-commit-config.yaml), a tool on `cd` or at start in this directory (mise,
# direnv, .pdbrc, .irbrc, .Rprofile, .gdbinit), a package manager's project config that names
# programs (.yarnrc.yml yarnPath, .pnpmfile.cjs, .cargo/config.toml runners). Code written
# there runs later, outside the sandbox, without anyone asking it to: a write is dangerous.
AUTORUN_DIRS = frozenset({".vscode", ".idea", ".devcontainer", ".husky", ".cargo", ".mise",
                          ".direnv", ".fleet", ".zed", ".helix"})
AUTORUN_FILES = frozenset({".pre-commit-config.yaml", "mise.toml", ".mise.toml",
                           "mise.local.toml", ".mise.local.toml", ".yarnrc.yml", ".yarnrc",
                           ".pnpmfile.cjs", ".nvim.lua", ".nvimrc", ".lazy.lua", ".gdbinit",
                           ".lldbinit", ".pdbrc", ".pdbrc.py", ".irbrc", ".pryrc", ".Rprofile",
                           ".octaverc", ".hgrc", ".lintstagedrc", ".lintstagedrc.json",
                           ".lefthook.yml", "lefthook.yml", ".simple-git-hooks.json"})


AUTORUN = "which an editor or tool runs on its own, outside the sandbox"


def runs_on_its_own(real: str, tree: str) -> bool:
    """``real`` is a place of the working tree ``tree`` that runs code later, outside the
    sandbox: in or at an ``AUTORUN_DIRS`` directory, or an ``AUTORUN_FILES`` file, at any
    depth (a folder opened in an editor may be any sub-directory of the tree)."""
    if not within(real, tree) or real == tree:
        return False
    parts = os.path.relpath(real, tree).split(os.sep)
    return parts[-1] in AUTORUN_FILES or any(part in AUTORUN_DIRS for part in parts)


SYSTEM_DIRS = ("/etc", "/usr", "/boot", "/dev", "/bin", "/sbin", "/lib", "/lib64", "/var/spool",
               "/sys", "/proc", "/opt", "/var/lib", "/root", "/srv")


def expand(path: str, cwd: str, home: str, *, normalise: bool = True) -> str:
    if path == "~" or path.startswith("~/"):
        path = home + path[1:]
    elif path.startswith("~"):
        user, _, rest = path[1:].partition("/")
        try:
            path = os.path.join(pwd.getpwnam(user).pw_dir, rest)
        except (KeyError, ValueError):
            pass
    if not os.path.isabs(path):
        path = os.path.join(cwd, path)
    return os.path.normpath(path) if normalise else path


def within(path: str, root: str) -> bool:
    root = root.rstrip("/") or "/"
    return root == "/" or path == root or path.startswith(root + "/")


SECRET_DIR_RE = re.compile("/(" + "|".join(re.escape(d.lower()) for d in SECRET_HOME_DIRS)
                           + ")(/|$)")
SECRET_FILE_RE = re.compile("(^|/)(" + "|".join(re.escape(f.lower())
                                                for f in SECRET_HOME_FILES) + ")$")


def secret_reason(path: str, home: str, *, write: bool = False) -> str | None:
    """Why ``path`` is secret (None when it is not). Public keys may be read, not written."""
    low = path.lower()
    if not write and PUBLIC_NAME.search(low):
        return None
    hit = SECRET_DIR_RE.search(low)
    if hit:
        return f"secret material under ~/{hit.group(1)}/"
    hit = SECRET_FILE_RE.search(low)
    if hit:
        return f"secret file {hit.group(2)}"
    if HISTORY.search(low):
        return f"shell or tool history {os.path.basename(path)}"
    if SECRET_SYSTEM.match(low) or SECRET_SYSTEM.match(path):
        return f"secret system file {path}"
    if low.startswith("/dev/") and low not in ("/dev/null", "/dev/stdin", "/dev/stdout",
                                               "/dev/stderr", "/dev/zero", "/dev/urandom",
                                               "/dev/random", "/dev/tty"):
        return f"device file {path}"
    if SECRET_NAME.search(low):
        return f"secret-looking file {os.path.basename(path)}"
    if PEM.search(low) and not CERT_NAME.search(low):
        return f"key-looking file {os.path.basename(path)}"
    return None


@functools.lru_cache(maxsize=8)
def secret_inodes(home: str) -> frozenset[tuple[int, int]]:
    """(device, inode) of the files in the secret directories, for spotting hard links
    (scanned once per home; ``scan_secret_inodes`` for a fresh scan)."""
    return scan_secret_inodes(home)


def scan_secret_inodes(home: str) -> frozenset[tuple[int, int]]:
    found: set[tuple[int, int]] = set()
    budget = 2000
    for rel in SECRET_HOME_DIRS + SECRET_HOME_FILES:
        top = os.path.join(home, rel)
        for root, _dirs, files in os.walk(top) if os.path.isdir(top) else [("", [], [top])]:
            for name in files:
                budget -= 1
                if budget < 0:
                    return frozenset(found)
                try:
                    st = os.lstat(os.path.join(root, name))
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    found.add((st.st_dev, st.st_ino))
    return frozenset(found)


def content_reason(real: str, st: os.stat_result, home: str) -> str | None:
    if st.st_nlink > 1 and (st.st_dev, st.st_ino) in secret_inodes(home):
        return "a hard link to a secret file"
    if st.st_size == 0 or real.startswith(("/proc/", "/sys/", "/dev/")):
        return None  # never open a pseudo-file: /proc/kmsg blocks a reader forever
    try:
        with open(real, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    if PRIVATE_KEY.search(head):
        return f"a file holding a private key ({os.path.basename(real)})"
    return None


def check_path(path: str, cwd: str, home: str, *, write: bool) -> Verdict:
    """Judge reading (or writing) ``path``; never raises."""
    if not path or "\x00" in path:
        return Verdict("deny", False, ("not a usable path",))
    verb = "writes" if write else "reads"
    if path.startswith("~") and not path.startswith(("~/",)) and path != "~":
        user = path[1:].partition("/")[0]
        try:
            pwd.getpwnam(user)
        except (KeyError, ValueError):
            return Verdict("ask", False, (f"{verb} a path under an unknown home {path}",))
    try:
        lexical = expand(path, cwd, home)
        real = os.path.realpath(lexical)
        as_written = os.path.realpath(expand(path, cwd, home, normalise=False))
    except (OSError, ValueError):
        return Verdict("deny", False, ("not a usable path",))
    shown = path if real == lexical else f"{path} (→ {real})"
    for candidate in (lexical, real, as_written):
        reason = secret_reason(candidate, home, write=write)
        if reason:
            return Verdict("deny", True, (f"{verb} {reason}",))
    if real == "/dev/null":
        return Verdict("allow")
    try:
        st = os.stat(as_written)
    except OSError:
        st = None
    if st is not None:
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
            kind = ("FIFO" if stat.S_ISFIFO(st.st_mode) else "socket"
                    if stat.S_ISSOCK(st.st_mode) else "device")
            return Verdict("deny", False, (f"not a regular file ({kind}): {shown}",))
        if stat.S_ISREG(st.st_mode):
            reason = content_reason(as_written, st, home)
            if reason:
                return Verdict("deny", True, (f"{verb} {reason}",))
    if not write:
        return Verdict("allow")
    return write_verdict(real, cwd, shown)


def write_verdict(real: str, cwd: str, shown: str) -> Verdict:
    reasons: list[str] = []
    dangerous = False
    if os.path.basename(real) in RC_FILES:
        reasons.append(f"writes a startup or config file that runs code: {shown}")
        dangerous = True
    if "/.git/hooks/" in real + "/" or real.endswith(("/.git/config", "/.git")):
        reasons.append(f"writes git configuration or hooks (they run code): {shown}")
        dangerous = True
    if runs_on_its_own(real, working_tree(cwd)):
        reasons.append(f"writes {shown}, {AUTORUN}")
        dangerous = True
    if any(within(real, d) for d in SYSTEM_DIRS if d != "/"):
        reasons.append(f"writes a system location: {shown}")
        dangerous = True
    outside = not within(real, os.path.realpath(cwd))
    if outside:
        reasons.append(f"writes outside the working directory: {shown}")
        dangerous = True
    if not reasons:
        reasons.append(f"writes {shown}")
    return Verdict("ask", dangerous, tuple(reasons), writes_outside=(real,) if outside else ())


# ---------------------------------------------------------------------------- read places
#
# Secrets are denied wherever they are (above); beyond them, a command's reads are judged by
# where they land, positively: the working tree and the system's own directories are known
# good to read; the rest of the home is not — its hidden places are where programs keep
# tokens, sessions and histories (gh's hosts.yml, stripe's config, atuin's history.db), its
# other directories are other projects and the user's documents. Outside the home, other
# places (other users' homes, mounted volumes) ask.

SYSTEM_READS = ("/usr", "/etc", "/opt", "/proc", "/sys", "/bin", "/sbin", "/lib", "/lib32",
                "/lib64", "/libx32", "/boot", "/var/log", "/var/lib", "/var/cache", "/var/tmp",
                "/tmp", "/run", "/snap", "/nix", "/gnu", "/dev", "/System", "/Library",
                "/Applications", "/private/etc", "/private/tmp", "/private/var/tmp",
                "/usr/local")
# Inside the home: downloaded sources and toolchains, read when looking up a library's code.
HOME_READS = (".cargo/registry", ".cargo/git", ".rustup/toolchains", "go/pkg/mod",
              ".m2/repository", ".gradle/caches", ".gradle/wrapper/dists", ".ivy2/cache",
              ".pyenv/versions", ".nvm/versions", ".local/lib", ".rbenv/versions",
              ".gem/ruby", ".sdkman/candidates", ".julia/packages", ".ghcup/ghc",
              ".cabal/packages", ".opam/default/lib", ".deno/deps", ".bun/install/cache",
              ".local/share/man", ".local/share/fonts", ".local/share/icons",
              ".local/share/applications", ".local/share/zinit/plugins")
HIDDEN_HOME = "programs keep tokens, sessions and histories there"


def working_tree(cwd: str) -> str:
    """The tree a command works in: the git root above ``cwd``, else ``cwd`` (resolved)."""
    real = os.path.realpath(cwd)
    return git_root(real) or real


def read_place(path: str, cwd: str, home: str, tree: str | None = None
               ) -> tuple[str, bool] | None:
    """Why reading ``path`` (not a secret: ``check_path`` judges those) asks, and whether it
    is dangerous; None when it lands in the working tree or a system directory."""
    try:
        real = os.path.realpath(expand(path, cwd, home))
    except (OSError, ValueError):
        return "reads a path that cannot be resolved", False
    tree = tree or working_tree(cwd)
    real_home = os.path.realpath(home)
    if within(real, real_home) and real != real_home:
        rel = os.path.relpath(real, real_home)
        first = rel.split("/", 1)[0]
        hidden = first.startswith(".")
        if within(real, tree) and not (hidden and within(real_home, tree)):
            return None
        if any(within(rel, place) for place in HOME_READS) or PUBLIC_NAME.search(rel.lower()):
            return None
        if hidden and "/" in rel:
            return f"reads ~/{rel[:40]}, outside the project ({HIDDEN_HOME})", True
        if hidden:
            return f"reads ~/{rel[:40]}, a startup or settings file of your home", False
        return f"reads ~/{rel[:40]}, a file of your home outside the project", False
    if real == real_home or within(real, tree) or any(within(real, d) for d in SYSTEM_READS):
        return None
    return f"reads {real[:50]}, outside the project and the system's directories", False
