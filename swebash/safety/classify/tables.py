"""Names the walker and the wrappers need as sets: shells, interpreters, programs that run
anything (a rules.toml prefix of only one of them is refused), environment variables that
change how programs run, and their harmless values.

Programs themselves are described by their grammars (``classify/programs/``); adding a
wrapper is one entry in ``wrappers.WRAPPERS``.
"""

from __future__ import annotations

import re

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "mksh", "csh", "tcsh",
                    "rbash", "yash", "busybox", "posh", "sash", "oksh", "loksh", "osh"})
INTERPRETERS = frozenset({"python", "python2", "python3", "node", "nodejs", "ruby",
                          "php", "lua", "luajit", "deno", "bun", "Rscript", "R", "tclsh", "wish",
                          "pwsh", "osascript", "ipython", "irb", "jshell", "groovy", "julia",
                          "pypy", "pypy3", "expect", "guile", "racket", "sbcl", "scala",
                          "kotlin", "swift", "ts-node", "tsx", "perl5", "jruby", "elixir",
                          "escript", "ghci", "runghc", "ocaml", "gdb", "lldb"})
# A rules.toml prefix made of only one of these would allow any program: refused at load.
RUNS_ANYTHING = SHELLS | INTERPRETERS | frozenset({
    "env", "sudo", "doas", "su", "run0", "pkexec", "xargs", "parallel", "eval", "exec",
    "command", "builtin", "source", ".", "nohup", "nice", "ionice", "timeout", "time", "stdbuf",
    "setsid", "flock", "watch", "strace", "ltrace", "chroot", "unshare", "nsenter", "firejail",
    "systemd-run", "runuser", "script", "uv", "uvx", "npx", "pnpx", "bunx", "pipx", "dotnet",
    "java", "awk", "gawk", "mawk", "perl", "emacs", "tmux", "screen", "npm", "chrt", "taskset",
    "numactl", "caffeinate", "unbuffer", "chronic", "trap", "coproc", "sg", "newgrp", "cgexec",
    "flatpak-spawn", "dbus-run-session", "xvfb-run", "entr", "sshpass", "ssh-agent",
    "powershell", "valgrind", "perf", "capsh", "setpriv", "chpst"})
# Reveal something about what they read (a hash, a count): a run-time path fed to them
# through a redirect is fine.
META_READERS = frozenset({"wc", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum",
                          "sha512sum", "cksum", "b2sum", "sum", "stat", "shasum", "md5",
                          "file", "sha1", "lsattr", "getfacl"})
# Read-only programs that show no file content: a secret path among their words is fine.
# Variables that change which program runs or what it loads: assigning them is dangerous.
HIJACK_VARS = re.compile(
    r"^(LD_\w+|DYLD_\w+|PATH|BASH_ENV|ENV|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|PS4|PS0|PS1|"
    r"GIT_\w+|PYTHON\w*|NODE_OPTIONS|NODE_PATH|PERL5\w+|PERLLIB|PERL_\w+|RUBY\w+|LESSOPEN|"
    r"LESSCLOSE|LESS|LESSKEY\w*|MORE|PAGER|\w+_PAGER|MANPAGER|MANOPT|MANPATH|EDITOR|VISUAL|"
    r"BROWSER|SSH_ASKPASS|SUDO_ASKPASS|GIT_ASKPASS|HISTFILE|BASH_LOADABLES_PATH|GCONV_PATH|"
    r"GLIBC_TUNABLES|MALLOC_\w+|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|"
    r"LUA_\w+|GEM_\w+|BUNDLE_\w+|npm_config_\w+|NPM_CONFIG_\w+|XDG_CONFIG_HOME|XDG_CONFIG_DIRS|"
    r"XDG_DATA_DIRS|HOME|SHELL|CDPATH|GLOBIGNORE|TMOUT|FIGNORE|EXECIGNORE|PROMPT_DIRTRIM|"
    r"(?i:\w*_proxy)|CURL_HOME|WGETRC|SSL_CERT_\w+|CURL_CA_BUNDLE|REQUESTS_CA_BUNDLE|"
    r"BASH_FUNC_\w+.*|TERMINFO\w*|INPUTRC|HOSTALIASES|RESOLV_\w+|LOCPATH|NLSPATH|"
    r"TZDIR|OPENSSL_\w+|KUBECONFIG|DOCKER_\w+|AWS_\w+|GOOGLE_\w+|CLOUDSDK_\w+|AZURE_\w+|"
    r"PIP_\w+|UV_\w+|POETRY_\w+|CONDA_\w+|CARGO_\w+|RUSTC\w*|RUSTFLAGS|GO\w+|CGO_\w+|"
    r"TF_\w+|HELM_\w+|ANSIBLE_\w+|MAVEN_OPTS|GRADLE_\w+|SBT_OPTS|DOTNET_\w+|CORECLR_\w+|"
    r"COMPlus_\w+|ZDOTDIR|VIMINIT|EXINIT|MYVIMRC|GVIMINIT|EMACSLOADPATH|SYSTEMD_\w+|"
    r"MAKEFLAGS|MAKEFILES|MFLAGS|TCLLIBPATH|TCL_LIBRARY|R_PROFILE\w*|R_LIBS\w*|RIPGREP_\w+|"
    r"FZF_\w+|BAT_\w+|NETRC|PGPASSFILE|PGSERVICEFILE|PSQLRC|MYSQL_\w+|SQLITE_\w+|"
    r"REDISCLI_\w+|TERMCAP|GROFF_\w+|TEXINPUTS|PERLDB_OPTS|LESSSECURE|PROFILE|NODE_\w+|"
    r"BUN_\w+|DENO_\w+|NPX_\w+|YARN_\w+|PNPM_\w+|COMPOSER_\w+|HG\w*|SVN_\w+|"
    r"BASH_XTRACEFD|HISTCONTROL|HISTIGNORE|LD|CC|CXX|CPP|AR|AS|NM|STRIP|OBJCOPY)$")
# Names that usually point a program at another program, library, config, host or source:
# an unknown one set in front of a command is dangerous, not merely unmodelled.
HIJACK_LIKE = re.compile(
    r"(?i)(PRELOAD|LIBRARY|LIB_?PATH|_PATH$|INDEX|REGISTRY|_URL$|_URI$|ENDPOINT|PROXY|"
    r"CONFIG|HOME$|EDITOR|PAGER|SHELL|OPTS$|OPTIONS|FLAGS$|PLUGIN|HOOK|_CMD$|COMMAND|"
    r"PROGRAM|EXEC|INIT$|STARTUP|RC$|PROFILE|_HOST$|SOCK|ASKPASS|CERT|CA_BUNDLE|AGENT|"
    r"WRAPPER|TOOL|LAUNCHER|INTERPRETER|_ENV$|_DIR$|INCLUDE|LOADER|RUNNER|MODULE)")
# Harmless to set in front of a command; any other variable there makes the command ask.
SAFE_ENV = re.compile(
    r"^(LANG|LANGUAGE|LC_\w+|TZ|TERM|IFS|COLUMNS|LINES|NO_COLOR|FORCE_COLOR|CLICOLOR\w*|"
    r"COLORTERM|GREP_COLORS?|LS_COLORS|TIME_STYLE|POSIXLY_CORRECT|PYTHONDONTWRITEBYTECODE|"
    r"PYTHONUNBUFFERED|PYTHONIOENCODING|CI|DEBUG|VERBOSE|QUIET|RUST_BACKTRACE|RUST_LOG|"
    r"NODE_ENV|SOURCE_DATE_EPOCH|LC_ALL|BLOCK_SIZE|BLOCKSIZE|DF_BLOCK_SIZE|"
    r"DU_BLOCK_SIZE|LS_BLOCK_SIZE|QUOTING_STYLE|TABSIZE|MANWIDTH|SYSTEMD_COLORS|"
    r"SYSTEMD_URLIFY|SYSTEMD_LOG_LEVEL|GIT_TERMINAL_PROMPT|TERM_PROGRAM|NO_PROXY|no_proxy|"
    r"PYTHONHASHSEED|PYTHONUTF8|PYTHONFAULTHANDLER|PYTHONDEVMODE|PYTHONTRACEMALLOC|"
    r"NPM_CONFIG_FUND|NPM_CONFIG_UPDATE_NOTIFIER|CARGO_TERM_COLOR|TERMINAL|LOGNAME|USER|"
    r"SHLVL|HISTSIZE|HISTFILESIZE|TMUX_PANE|CLICOLOR_FORCE|JQ_COLORS|BAT_THEME|BAT_STYLE)$")

# Harmless values of otherwise dangerous variables (`PAGER=cat git log`).
SAFE_VALUE = re.compile(
    r"((GIT_|SYSTEMD_|BAT_|DELTA_)?PAGER|MANPAGER)=(cat|less( -[A-Za-z]+)?|more|)|"
    r"GIT_TERMINAL_PROMPT=[01]|GIT_OPTIONAL_LOCKS=[01]|GIT_FLUSH=[01]|GIT_TRACE\w*=[01]|"
    r"GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE)=[^$`]*|GIT_ASKPASS=(true|echo|)|"
    r"PYTHON(DONTWRITEBYTECODE|UNBUFFERED|IOENCODING|HASHSEED|UTF8|FAULTHANDLER)="
    r"[\w:.-]*|PYTHONWARNINGS=((ignore|default|error|always|module|once)(::?\w*)?,?)*|"
    r"EDITOR=(true|cat|:)|GIT_EDITOR=(true|cat|:)|(SYSTEMD_)?LESS=-?[A-Za-z]*|"
    r"PATH=((/usr(/local)?)?/s?bin:?)+|(GIT|BAT|DELTA)_PAGER=|RUST_BACKTRACE=\w*|"
    r"GOFLAGS=(-mod=\w+|-v|-count=\d+|\s)*|GOOS=\w+|GOARCH=\w+|CGO_ENABLED=[01]|"
    r"GOPROXY=(direct|off|https://proxy\.golang\.org(,direct)?)|GONOSUMDB=|GOFLAGS=|"
    r"PIP_DISABLE_PIP_VERSION_CHECK=\w*|PIP_NO_INPUT=\w*|PIP_QUIET=\w*|"
    r"DOCKER_BUILDKIT=[01]|DOCKER_CLI_HINTS=\w*|COMPOSE_PROJECT_NAME=[\w-]*|"
    r"AWS_PAGER=|AWS_REGION=[\w-]*|AWS_DEFAULT_REGION=[\w-]*|AWS_PROFILE=[\w.-]*|"
    r"AWS_DEFAULT_OUTPUT=\w*|CLOUDSDK_CORE_DISABLE_PROMPTS=[01]|TF_IN_AUTOMATION=\w*|"
    r"TF_LOG=\w*|HELM_NAMESPACE=[\w-]*|NODE_NO_WARNINGS=[01]")
