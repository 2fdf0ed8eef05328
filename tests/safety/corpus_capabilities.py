"""What a program's options can do, as data: the mechanisms by which a command that looks
read-only runs a command, loads a library, writes outside the tree or reaches another host.
DATA ONLY: these strings are classified, never executed. Payloads are harmless (`id`,
`touch p`); what matters is that the classifier sees what they would do.

CAPABILITY_DANGEROUS: must ask with the dangerous flag (or be denied).
CAPABILITY_NEVER_ALLOW: must never be `allow` (they may ask without the flag).
CAPABILITY_READ_ONLY: their read-only neighbours, which must stay allowed.
CAPABILITY_ASKED_PLAIN: neighbours that ask (no grammar) but must not be flagged dangerous.
"""

from __future__ import annotations

CAPABILITY_DANGEROUS = [
    # a program named by a path of one's own is that file, not the wrapper of the same name;
    # a path is normalised before it is called installed
    "timeout 5 /opt/x/../../home/u/nohup rm -rf x",
    # options that run a shell command, load a configuration that can, or reach a server
    "tmux -c 'touch p'",
    "tmux -S /tmp/other.sock ls",
    "tmux -f ./odd.conf start-server",
    "tmux",
    # options named for a command to run, given one (unknown program or unknown option)
    "backup-tool --pre-command='touch p' run",
    "syncer --on-exit-script touch-p.sh",
    "mystery --exec-cmd=id",
    # a shell named inside any word of a command that asks
    "frobnicate --address=unixexec:path=/bin/bash,argv1=-c",
    "macro-expand '%(/usr/bin/zsh -i)'",
    "widget --bind 'ctrl-x:run(/bin/dash)'",
    "tool --hook='$SHELL'",
    "reporter -x '(run \"/usr/local/bin/fish\")'",
    # shells whose language is not bash's
    "xonsh -c 'print(1)'",
    "nu -c 'ls'",
    # options that load a library or a plugin
    "mariadb --default-auth=./plugins/auth",
    "mysql --plugin-load=x.so",
    "ssh-keygen -D ./pkcs11.so -e",
    # options that name an output file outside the tree
    "dmidecode --dump-bin /tmp/tables.bin",
    "nmap -oN=/tmp/scan.txt 127.0.0.1",
    "nmap -oX /var/tmp/scan.xml 127.0.0.1",
    "openssl dgst -sha256 -sign k.pem -out /tmp/sig README.md",
    "aria2c --dir=/var/tmp http://example.com/a",
    "screen -d -m -Logfile /tmp/x.log id",
    "tsc --outDir /srv/www src/app.ts",
    "git apply --unsafe-paths fix.patch",
    "git apply --directory=../sibling fix.patch",
    "vim /etc/motd",
    # a session another machine drives
    "code tunnel",
    # options that reach any port of a host with the words given
    "whois -p 6379 -h 127.0.0.1 'CONFIG GET dir'",
    "whois --port=25 mail.example.com",
    # a shell that records the terminal
    "script",
    # metadata tags that move or link the file they edit
    "exiftool -Directory=/tmp/x a",
    # TeX source given inline that opens a file for writing
    "pdflatex '\\relax\\immediate\\openout1=x.tex\\bye'",
    # an option that listens for connections
    "previewer --listen=0.0.0.0:7000",
    # a wrapper's own output files, a download's target, a checker's report files
    "rlwrap --logfile=/var/tmp/session.log python3 -V",
    "rlwrap -z ./filter cat",
    "lwp-download https://example.com/a.tgz /opt/a.tgz",
    "mypy --junit-xml=../report.xml src",
    # inline code given to an interpreter that has no grammar of its own
    "racket -e '(display 1)'",
    "sbcl --eval '(quit)'",
    # a sub-command that opens a shell or a console (known tool or not)
    "poetry shell",
    "someframework console",
    # system-information tools: their writing and code-loading options (they had no grammar)
    "lshw -dump /var/tmp/hw.db",
    "hwinfo --log=/tmp/hw.log --cpu",
    "neofetch --config ./theme.conf",
    # checkers: an option naming a program they run, a report written outside the tree
    "actionlint -pyflakes=./bin/pf",
    "cppcheck --output-file=/tmp/cc.txt src",
    "gitleaks detect --report-path=/var/tmp/leaks.json",
    # table and line-count tools: the paths their write options and verbs name
    "scc --format-multi 'tabular:stdout,json:/tmp/scc.json' src",
    "xsv split /var/tmp/parts data.csv",
    "cloc --report-file=../cloc.txt src",
    # an option naming the program a launcher runs, or widening what a build may read
    "dbus-run-session --dbus-daemon=./daemon -- true",
    "kubectl kustomize --load-restrictor=LoadRestrictionsNone overlays/dev",
    # a key installed into another machine's account
    "ssh-copy-id -i key.pub build@ci.example.com",
    # any option named for an output file, on a command that asks, judged as the write it is
    "podman save -o /var/tmp/img.tar web",
    "mystery-export --output=../sibling/out.json",
    "reportgen --log-file ~/.profile run",
    "grapher --out-dir /srv/www render",
    # a KEY=VALUE setting whose key names a program started with that value
    "w3m -o editor='touch p' notes.html",
    "viewer --set pager='id' doc",
    "browse -o browser=./run-me index.html",
    # operands and options that name where pieces or temp files are created
    "split -l 10 big.txt /var/tmp/part.",
    "csplit --prefix=../piece notes.txt 5",
    "mktemp -p ~/.config x.XXXX",
]

CAPABILITY_NEVER_ALLOW = [
    "nice ./tools/command",
    "timeout 5 /usr/../home/u/nohup id",
    "nice /srv/app/bin/command",
    "openssl enc -aes-256-cbc -in a -out b",
    "screen -L -Logfile out.log id",
    "dmidecode --dump-bin tables.bin",
    "inxi --output-file report.txt",
    "lshw -dump hw.db",
    "tsc --outFile out.js src/app.ts",
]

CAPABILITY_READ_ONLY = [
    "tmux ls",
    "tmux list-sessions",
    "tmux -L work ls",
    "dmidecode -t memory",
    "dmidecode --type=bios -q",
    "whois example.com",
    "whois -h whois.arin.net 192.0.2.1",
    "screen -ls",
    "ssh-keygen -l -f key.pub",
    "grep -rn /bin/sh src",
    "/usr/bin/nice ls",
    "command -v git",
    "rlwrap cat",
    "lshw -short -class network",
    "hwinfo --short --cpu",
    "inxi -Fxz",
    "uuidgen -r",
    "fc-match monospace",
    "actionlint",
    "bandit -r src",
    "scc src",
    "xsv headers data.csv",
    "dbus-run-session -- true",
    "kustomize build overlays/dev",
]

# unknown programs whose words name nothing that runs, loads or writes: they ask, and `--yes`
# may run them (the sandbox confines them) — the rules above must not fire on them
CAPABILITY_ASKED_PLAIN = [
    "someframework list",
    "backup-tool --no-exec run",
    "frobnicate --address=unix:path=/run/frob.sock",
    "widget --bind 'ctrl-x:accept'",
    # prose that mentions a shell is not code that runs one
    "git commit -m 'run hooks with /bin/sh in CI'",
    "git commit -m 'fix: quote paths'",
    "previewer --port=7000 notes.md",
    # output files inside the tree, and settings that name no program
    "mystery-export --output=build/out.json",
    "viewer --set theme=dark doc",
    "split -l 10 big.txt parts/piece.",
    "mktemp -d",
]
