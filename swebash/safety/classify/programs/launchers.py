"""Grammars of programs that launch another program with something changed — namespaces,
privileges, a display, a session bus, a password — and of a few document tools that can
run commands (TeX's shell escape, gnuplot's ``system``, ghostscript without -dSAFER).

The launched command is judged itself (role ``x``); the launcher adds its own effect:
entering another process's namespaces, mapping root, changing privileges, escaping a
sandbox (``flatpak-spawn --host``) or running as a system service are dangerous.
"""

from __future__ import annotations

from swebash.safety.classify.grammar import Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)

PRIVILEGE = "runs a program with changed privileges or in other namespaces"
define("unshare", lambda: prog(
    "-imnpuUCTfr -c --ipc --mount --net --pid --uts --user --cgroup --time --fork "
    "--kill-child:: --mount-proc:: --map-current-user --map-user: --map-group: "
    "--map-auto --map-users: --map-groups: --setgroups: --propagation: --root:n --wd:n "
    "-S: -G: --setuid: --setgid: --keep-caps --monotonic: --boottime: -R:n -w:n",
    args="x?", permute=False, hook="launcher",
    danger={"-r --map-root-user": "maps you to root in a new user namespace"}))
define("nsenter", lambda: prog(
    "-atmuinpUCTrwFZ -S: -G: --all --target: --mount:: --uts:: --ipc:: --net:: --pid:: "
    "--user:: --cgroup:: --time:: --setuid: --setgid: --preserve-credentials --root:: "
    "--wd:: --no-fork --follow-context --env", args="x?", permute=False, hook="launcher",
    effect="enters another process's namespaces", dangerous=True))
define("capsh setpriv setuidgid chpst", lambda: prog(
    args="p*", raw=True, effect=PRIVILEGE, dangerous=True))
define("sg newgrp", lambda: prog(args="p*", raw=True, hook="sg",
                                 effect="runs a command as another group", dangerous=True))
define("ssh-agent", lambda: prog("-a: -c -D -d -E: -k -P: -s -t: -O:", args="x?",
                                 permute=False, hook="launcher",
                                 ask={"-k -a: -D -d": "starts, stops or binds an agent"}))
define("dbus-run-session", lambda: prog("--config-file:r", args="x?", permute=False,
                                        hook="launcher", danger={
                                            "--dbus-daemon:": "runs the program it is given "
                                            "as the bus daemon"}))
define("xvfb-run", lambda: prog("-a -d -e: -f: -n: -l -s: -w: -p: --auto-servernum "
                                "--server-num: --error-file: --auth-file: --server-args: "
                                "--wait:", args="x?", permute=False, hook="launcher"))
define("entr", lambda: prog("-acdnprsz", args="x?", permute=False, hook="entr"))
define("sshpass", lambda: prog("-P: -v", args="x?", permute=False, hook="launcher",
                               danger={"-p: -e:: -f:r -d:": "hands a password to the program "
                                       "it runs (it reaches another machine)"}))
define("firejail", lambda: prog(args="p*", raw=True, hook="firejail"))
define("flatpak-spawn", lambda: prog(args="p*", raw=True, hook="firejail"))
define("systemd-run", lambda: prog(args="p*", raw=True,
                                   effect="runs a command as a system service, outside "
                                          "this session", dangerous=True))
define("caffeinate", lambda: prog("-d -i -m -s -u -t: -w:", args="x?", permute=False,
                                  hook="launcher"))
define("pv", lambda: prog("-ptebrainqWlfN -L: -s: -B: -i: -w: -H: -D: -R: --progress "
                          "--timer --eta --bytes --rate --average-rate --numeric --quiet "
                          "--wait --line-mode --force --name: --size: --rate-limit: "
                          "--buffer-size: --interval: --width: --height: --delay-start:",
                          args="r*"))
define("ts", lambda: prog("-r -i -s -m", args="p?"))
define("expect", lambda: prog("-d -D: -i -n -N -v -b -f:r", args="r? p*", permute=False,
                              hook="script", danger={"-c:": "runs inline code"}))
define("tree", lambda: prog(
    "-adlfxLPIRuNqnQCDFvtcUrhgpsiSJXAo -L: -P: -I: -H: -T: --filelimit: --timefmt: "
    "--charset: --sort: --noreport --inodes --device --dirsfirst --filesfirst "
    "--gitignore --gitfile:r --matchdirs --metafirst --prune --info --infofile:r "
    "--du --si --fflinks --nolinks --hintro:r --houtro:r --ignore-case --fromfile",
    args="n*", ask={"-o:w": "writes its output to a file",
                    "-R": "writes a listing file into every directory (with -H)"}))
define("gnuplot", lambda: prog("-p -persist -d -default -c: -e: -V", args="p*",
                               hook="gnuplot"))
define("tex latex pdflatex xelatex lualatex luatex latexmk xetex pdftex context",
       lambda: prog(args="p*", raw=True, hook="tex"))
define("gs ghostscript gsc gsx ps2pdf pdf2ps", lambda: prog(args="p*", raw=True,
                                                             hook="ghostscript"))
define("convert magick mogrify composite montage", lambda: prog(
    args="p*", raw=True, effect="converts images (its delegates run programs)"))
define("ffmpeg", lambda: prog(args="p*", raw=True, hook="ffmpeg_capture"))
define("gpg gpg2", lambda: prog(args="p*", raw=True, hook="gpg"))
define("logrotate", lambda: prog(args="p*", raw=True, hook="logrotate"))
define("script", lambda: prog(
    "-aefq -E: -m: -o: -t:: -T:w -I:w -O:w -B:w --append --echo: --flush --force --quiet "
    "--timing:: --logging-format: --log-in:w --log-out:w --log-io:w --log-timing:w "
    "--return --output-limit:", args="w?", hook="script_cmd",
    ask={"-c:c --command:c": "runs a command while recording the terminal"}))
define("mount", lambda: prog(args="p*", raw=True, hook="mount"))
