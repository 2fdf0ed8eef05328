"""Grammars of development tools: interpreters (their version and module-listing forms read;
inline code is dangerous), compilers and build tools (they run the project's code: they
ask; options that load a plugin or a wrapper program are dangerous), linters and formatters
(read-only in their check modes), editors (they ask)."""

from __future__ import annotations

from swebash.safety.classify.grammar import Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)

INLINE = "runs inline code"
BUILD = "builds or runs the project's code"
PRELOAD = "loads code before the program (a module, an agent or a plugin)"

define("python python2 python3 pypy pypy3 ipython", lambda: prog(
    "-bBdEhiIOPqsSuvVxR -X: -W: -m:! --help-env --help-xoptions --help-all "
    "--check-hash-based-pycs:",
    args="p*", hook="python", permute=False, info="--version -V -VV --help -h",
    danger={"-c:!": INLINE}))
define("node nodejs", lambda: prog(
    "-c --check --no-warnings --trace-warnings --enable-source-maps --no-deprecation "
    "--max-old-space-size: --stack-size: --experimental-vm-modules --input-type: "
    "--title: --trace-deprecation --pending-deprecation --throw-deprecation "
    "--unhandled-rejections: --no-experimental-fetch --conditions: -C:",
    args="p*", hook="script", permute=False, info="--version -v --help -h",
    danger={"-e: --eval: -p: --print:": INLINE,
            "-r: --require: --import: --loader: --experimental-loader: --env-file:r "
            "--inspect:: --inspect-brk:: --inspect-port: --inspect-wait:: --watch "
            "--watch-path:": PRELOAD}))
define("ruby jruby", lambda: prog(
    "-cwWa -C:n -E: -F: -I:n --disable: --enable: --encoding: --external-encoding: "
    "--internal-encoding: --verbose --yydebug", args="p*", hook="script", permute=False,
    info="--version -v --help -h --copyright",
    danger={"-e: -r: --require: -n -p -i::": INLINE}))
define("perl perl5", lambda: prog(
    "-wWXtTUsSdx:: -C:: -I:n", args="p*", hook="script", permute=False,
    info="-v -V --version --help -h",
    danger={"-e: -E: -M: -m: -n -p -i:: -a -F: -0:: -l::": INLINE,
            "-c": "compiles the script (its BEGIN and use blocks run code)"}))
define("php", lambda: prog(
    "-nqHC -c:n -d: -l -z: --no-php-ini --php-ini:n --define: --syntax-check",
    args="p*", hook="script", permute=False, info="-v --version --help -h -m -i --ini",
    danger={"-r: --run: -B: -R: -F: -E: --process-begin: --process-code: "
            "--process-file: --process-end: -a --interactive": INLINE,
            "-S: --server: -t:": "listens for connections (serves files to the network)"}))
define("lua luajit", lambda: prog("-i -W -E", args="p*", hook="script", permute=False,
                                  info="-v --version -h",
                                  danger={"-e: -l:": INLINE}))
define("Rscript R", lambda: prog("--vanilla --no-save --no-restore --quiet --slave "
                                 "--no-environ --no-site-file --no-init-file -q -s",
                                 args="p*", hook="script", permute=False,
                                 info="--version --help",
                                 danger={"-e: --expr:": INLINE}))
define("julia", lambda: prog("-q --quiet --project:: --threads: -t: --color: --banner: "
                             "--startup-file: --history-file: --compile: -O:: --check-bounds:",
                             args="p*", hook="script", permute=False,
                             info="--version -v --help -h",
                             danger={"-e: -E: --eval: --print: -L: --load:": INLINE}))
define("pwsh powershell", lambda: prog(
    "-NoLogo -NoProfile -NonInteractive -NoExit -Version", single=True, args="p*",
    hook="script", permute=False, info="-Version --version -v -h -Help -?",
    danger={"-c: -Command: -EncodedCommand: -e: -ec:": INLINE}))
define("osascript", lambda: prog("-l: -s:", args="p*", hook="script",
                                 danger={"-e:": INLINE}))
define("tclsh wish expect jshell irb ghci runghc guile racket sbcl scala kotlin swift "
       "elixir iex escript ocaml groovy ts-node tsx erl jrunscript clisp gst pry", lambda: prog(
           args="p*", raw=True, hook="script", info="--version -v -version -V --help -h"))
define("gcc g++ cc c++ clang clang++ gcc-12 gcc-13 gcc-14 tcc icc icx", lambda: prog(
    args="p*", raw=True, hook="compiler"))
define("ld ld.lld ld.gold ld.bfd lld", lambda: prog(args="p*", raw=True, hook="compiler"))
define("as", lambda: prog(args="p*", raw=True, hook="compiler"))
define("rustc", lambda: prog(args="p*", raw=True, hook="rustc"))
define("javac", lambda: prog(args="p*", raw=True, hook="java"))
define("java", lambda: prog(args="p*", raw=True, hook="java"))
define("tsc", lambda: prog(args="p*", raw=True, hook="tsc"))
define("javap", lambda: prog(
    "-c -l -s -p -v -public -protected -package -private -constants -verbose -sysinfo "
    "-version -help -cp: -classpath: --class-path: --module-path: -bootclasspath: "
    "--module: -m: --multi-release: -J*", single=True, args="r*"))
define("pkg-config pkgconf", lambda: prog(
    "--modversion --version --cflags --cflags-only-I --cflags-only-other --libs "
    "--libs-only-L --libs-only-l --libs-only-other --static --exists --atleast-version: "
    "--exact-version: --max-version: --list-all --list-package-names --print-errors "
    "--short-errors --silence-errors --errors-to-stdout --print-variables --variable: "
    "--define-variable: --print-requires --print-requires-private --print-provides "
    "--validate --path --debug --uninstalled --keep-system-cflags --keep-system-libs "
    "--atleast-pkgconfig-version:", args="p*"))
define("dotnet", lambda: prog(args="p*", raw=True, hook="dotnet"))
define("make gmake bmake", lambda: prog(args="p*", raw=True, hook="make"))
define("cmake", lambda: prog(args="p*", raw=True, hook="cmake"))
define("ninja samu", lambda: prog(args="p*", raw=True, hook="ninja"))
define("mvn mvnw ./mvnw gradle gradlew ./gradlew ant sbt bazel bazelisk buck meson scons "
       "rake tox nox pytest py.test hatch pdm invoke doit task just mise asdf direnv "
       "pre-commit", lambda: prog(args="p*", raw=True, hook="build", info=""))
define("vim vi nvim ex view gvim vimdiff rvim rview evim emacs emacsclient nano pico ed "
       "kak hx micro joe mg jed ne code subl gedit kate", lambda: prog(
           args="p*", raw=True, hook="editor", info="--version -v --help -h -V"))
LINT = "--version --help -h -V"
define("shellcheck yamllint hadolint actionlint pycodestyle pydocstyle vulture cppcheck "
       "jsonlint flake8 codespell markdownlint mdl checkmake tflint ktlint stylelint "
       "pyflakes bandit gitleaks typos lychee", lambda: prog(
           args="p*", raw=True, hook="linter", info=LINT))
define("trufflehog", lambda: prog(args="p*", raw=True, hook="trufflehog",
                                  info="--version --help -h --help-long"))
define("ruff black isort gofmt goimports rustfmt autopep8 yapf shfmt clang-format "
       "prettier dprint taplo stylua biome buildifier terraform-fmt mypy pylint eslint "
       "pyright", lambda: prog(args="p*", raw=True, hook="formatter", info=LINT))
