"""Grammars of the long tail: more package managers, build tools and compilers, Kubernetes
and cloud tools, tracers and profilers, archivers, moreutils, text tools, and proxies that
wrap a command. Most follow a few shapes, so they are built by small helpers: a package
manager whose listing verbs read, a build tool that asks, a live-infrastructure CLI whose
read verbs have a shape, a wrapper whose command is judged."""

from __future__ import annotations

from swebash.safety.classify.grammar import Spec, Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)


PUBLISHES = "publishes a package to an index (it cannot be taken back)"


def manager(reads: str, removes: str, installs: str, flags: str = "",
            system: str = "", publish: str = "") -> Spec:
    """A package manager: listing verbs read, removing is dangerous, installing into the
    project asks, installing for the whole system or account (``system``) and publishing
    (``publish``) are dangerous."""
    subs = {reads: prog(flags, args="p*", inherits=True)}
    if publish:
        subs[publish] = prog(args="p*", raw=True, effect=PUBLISHES, dangerous=True)
    if removes:
        subs[removes] = prog(args="p*", raw=True, effect="removes packages", dangerous=True)
    if installs:
        subs[installs] = prog(args="p*", raw=True,
                              effect="installs packages (their install scripts run)")
    if system:
        subs[system] = prog(args="p*", raw=True, dangerous=True,
                            effect="installs or upgrades packages for the whole system or "
                                   "your account (code from a download runs)")
    return prog("-q -v --quiet --verbose --json --help -h", subs=subs,
                info="--version -v -V version --help -h")


define("luarocks", lambda: manager("list show search path config doc which",
                                   "remove purge", "build download pack init",
                                   system="install make", publish="upload"))
define("cpanm cpan", lambda: prog(args="p*", raw=True, hook="system_install",
                                  info="--version -v -V --help -h"))
define("cabal", lambda: manager("list info check outdated", "", "build run test "
                                "exec update repl init configure sdist",
                                system="install", publish="upload"))
define("stack", lambda: manager("ls list path query ide", "purge clean",
                                "build run test exec ghci repl new init",
                                system="install setup upgrade"))
define("mix", lambda: manager("deps.tree hex.info deps", "deps.clean",
                              "help deps.get compile test run phx.server format",
                              publish="hex.publish",
                              system="escript.install archive.install local.hex "
                                     "local.rebar"))
define("rebar3", lambda: manager("tree deps help version", "clean", "compile eunit ct "
                                 "shell release get-deps upgrade"))
define("opam", lambda: manager("list show search env config var", "remove uninstall",
                               "exec source", system="install upgrade update pin init "
                                                     "switch"))
define("conan", lambda: manager("list search inspect info graph profile", "remove",
                                "install create build export source", publish="upload"))
define("vcpkg", lambda: manager("list search depend-info owns", "remove",
                                "install upgrade integrate export"))
define("pipenv", lambda: manager("graph --where --venv --py requirements check",
                                 "uninstall --rm clean", "install sync update lock run "
                                 "shell"))
define("rye", lambda: manager("list show version", "remove",
                              "add sync run fetch build init",
                              system="install toolchain self", publish="publish"))
define("pip-compile pip-sync pip-audit", lambda: prog(
    args="p*", raw=True, hook="build", info="--version --help -h"))
define("port", lambda: manager("installed list info search outdated deps rdeps contents "
                               "provides echo", "uninstall clean", "",
                               system="install upgrade selfupdate sync activate "
                                      "deactivate"))
define("pkg", lambda: manager("info query search audit which version stats check",
                              "delete remove autoremove clean", "fetch",
                              system="install upgrade update add"))
define("choco winget scoop nuget", lambda: manager(
    "list search info show find export status", "uninstall remove", "download",
    system="install upgrade update add import", publish="push"))
define("nasm yasm ghc zig swiftc kotlinc scalac nvcc esbuild webpack vite rollup parcel "
       "babel swc msbuild xcodebuild autoconf automake autoreconf libtool configure "
       "./configure turbo nx lerna rush next nuxt ng ember gatsby", lambda: prog(
           args="p*", raw=True, hook="build", info="--version -v -V --help -h version"))
define("ccache sccache distcc icecc", lambda: prog(args="p*", raw=True, hook="compiler_cache",
                                                   info="--version -V --help -h"))
define("proxychains proxychains4 torsocks tsocks torify", lambda: prog(
    "-q -f:r", args="x?", permute=False, hook="launcher",
    effect="sends the command's traffic through a proxy", dangerous=True))
define("hyperfine", lambda: prog(
    "-w: -r: -m: -M: -p:c -c:c -s:c -i -u: -N -n: --warmup: --runs: --min-runs: "
    "--max-runs: --prepare:c --conclude:c --cleanup:c --setup:c --ignore-failure "
    "--time-unit: --style: --sort: --command-name: --show-output --input:r "
    "--parameter-scan: --parameter-step-size: --parameter-list: -P: -D: -L:",
    args="c+", ask={"--export-json:w --export-csv:w --export-markdown:w "
                    "--export-asciidoc:w --export-orgmode:w --output:w":
                    "writes its results to a file"},
    danger={"-S: --shell:": "runs the commands with the shell it is given"}))
define("bpftrace", lambda: prog(args="p*", raw=True,
                                effect="runs kernel tracing programs (they can run "
                                       "commands and read any memory)", dangerous=True,
                                info="--version -V --help -h"))
define("py-spy", lambda: prog(args="p*", raw=True, hook="profiler",
                              info="--version -V --help -h"))
define("rr", lambda: prog(args="p*", raw=True, hook="profiler", info="--version --help -h"))
define("gprof", lambda: prog("-abpqPQCJyzZDlrcTiIAFEeNnOxsv -k: -m: --brief --flat-profile "
                             "--graph --annotated-source --line --demangle --no-demangle "
                             "--display-unused-functions --static-call-graph "
                             "--print-path --function-ordering --file-ordering:",
                             args="r*"))
define("trace-cmd sysdig opensnoop execsnoop tcpdump-bcc bcc", lambda: prog(
    args="p*", raw=True, effect="traces the kernel or every process (it sees their data)",
    dangerous=True, info="--version --help -h"))
define("wireshark termshark", lambda: prog(
    args="p*", raw=True, hook="tcpdump", effect="captures network traffic", dangerous=True,
    info="--version -v --help -h"))
define("unrar rar lha lzh cabextract unar lsar", lambda: prog(args="p*", raw=True,
                                                               hook="archive_generic"))
define("dpkg-deb", lambda: prog(args="p*", raw=True, hook="archive_generic"))
define("rpm2cpio", lambda: prog(args="r?"))
define("unsquashfs", lambda: prog(
    "-l -ll -lln -lls -s -stat -i -info -q -n -no-progress -p: -processors: -lc -lls",
    args="r p*", single=True, hook="unsquashfs"))
define("atool aunpack apack acat als adiff arepack patool", lambda: prog(
    args="p*", raw=True, hook="atool"))
define("jar", lambda: prog(args="p*", raw=True, hook="archive_generic"))
define("pax", lambda: prog(args="p*", raw=True, hook="archive_generic"))
define("col colrm ul", lambda: prog("-bfhlpx -l: ", args="p*"))
define("sponge", lambda: prog("-a", args="w"))
define("pee", lambda: prog("--ignore-sigpipe --no-ignore-sigpipe --ignore-write-errors "
                           "--no-ignore-write-errors", args="c*"))
define("ifne zrun lckdo", lambda: prog("-n -w: -W: -q", args="x?", permute=False,
                                                 hook="launcher"))
define("mispipe", lambda: prog(args="c c"))
define("isutf8 errno combine", lambda: prog("-q -l -s -v --help --list --search",
                                            args="p*"))
define("vipe vidir", lambda: prog(args="p*", raw=True, hook="editor"))
define("recode", lambda: prog(args="p*", raw=True,
                              effect="rewrites files in place", dangerous=True))
define("cdk serverless sls cdktf", lambda: prog(
    args="p*", raw=True, info="--version version -v --help", hook="cloud_generic",
    effect="runs the project's app to build its stacks (project code runs)"))
define("argocd flux istioctl linkerd velero sam cf knife salt "
       "salt-call chef-client skaffold tilt kubeseal kubebuilder operator-sdk", lambda: prog(
           args="p*", raw=True, hook="cloud_generic", info="--version version -v --help"))
define("stern kubetail", lambda: prog(args="p*", raw=True, hook="cloud_generic",
                                      info="--version --help"))
define("kubectx kubens", lambda: prog("-c -h --current --help", args="p?",
                                      hook="kube_switch"))
define("kustomize", lambda: prog(subs={
    "build": prog("--enable-helm -o:w --output:w --enable-alpha-plugins "
                  "--enable-exec --network --reorder:", args="p?",
                  danger={"--enable-exec --enable-alpha-plugins --enable-star":
                          "runs plugins (programs) named by the kustomization",
                          "--load-restrictor:": "lets the kustomization read files "
                                                "outside its directory"}),
    "version": prog(), "cfg": prog(subs={"tree cat count grep": prog(args="p*", raw=True)}),
    "edit create init localize": prog(args="p*", raw=True,
                                      effect="changes a kustomization")},
    info="--version --help"))
define("etcdctl", lambda: prog(args="p*", raw=True, hook="etcd"))
define("sqlplus isql usql pgcli mycli litecli", lambda: prog(args="p*", raw=True,
                                                             hook="db_generic"))
define("mongoexport mongoimport mongorestore pg_restore", lambda: prog(
    args="p*", raw=True, effect="exports or restores database contents", dangerous=True))
define("redis-server mongod postgres mysqld", lambda: prog(
    args="p*", raw=True, effect="starts a database server", info="--version -v --help"))
define("lynx w3m links elinks browsh", lambda: prog(args="p*", raw=True, hook="browser"))
define("axel iperf iperf3 speedtest speedtest-cli", lambda: prog(
    args="p*", raw=True, effect="transfers data over the network",
    info="--version -v -V --help -h"))
define("sshfs", lambda: prog(args="p*", raw=True,
                                          effect="mounts a remote filesystem", dangerous=True))
# writing to other people or the system: the log, other users' terminals
define("logger systemd-cat", lambda: prog(args="p*", raw=True, dangerous=True,
                                          effect="writes to the system log (other users and "
                                          "tools read it)", info="--version -V --help -h"))
define("wall write talk ytalk rwall", lambda: prog(args="p*", raw=True, dangerous=True,
                                             effect="writes to other users' terminals",
                                             info="--version -V --help -h"))
define("mesg", lambda: prog(args="p*", raw=True, hook="mesg"))
# the screen, the microphone, the camera: whatever is on them now (a password, a message)
define("import scrot gnome-screenshot xwd grim maim spectacle flameshot "
       "xfce4-screenshooter", lambda: prog(args="p*", raw=True, dangerous=True,
                                           effect="captures the screen",
                                           info="--version -v -V --help -h"))
define("screencapture wf-recorder recordmydesktop byzanz-record simplescreenrecorder kazam "
       "peek vokoscreen vokoscreenNG obs ksnip shutter deepin-screenshot", lambda: prog(
           args="p*", raw=True, dangerous=True, effect="captures the screen",
           info="--version -v -V --help -h"))
define("fswebcam streamer cheese guvcview", lambda: prog(
    args="p*", raw=True, dangerous=True, effect="captures the camera",
    info="--version -v -V --help -h"))
define("xev evtest showkey logkeys", lambda: prog(
    args="p*", raw=True, dangerous=True, effect="captures keystrokes (passwords typed)",
    info="--version -V --help -h"))
define("copyq termux-clipboard-get gpaste-client clipman cliphist", lambda: prog(
    args="p*", raw=True, dangerous=True, effect="captures or sets the clipboard (it may "
    "hold a password)", info="--version -v -V --help -h"))
define("xinput", lambda: prog(args="p*", subs={
    "list list-props query-state version": prog(args="p*", raw=True),
    "test test-xi2": prog(args="p*", raw=True, dangerous=True,
                          effect="captures keystrokes (passwords typed)")},
    info="--version --help"))
define("gst-launch-1.0 gst-launch", lambda: prog(args="p*", raw=True, hook="gstreamer",
                                                 info="--version --help -h"))
define("sox play", lambda: prog(args="p*", raw=True, hook="sox", info="--version --help -h"))
define("pw-cat pw-play pacat paplay", lambda: prog(args="p*", raw=True, hook="pw_cat",
                                      info="--version --help -h"))
define("cpulimit", lambda: prog(args="p*", raw=True, hook="cpulimit",
                                info="--version --help -h"))
# a browser hands the page to a running instance (outside the sandbox) or becomes one
define("firefox firefox-esr google-chrome google-chrome-stable chromium chromium-browser "
       "brave brave-browser microsoft-edge opera vivaldi epiphany qutebrowser falkon "
       "konqueror midori librewolf kioclient kioclient5 kioclient6", lambda: prog(
           args="p*", raw=True, dangerous=True,
           effect="opens it in another program, outside the sandbox",
           info="--version -v -V --help -h"))
define("mimeopen mimeo run-mailcap see gvfs-open termux-open xdg-email handlr gtk-launch dex "
       "kstart kstart5",
       lambda: prog(args="p*", raw=True, dangerous=True,
                    effect="opens it in another program, outside the sandbox",
                    info="--version --help -h"))
# Windows programs under WSL run outside the Linux sandbox altogether
define("cmd.exe explorer.exe powershell.exe pwsh.exe wsl.exe wscript.exe cscript.exe "
       "rundll32.exe start.exe", lambda: prog(
           args="p*", raw=True, dangerous=True,
           effect="runs a Windows program, outside the sandbox"))
# a window on the user's desktop, outside the sandbox: it can pose as a password prompt
define("zenity kdialog yad xmessage gxmessage Xdialog osd_cat", lambda: prog(
    args="p*", raw=True, dangerous=True, effect="shows a window on your desktop, outside "
    "the sandbox (it can ask for a password)", info="--version --help -h"))
define("wmctrl", lambda: prog(args="p*", raw=True, hook="wmctrl", info="--version --help -h"))
define("buildah", lambda: prog(args="p*", subs={
    "images containers ls list inspect version info": prog(args="p*", raw=True),
    "rm rmi prune": prog(args="p*", raw=True, effect="deletes containers or images",
                         dangerous=True),
    "push": prog(args="p*", raw=True, effect="publishes an image to a registry",
                 dangerous=True),
    "bud build from run commit copy add config mount unshare": prog(
        args="p*", raw=True, effect="builds or runs containers (their code runs outside "
        "the sandbox's rules)", dangerous=True)}, info="--version -v --help -h"))
define("multipass virsh", lambda: prog(args="p*", subs={
    "list ls info find version networks dominfo domstate nodeinfo": prog(args="p*",
                                                                         raw=True),
    "launch start stop restart shell exec mount transfer delete purge suspend recover set "
    "shutdown destroy reboot reset console create define undefine edit attach-device "
    "snapshot-create snapshot-revert": prog(args="p*", raw=True, dangerous=True,
                                            effect=VM)},
    info="--version -v -V --help -h", admin=True))
define("systemd-nspawn", lambda: prog(args="p*", raw=True, dangerous=True,
                                      effect="runs a container as root, outside the sandbox",
                                      info="--version --help -h"))
define("arecord parecord parec pw-record rec", lambda: prog(
    args="p*", raw=True, dangerous=True, effect="captures the microphone",
    info="--version --help -h"))
define("twine", lambda: prog(subs={
    "check": prog("--strict", args="r+"),
    "upload register": prog(args="p*", raw=True, dangerous=True,
                            effect="publishes a package to an index")}))
define("flit", lambda: prog("--debug --logfile:a", subs={
    "publish": prog(args="p*", raw=True, dangerous=True,
                    effect="publishes a package to an index"),
    "build install init": prog(args="p*", raw=True, effect="builds or installs the "
                               "package (its build code runs)")}))
define("getfattr", lambda: prog(
    "-dhRLPe: -n: -m: --dump --no-dereference --recursive --logical --physical "
    "--absolute-names --only-values --encoding: --name: --match: --version --help",
    args="n+"))
define("setfattr", lambda: prog("-h -n: -v: -x: --no-dereference --raw --name: --value: "
                                "--remove:", args="a+",
                                ask={"--restore:r": "restores attributes from a file"},
                                effect="changes a file's extended attributes"))
define("xattr", lambda: prog(args="p*", raw=True, hook="xattr"))
define("pydoc pydoc3", lambda: prog(args="p*", raw=True, hook="pydoc"))
define("maturin", lambda: prog(subs={
    "publish upload": prog(args="p*", raw=True, effect=PUBLISHES, dangerous=True),
    "build develop sdist new init generate-ci": prog(
        args="p*", raw=True, effect="builds the package (its build code runs)"),
    "list-python": prog()}, info="--version -V --help -h"))
define("anaconda", lambda: prog(args="p*", subs={
    "upload": prog(args="p*", raw=True, effect=PUBLISHES, dangerous=True)},
    info="--version -V --help -h"))
define("vsce ovsx jsr", lambda: prog(args="p*", subs={
    "publish": prog(args="p*", raw=True, effect=PUBLISHES, dangerous=True),
    "ls ls-publishers show": prog(args="p*", raw=True, effect="lists packages")},
    info="--version -V --help -h"))
define("crane oras", lambda: prog(args="p*", subs={
    "push copy cp append mutate rebase tag delete attach": prog(
        args="p*", raw=True, effect="publishes or changes an image in a registry",
        dangerous=True),
    "pull export": prog(args="p*", raw=True, effect="downloads an image into a file"),
    "ls manifest config digest catalog repo discover version": prog(
        args="p*", raw=True, effect="reads a registry (it may send your credentials)")},
    info="--version --help -h"))
define("goreleaser", lambda: prog(args="p*", subs={
    "release publish announce": prog(args="p*", raw=True, effect="publishes a release",
                                     dangerous=True),
    "build check healthcheck init": prog(args="p*", raw=True, effect="builds the project's "
                                         "code")}, info="--version -v --help -h"))
VM = "runs code in a virtual machine, outside the sandbox"
define("lima", lambda: prog(args="p*", raw=True, effect=VM, dangerous=True,
                            info="--version -v --help -h"))
define("limactl colima", lambda: prog(args="p*", subs={
    "list ls status version info": prog(args="p*", raw=True),
    "start stop restart shell create delete rm edit copy cp ssh nerdctl kubernetes prune "
    "factory-reset": prog(args="p*", raw=True, effect=VM, dangerous=True)},
    info="--version -v --help -h"))
define("mosh", lambda: prog(args="p*", raw=True, hook="remote_shell"))
define("autossh", lambda: prog(args="p*", raw=True, hook="remote_shell", dangerous=True,
                               effect="keeps a connection open for a tunnel (it restarts "
                               "ssh forever)", info="-V --help"))
define("tig lazygit gitui", lambda: prog(args="p*", raw=True,
                                         effect="an interactive git interface (it can "
                                                "commit, push and run hooks)",
                                         info="--version -v -V --help -h"))
define("git-lfs", lambda: prog(subs={"ls-files status env version track": prog(
    args="p*", raw=True, inherits=True),
    "pull push fetch install uninstall migrate prune checkout untrack lock unlock": prog(
        args="p*", raw=True, effect="changes LFS objects or hooks")}))
define("fossil bzr darcs pijul repo", lambda: prog(args="p*", raw=True, hook="vcs_generic",
                                                   info="--version version --help"))
