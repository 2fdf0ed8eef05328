"""Grammars of package managers: their listing and query verbs read; installing runs the
packages' install scripts (asks), removing destroys (dangerous), options that name an
interpreter, a shell for scripts or a config file of hooks are dangerous."""

from __future__ import annotations

from swebash.safety.classify.grammar import Spec, Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)


def does(effect: str, dangerous: bool = False, hook: str = "") -> Spec:
    """A verb that changes the system or the project (its options are not modelled)."""
    return prog(args="p*", raw=True, effect=effect, dangerous=dangerous, hook=hook)


def reads(options: str = "", args: str = "p*", **kw: object) -> Spec:
    return prog(options, args=args, inherits=True, **kw)  # type: ignore[arg-type]


INSTALL = "installs packages (their install scripts run)"
SYSTEM_INSTALL = "installs or upgrades packages for the whole system or your account (code " \
    "from a download runs)"
CONFIG = "changes where the package manager gets code from or how it runs it"
REMOVE = "removes packages"
PUBLISHES = "publishes a package to an index (it cannot be taken back)"
RUNS_PACKAGE = "runs a package it may download"
PIP_GLOBAL = ("-vqV --debug --isolated --require-virtualenv --verbose --version --quiet "
              "--no-input --timeout: --retries: --exists-action: --trusted-host: --cert:m "
              "--client-cert:m --cache-dir:n --no-cache-dir --disable-pip-version-check "
              "--no-color --no-python-version-warning --use-feature: --use-deprecated: "
              "--resume-retries: --keyring-provider: --root-user-action: --log:w "
              "--log-file:w --progress-bar: -i: --index-url: --extra-index-url: --no-index "
              "-f: --find-links: --pre")


def pip() -> Spec:
    return prog(
        PIP_GLOBAL, info="--version -V --help -h",
        danger={"--python:": "runs the Python interpreter it is given"},
        ask={"--proxy:": "goes through a proxy"},
        subs={
            "list": reads("-oueld --outdated --uptodate --editable --local --user --path:n "
                          "--format: --not-required --exclude-editable --include-editable "
                          "--exclude:"),
            "show": reads("-f --files --verbose"),
            "freeze": reads("-lr: --requirement:r --local --user --path:n --all "
                            "--exclude-editable --exclude:", args=""),
            "check inspect debug help": reads("--local --user --path:n --platform: "
                                              "--python-version: --implementation: --abi:"),
            "index": prog(subs={"versions": reads("--platform: --python-version: "
                                                  "--implementation: --abi: --json")},
                          inherits=True),
            "config": prog("--global --user --site --editor:", inherits=True, subs={
                "list get debug": reads(),
                "set unset edit": does("changes pip's configuration", True)}),
            "cache": prog(subs={"dir info list": reads("--format:"),
                                "purge remove": does("deletes pip's cache", True)},
                          inherits=True),
            "hash": reads("-a: --algorithm:", args="r+"),
            "install": does(INSTALL, hook="pip_install"),
            "download wheel": does("downloads or builds packages (their build scripts "
                                   "run)", hook="pip_install"),
            "uninstall": does(REMOVE, True),
        })


define("pip pip3 pip2", pip)
define("uv", lambda: prog(
    "-qvn --quiet --verbose --no-cache --cache-dir:n --color: --offline --no-progress "
    "--directory:n --project:n --native-tls --preview --no-config --config-file:r",
    info="--version -V --help -h",
    subs={"pip": prog(subs={
        "list show freeze check tree": reads("-e --editable --exclude-editable --strict "
                                             "--format: --outdated --files --python:n "
                                             "--system --depth: --prune: --invert "
                                             "--no-dedupe --show-version-specifiers"),
        "install sync": does(INSTALL, hook="uv_pip_install"),
        "compile": does("resolves and writes a requirements file"),
        "uninstall": does(REMOVE, True)}),
        "python": prog(subs={"list find dir": reads("--only-installed --all-versions "
                                                    "--all-platforms --system")},
                       inherits=True),
        "version": reads("--short --output-format:", args=""),
        "cache": prog(subs={"dir": reads(), "clean prune": does("deletes uv's cache", True)},
                      inherits=True),
        "tool": prog(subs={"list dir": reads("--show-paths --show-version-specifiers"),
                           "run": prog(args="x", inherits=True, effect=RUNS_PACKAGE),
                           "install upgrade update-shell": does(SYSTEM_INSTALL, True),
                           "uninstall": does(REMOVE, True)}, inherits=True),
        "self": does("updates uv itself", True),
        "publish": does("publishes the package", True),
        "run": prog("--with: --with-requirements:r --python: -p: --no-project --isolated "
                    "--frozen --locked --no-sync --package: --all-packages --extra: "
                    "--all-extras --no-dev --group: --only-group: --module -m --script "
                    "--env-file:r --no-env-file", args="x", inherits=True,
                    effect="runs a command in the project's environment"),
        "add remove sync lock init build venv export tree generate-shell-completion":
            does("runs or changes the project's environment")}))
define("pipx", lambda: prog(
    "-q -v --quiet --verbose",
    subs={"list environment": reads("--include-injected --json --short --value:"),
          "run": does(RUNS_PACKAGE, True), "uninstall uninstall-all": does(REMOVE, True),
          "ensurepath": does("edits your shell startup files", True),
          "install install-all upgrade upgrade-all reinstall reinstall-all inject uninject "
          "runpip upgrade-shared": does(SYSTEM_INSTALL, True),
          "completions": reads()}))
define("poetry", lambda: prog(
    "-nqvV --no-interaction --quiet --verbose --no-ansi --ansi --no-plugins --no-cache "
    "--directory:n -C:n --project:n -P:n", info="--version -V --help -h",
    subs={"show": reads("-tlo --tree --latest --outdated --top-level --why --only: "
                        "--with: --without: --all --no-truncate"),
          "check": reads("--lock --strict"), "about": reads(),
          "env": prog(subs={"info list": reads("-p --path --full-path -e --executable")},
                      inherits=True),
          "version": reads("-s --short --dry-run", args="",),
          "config": reads("--list --local --unset", args="p*", hook="poetry_config"),
          "publish": does("publishes the package", True),
          "remove cache": does("removes packages or deletes the cache", True),
          "run shell install add update lock build init new export self source search "
          "debug sync": does("runs or changes the project's environment")}))
define("conda mamba micromamba", lambda: prog(
    "-qvy --quiet --verbose --json --yes -n: -p:n --name: --prefix:n",
    info="--version -V --help -h",
    subs={"list": reads("-e --export --explicit --revisions --full-name -c --canonical "
                        "--md5 --show-channel-urls"),
          "info": reads("-e -a -s --envs --all --system --base --unsafe-channels"),
          "search": reads("-i --info -c: --channel: --override-channels --platform:"),
          "env": prog(subs={"list": reads(), "export": reads("--no-builds --from-history "
                                                             "-f:w --file:w")},
                      inherits=True),
          "config": reads("--show --show-sources --describe --get --validate", args="p*",
                          hook="conda_config"),
          "run": prog("--live-stream --no-capture-output --cwd:n", args="x", inherits=True,
                      effect="runs a command in an environment"),
          "remove uninstall clean": does(REMOVE, True),
          "install update upgrade": does(SYSTEM_INSTALL, True),
          "init": does("edits your shell startup files", True),
          "create activate deactivate": does(INSTALL)}))
NPM_GLOBAL = ("-gsqdpla --global --json --prefix:n --loglevel: --silent --quiet --verbose "
              "--color: --no-color --unicode --workspace: -w: --workspaces "
              "--include-workspace-root --omit: --include: --production --no-fund "
              "--no-audit --offline --prefer-offline --prefer-online --cache:n --depth: "
              "--parseable --long --all --registry: --dd -dd --timing --no-progress")


def npm() -> Spec:
    read = reads
    return prog(
        NPM_GLOBAL, info="--version -v --help -h",
        danger={"--script-shell: --node-options:": "sets the shell or options scripts run "
                                                   "with"},
        ask={"--userconfig:r --globalconfig:r": "reads configuration from a file"},
        subs={"ls list ll la": read("--link --dev --prod --only: --package-lock-only "
                                    "--expand-peer-deps --install-links"),
              "view info show v": read(), "outdated": read(),
              "help help-search": read(), "root prefix": read(), "why explain": read(),
              "search s se find": read("--searchlimit: --searchopts: --searchexclude: "
                                       "--description --no-description"),
              "fund": read("--which:"), "query": read(), "sbom": read("--sbom-format: "
                                                                      "--sbom-type:"),
              "ping whoami": read(), "audit": read("--audit-level: --package-lock-only",
                                                  hook="npm_audit"),
              "config c": prog(subs={"list ls get": read(hook="npm_config_get"),
                                     "set delete edit fix": does("changes npm's "
                                                                 "configuration", True)},
                               inherits=True),
              "pkg": prog(subs={"get": read(),
                                "set": does("edits package.json", hook="npm_pkg_set"),
                                "delete fix": does("edits package.json")},
                          inherits=True),
              "version": read(args="", hook=""),
              "run run-script rum urn": prog("--if-present --ignore-scripts",
                                             args="p*", inherits=True,
                                             effect="lists or runs the project's scripts"),
              "token": does("lists or changes access tokens", True),
              "publish unpublish deprecate dist-tag owner access": does(
                  "publishes or changes packages on the registry", True),
              "uninstall rm r un remove unlink prune": does(REMOVE, True),
              "cache": prog(subs={"ls verify": read(),
                                  "clean add": does("changes npm's cache", True)},
                            inherits=True),
              "exec x explore": does(RUNS_PACKAGE, True),
              "install i in add ci install-test it update up upgrade link ln dedupe ddp "
              "rebuild rb": does("runs the project's scripts or changes its packages",
                                 hook="js_global"),
              "set-script": does("changes a script the project runs (package.json)", True),
              "test t tst start stop restart init create edit team org star unstar pack "
              "shrinkwrap hook doctor diff repo docs bugs home completion stars "
              "install-ci-test cit": does("runs the project's scripts or changes its "
                                          "packages"),
              "login logout adduser": does("logs in to or out of the registry", True),
              "set": does("changes npm's configuration", True)})


define("npm", npm)
define("npx pnpx bunx", lambda: prog(args="p*", raw=True, effect=RUNS_PACKAGE,
                                     dangerous=True, info="--version -v --help -h"))
# Every yarn command, even --version, first runs the `yarnPath` a project's .yarnrc.yml names:
# nothing of yarn is read-only inside a project.
YARN_RUNS = "runs the yarn release the project names (.yarnrc.yml yarnPath) first"
define("yarn", lambda: prog(
    "-s --silent --json --verbose --cwd:n --offline --no-progress", info="",
    effect=YARN_RUNS,
    subs={"list ls info why outdated licenses versions bin workspaces": reads(
        "--depth: --pattern: --all --recursive"),
        "config": prog(subs={"get list": reads(), "set delete unset": does(
            CONFIG, True)}, inherits=True),
        "dlx exec": does(RUNS_PACKAGE, True), "remove": does(REMOVE, True),
        "global": does(SYSTEM_INSTALL, True),
        "publish": does(PUBLISHES, True),
        "npm": prog(subs={"publish": does(PUBLISHES, True),
                          "info whoami audit": reads()}),
        "run add install upgrade up link unlink test start build init pack cache "
        "import set plugin node constraints dedupe": does(
            "runs the project's scripts or changes its packages")}))
define("pnpm", lambda: prog(
    "-r -w --recursive --json --silent --dir:n -C:n --filter: -F: --workspace-root",
    info="--version -v --help -h",
    subs={"ls list ll why outdated licenses root bin audit store": reads(
        "--depth: --long --parseable --prod --dev --global -g -P -D"),
        "config": prog(subs={"get list": reads(), "set delete": does(
            CONFIG, True)}, inherits=True),
        "dlx exec": does(RUNS_PACKAGE, True), "remove rm uninstall un prune": does(REMOVE,
                                                                                True),
        "install i add update up link": does(
            "runs the project's scripts or changes its packages", hook="js_global"),
        "setup env": does(SYSTEM_INSTALL, True),
        "publish": does(PUBLISHES, True),
        "pkg": prog(subs={"get": reads(), "set": does("edits package.json",
                                                      hook="npm_pkg_set"),
                          "delete fix": does("edits package.json")}),
        "run test start unlink import rebuild pack deploy patch init create fetch":
            does("runs the project's scripts or changes its packages")}))
define("bun", lambda: prog(
    "", info="--version -v --help -h --revision",
    danger={"-e: --eval: -p: --print:": "runs inline code"},
    subs={"pm": prog(subs={"ls bin hash cache": reads("--all")}),
          "install i add update link": does("runs code or changes packages",
                                            hook="js_global"),
          "upgrade": does("upgrades bun itself", True),
          "remove rm": does(REMOVE, True),
          "publish": does(PUBLISHES, True),
          "run x unlink test build create init patch outdated": does(
              "runs code or changes packages", hook="runner_files")}))
define("deno", lambda: prog(
    "-q --quiet --log-level:", info="--version -V --help -h",
    subs={"eval": does("runs inline code", True),
          "info doc": reads("--json"), "lint": reads("--json --compact --rules"),
          "fmt": reads("--check --ext:", hook="formatter"),
          "run task test bench repl compile install uninstall upgrade cache vendor "
          "add remove jupyter": does("runs code or changes packages",
                                     hook="deno_remote"),
          "serve": does("listens for connections (runs a server)", True),
          "publish": does(PUBLISHES, True)}))
define("cargo", lambda: prog(
    "-vq --verbose --quiet --color: --frozen --locked --offline -Z:",
    info="--version -V --help -h --list",
    danger={"--config:": "sets configuration (a runner or linker runs a program)"},
    subs={"search": reads("--limit: --index: --registry:"),
          "locate-project verify-project read-manifest pkgid help version": reads(
              "--workspace --message-format: --manifest-path:n -p: --package:"),
          "clean": does("deletes build output", True),
          "publish yank owner logout": does("publishes or changes packages on the "
                                            "registry", True),
          "uninstall remove rm": does(REMOVE, True),
          "fmt": reads("--all --check -p: --package: --manifest-path:n --message-format: "
                       "-- --edition:", hook="formatter"),
          "install binstall": does(SYSTEM_INSTALL, True),
          "login": does("stores a registry token", True),
          "tree": reads("-p: --package: --workspace --exclude: -i: --invert: --prune: "
                        "--depth: -e: --edges: --prefix: --no-dedupe -d --duplicates "
                        "--charset: -f: --format: --target: --all-targets -F: --features: "
                        "--all-features --no-default-features --manifest-path:n",
                        hook="cargo_resolve"),
          "metadata": reads("--no-deps --format-version: --filter-platform: -F: --features: "
                            "--all-features --no-default-features --manifest-path:n",
                            hook="cargo_resolve"),
          "build b check c test t run r bench doc clippy add update "
          "fix generate-lockfile fetch vendor package new init rustc rustdoc "
          "report": does("builds or runs the project (build scripts run)")}))
define("rustup", lambda: prog(
    "-vq --verbose --quiet", info="--version -V --help -h",
    subs={"show": prog(subs={"active-toolchain home profile": reads()}, inherits=True,
                       verb_optional=True),
          "toolchain target component": prog(subs={
              "list": reads("--installed -v --verbose"),
              "install add link": does(SYSTEM_INSTALL, True),
              "uninstall remove": does(REMOVE, True)}, inherits=True),
          "which": reads("--toolchain:"), "default override": reads(args="", hook=""),
          "run": does("runs a command with a toolchain"),
          "update install self set": does(SYSTEM_INSTALL, True),
          "uninstall": does(REMOVE, True),
          "check doc man completions": does("changes toolchains")}))
define("go", lambda: prog(
    "", info="version help --help -h",
    subs={"version": reads("-m -v"),
          "env": reads("-json -changed", single=True,
                       danger={"-w -u": "changes Go's configuration (proxies, flags and "
                                        "the toolchain it runs)"}),
          "list": reads("-m -json -e -f: -find -deps -u -versions -retracted -reuse: "
                        "-mod: -modfile:n -tags: -buildvcs: -test",
                        single=True, danger={"-toolexec: -exec:": "runs the program it is "
                                                                  "given"},
                        ask={"-compiled -export -pgo:": "builds packages"}),
          "doc": reads("-all -c -cmd -short -src -u", single=True),
          "mod": prog(subs={"graph why verify": reads("-m -vendor -json -go: -x",
                                                      single=True),
                            "download tidy edit init vendor": does("changes go.mod or "
                                                                   "downloads modules")}),
          "clean": does("deletes build caches", True),
          "install": does(SYSTEM_INSTALL, True),
          "build run test generate get vet fmt fix work tool bug telemetry":
              does("builds or runs code", hook="go_exec")}))
define("gem", lambda: prog(
    "-q -V --quiet --verbose --no-verbose", info="--version -v --help -h",
    subs={"list search info env contents specification which outdated dependency query "
          "help": reads("-l -r -b -a -d -i -e --local --remote --both --all --details "
                        "--installed --exact --prerelease --versions -v:"),
          "uninstall cleanup yank push owner": does("removes or publishes gems", True),
          "install update": does(SYSTEM_INSTALL, True),
          "sources": prog("-l --list", inherits=True, hook="gem_sources"),
          "signin signout": does("stores or removes a registry token", True),
          "build cert fetch unpack pristine rdoc open exec": does(INSTALL)}))
define("bundle bundler", lambda: prog(
    "-V --verbose --no-color", info="--version -v --help -h version",
    subs={"list show info outdated check platform licenses": prog(
        "--paths --name-only --only-explicit --strict --parseable --dry-run --gemfile:r",
        args="p*", inherits=True, effect="loads the project's Gemfile (Ruby code runs)"),
        "config": reads("--global --local --list --get", args="p*",
                        hook="bundle_config"),
        "exec x": prog("--keep-file-descriptors", args="x", inherits=True,
                       effect="runs a command in the bundle"),
        "clean remove": does(REMOVE, True),
        "install i update add lock cache package binstubs init gem open console doctor "
        "pristine plugin": does(INSTALL)}))
APT_READ = ("-qa --quiet --all-versions --installed --upgradable --manual-installed "
            "--names-only --full --no-all-versions")
APT_DANGER = {"-o: --option: -c: --config-file:": "sets apt options (hooks run programs)"}
define("add-apt-repository apt-key", lambda: prog(
    args="p*", raw=True, effect="adds a package source or signing key (every later "
    "install trusts it)", dangerous=True))
define("apt", lambda: prog(
    "-qy --quiet --yes", info="--version -v --help -h", danger=APT_DANGER,
    subs={"list show search policy depends rdepends showsrc madison": reads(APT_READ),
          "remove purge autoremove autopurge": does(REMOVE, True, "apt_options"),
          "install reinstall upgrade full-upgrade dist-upgrade edit-sources satisfy "
          "build-dep": does(SYSTEM_INSTALL, True, "apt_options"),
          "update source download clean autoclean changelog": does(
              "refreshes package lists or downloads packages", hook="apt_options")}))
define("aptitude", lambda: prog(
    "-qy --quiet --yes -s --simulate -v --verbose", info="--version --help -h",
    danger=APT_DANGER,
    subs={"search show versions why why-not changelog": reads(APT_READ),
          "remove purge markauto unmarkauto hold unhold forbid-version keep keep-all":
              does(REMOVE, True),
          "install reinstall upgrade safe-upgrade full-upgrade dist-upgrade build-dep":
              does(SYSTEM_INSTALL, True),
          "update download clean autoclean forget-new": does(
              "refreshes package lists or downloads packages")}))
define("apt-get", lambda: prog(
    "-qy --quiet --yes", info="--version -v --help -h", danger=APT_DANGER,
    subs={"check": reads(),
          "remove purge autoremove autopurge clean autoclean": does(REMOVE, True,
                                                                    "apt_options"),
          "install reinstall upgrade dist-upgrade full-upgrade build-dep satisfy "
          "dselect-upgrade": does(SYSTEM_INSTALL, True, "apt_options"),
          "update source download changelog markauto unmarkauto": does(
              "refreshes package lists or downloads packages", hook="apt_options")}))
define("apt-cache", lambda: prog(
    "-qainf --quiet --all-versions --installed --names-only --full --recurse "
    "--no-pre-depends --no-depends --no-recommends --no-suggests --no-conflicts "
    "--no-breaks --no-replaces --no-enhances --important", danger=APT_DANGER,
    info="--version -v --help -h",
    subs={"policy show search depends rdepends madison showpkg stats dump dumpavail "
          "unmet pkgnames showsrc xvcg dotty": reads(APT_READ),
          "gencaches": does("rebuilds the package cache")}))
define("apt-file", lambda: prog(
    "-x -F -i -l -v -a: -c: -D -I: -N -s: --regexp --fixed-string --ignore-case "
    "--package-only --verbose --architecture: --cache: --from-deb --index-names: "
    "--non-interactive --sources-list: --filter-suites: --filter-origins:",
    danger=APT_DANGER, info="--version --help -h",
    subs={"search find list show": reads(),
          "update": does("downloads the Contents indices into the system's cache", True)}))
define("apt-mark", lambda: prog(subs={"showauto showmanual showhold showinstall showremove "
                                      "showpurge": reads(),
                                      "auto manual hold unhold minimize-manual": does(
                                          "changes package marks")}))
define("dpkg", lambda: prog(
    "-l -L -s -S -p -C -c:r -I:r -f:r --list --listfiles --status --search --print-avail "
    "--audit --print-architecture --print-foreign-architectures --get-selections "
    "--compare-versions --contents:r --info:r --field:r --verify --no-pager --admindir:n",
    args="p*", info="--version --help -?",
    danger={"-r --remove -P --purge --clear-selections --clear-avail --forget-old-unavail "
            "--remove-architecture": REMOVE,
            "--root: --instdir:": "installs into another root",
            "-i --install --unpack --configure": "installs a package file (its scripts run "
                                                 "as root)",
            "-x: --extract: -X: --vextract:": "extracts files (they may overwrite "
                                                "existing ones)"},
    ask={"--set-selections --add-architecture "
         "--update-avail --merge-avail --triggers-only --force-all --force-depends -R "
         "--recursive": INSTALL}))
define("dpkg-query", lambda: prog(
    "-l -L -s -S -p -W -c -f: --list --listfiles --status --search --print-avail --show "
    "--showformat: --control-path --control-list --control-show --load-avail --no-pager "
    "--admindir:n", args="p*"))
define("rpm", lambda: prog(
    "-qailfRcdpKV --query --all --info --list --file --requires --configfiles --docfiles "
    "--package --changelog --provides --scripts --whatprovides --whatrequires --last "
    "--verify --checksig --dump --state --triggers --qf: --queryformat: --nosignature "
    "--nodigest --xml --changes --conflicts --obsoletes --recommends --suggests "
    "--supplements --enhances --filesbypkg --fileclass --filecolor --fileprovide "
    "--filerequire --whatconflicts --whatobsoletes -g: --group: -v -h --hash --percent "
    "--test --nodeps --force --excludedocs --oldpackage",
    args="p*", hook="rpm", info="--version --help",
    danger={"-D: --define: -E: --eval: --macros: --rcfile: --load: --predefine: "
            "--dbpath: --root: --pipe:": "evaluates macros or uses another database "
                                         "(macros can run programs)",
            "-e --erase": REMOVE,
            "--install -U --upgrade --freshen -F --reinstall --import": SYSTEM_INSTALL},
    ask={"--rebuilddb --initdb --setperms --setugids --restore": INSTALL}))
for manager in ("dnf yum microdnf tdnf", "zypper"):
    define(manager, lambda: prog(
        "-qvyCb --quiet --verbose --assumeyes --cacheonly --best --nogpgcheck "
        "--disablerepo: --enablerepo: --repo: --releasever: -x: --exclude: --installroot:n "
        "--refresh --non-interactive -n --no-refresh --terse -t -s --xmlout",
        info="--version --help -h",
        danger={"-c: --config: --setopt: --plugins --enableplugin: --disableplugin:":
                "changes the package manager's configuration"},
        subs={"list info search repolist provides whatprovides repoquery check-update "
              "deplist updateinfo history se if lu list-updates packages pa repos lr "
              "patterns pt products pd patches lp": reads(
                  "--installed --available --updates --upgrades --extras --obsoletes "
                  "--recent --all --showduplicates --userinstalled -i --requires "
                  "--whatrequires --queryformat: --qf:"),
              "remove erase autoremove rm clean": does(REMOVE, True),
              "install reinstall update upgrade downgrade distro-sync dup group module "
              "swap in up patch localinstall groupinstall addrepo ar config-manager":
                  does(SYSTEM_INSTALL, True),
              "makecache mark ref refresh": does("refreshes package metadata")}))
define("brew", lambda: prog(
    "-dqv --debug --quiet --verbose", info="--version -v --help -h",
    subs={"list ls info abv search outdated config deps leaves desc uses doctor dr "
          "--prefix --cellar --repository --caskroom --cache --env --version commands "
          "cat shellenv log tap-info formulae casks missing": reads(
              "--installed --recursive --tree --json: --json --formula --cask --versions "
              "--pinned --multiple --full-name -1 -l -r -t --greedy --quiet --verbose "
              "--include-build --include-optional --installed-on-request --all --eval-all "
              "--desc --name --oneline"),
          "uninstall remove rm cleanup untap autoremove": does(REMOVE, True),
          "install reinstall upgrade update tap link unlink pin unpin bundle postinstall "
          "migrate": does(SYSTEM_INSTALL, True),
          "services": does("starts or stops services", True),
          "edit create extract home homepage": does(INSTALL)}))
define("snap", lambda: prog(
    info="--version version --help -h",
    subs={"list info find version services connections interfaces changes tasks aliases "
          "model whoami warnings known saved": reads("--all --verbose --color: --unicode: "
                                                     "--abs-time"),
          "remove": does(REMOVE, True),
          "install refresh revert enable disable start stop restart connect disconnect "
          "alias unalias set unset login logout ack save forget restore prefer switch":
              does(SYSTEM_INSTALL, True),
          "run get download": does(INSTALL)}))
define("flatpak", lambda: prog(
    "-v --verbose --user --system --installation: --ostree-verbose",
    info="--version --help -h",
    subs={"list info search remotes remote-ls history ps documents permissions "
          "permission-show": reads("--app --runtime --columns: --show-details --all "
                                   "--updates --json -a -d"),
          "uninstall remove remote-delete": does(REMOVE, True),
          "install update override remote-add remote-modify kill repair mask pin "
          "make-current config": does(SYSTEM_INSTALL, True),
          "run enter": does("runs an application")}))
define("pacman yay paru", lambda: prog(args="p*", raw=True, hook="pacman"))
define("apk", lambda: prog(
    "-qv --quiet --verbose --no-cache --root:n -X: --repository:", info="--version -V --help",
    subs={"info list search policy dot stats version audit": reads(
        "-a -d -L -R -P -r -s -w -e -I -v --all --depends --contents --provides "
        "--rdepends --size --webpage --installed --upgradable --exact --description "
        "--origin"),
        "del delete": does(REMOVE, True),
        "add upgrade fix": does(SYSTEM_INSTALL, True),
        "update cache fetch manifest": does("refreshes package indexes or downloads "
                                            "packages")}))
define("nix-env", lambda: prog(args="p*", raw=True, hook="nix_env"))
define("nix", lambda: prog(
    "--version --help", subs={"search": reads("--json --exclude: -e:"),
                              "flake": prog(subs={"show metadata info": reads("--json")}),
                              "profile": prog(subs={
                                  "list history diff-closures": reads("--json"),
                                  "install add upgrade remove rollback wipe-history":
                                      does(SYSTEM_INSTALL, True)}),
                              "run shell develop build eval repl": does(
                                  "builds or runs code (Nix expressions can run "
                                  "programs)"),
                              "--version": reads()},
    danger={"--option: --extra-experimental-features: --impure": "changes Nix's settings"}))
define("composer", lambda: prog(
    "-qvn --quiet --verbose --no-interaction --no-ansi --ansi --no-plugins --no-cache "
    "-d:n --working-dir:n", info="--version -V --help -h",
    subs={"show info outdated licenses depends why prohibits why-not validate "
          "check-platform-reqs about fund suggests search browse diagnose audit": reads(
              "--all --installed -i --self --tree -t --latest -l --outdated -o --direct -D "
              "--format: -f: --no-dev --strict --locked --minor-only --available -a"),
          "config": reads("--list -l --global -g --editor -e --unset --auth -a --absolute",
                          args="p*", hook="composer_config"),
          "remove rm clear-cache clearcache cc": does(REMOVE, True),
          "global self-update selfupdate": does(SYSTEM_INSTALL, True),
          "install i update u upgrade require r run-script run exec create-project "
          "dump-autoload dumpautoload init archive reinstall bump list": does(INSTALL)}))
define("corepack", lambda: prog(
    "", info="--version -v --help -h",
    subs={"enable disable install prepare use up hydrate pack": does(
        "installs package-manager shims or releases for your whole account", True)}))
define("emerge xbps-install opkg guix mas pkgin pkg_add eopkg swupd slackpkg urpmi "
       "pkcon", lambda: prog(args="p*", raw=True, hook="system_install",
                             info="--version --help -h -V"))
