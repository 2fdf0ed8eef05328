"""Grammars of the rest: shells run without ``-c`` (``-c`` is peeled in ``wrappers.py``),
password managers and secret stores, system-information printers, viewers and small
readers, and a few more cloud and scheduling tools."""

from __future__ import annotations

from swebash.safety.classify.grammar import Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)

# shells whose language is not the shell's: whatever they are given runs unread
define("elvish rc xonsh nu nushell ysh es", lambda: prog(
    args="p*", raw=True, effect="starts a shell (it runs whatever it reads)", dangerous=True))
define("sh bash zsh dash ksh ash mksh csh tcsh rbash yash fish busybox posh sash oksh loksh "
       "osh", lambda: prog(
    args="p*", raw=True, hook="shell", info="--version -version --help"))
define("security secret-tool pass gopass op bw lpass keyring vault aws-vault gpg-agent "
       "kwallet-query keepassxc-cli chamber doppler infisical berglas sops age "
       "1password-cli ykman", lambda: prog(
           args="p*", raw=True, hook="secret_store", info="--version -v version"))
define("lsb_release", lambda: prog("-a -i -d -r -c -s -v --all --id --description --release "
                                   "--codename --short"))
define("sw_vers neofetch fastfetch screenfetch inxi system_profiler", lambda: prog(
    args="p*", raw=True, hook="sysinfo"))
define("uuidgen", lambda: prog("-rtmsxhV -n: -N: --random --time --md5 --sha1 --hex "
                               "--namespace: --name: --count: -C:"))
define("fc-list fc-match", lambda: prog("-sabvqVh -f: --sort --all --brief --verbose --quiet "
                                        "--format:", args="p*"))
define("lshw", lambda: prog(
    "-X -html -xml -json -short -businfo -class: -C: -c: -enable: -disable: -quiet "
    "-sanitize -numeric -notime -version -help", single=True,
    ask={"-dump:w": "writes what it finds to a database file"}))
define("hwinfo", lambda: prog(
    "--short --listmd --only: --verbose --debug: --map --all --reallyall --arch --bios "
    "--block --bluetooth --braille --bridge --camera --cdrom --chipcard --cpu --disk --dsl "
    "--dvb --fingerprint --floppy --framebuffer --gfxcard --hub --ide --isapnp --isdn "
    "--joystick --keyboard --memory --mmc-ctrl --modem --monitor --mouse --netcard "
    "--network --partition --pci --pcmcia --pcmcia-ctrl --pppoe --printer --redasd "
    "--scanner --scsi --smp --sound --storage-ctrl --sys --tape --tv --uml --usb "
    "--usb-ctrl --vbe --wlan --xen --zip --show-config:",
    ask={"--log:w --dump-db: --save-config:": "writes a log or its saved configuration"}))
define("mdls", lambda: prog("-raw -name: -nullMarker: -plist:w", single=True, args="r+"))
define("mdfind", lambda: prog("-onlyin:n -name: -live -count -0 -interpret -literal -attr: "
                              "-s:", single=True, args="p*"))
define("dmidecode", lambda: prog(
    "-hquV -d:r --dev-mem:r -s: --string: -t: --type: -H: --handle: --dump --no-sysfs "
    "--no-quirks --oem-string: --from-dump:r --quiet",
    ask={"--dump-bin:w": "writes the raw tables to a file"}))
define("dircolors", lambda: prog("-bcp --sh --bourne-shell --csh --c-shell --print-database "
                                 "--print-ls-colors", args="r?"))
define("exa eza lsd", lambda: prog(
    "-1lGxRTFaAdDfrhHbBgimSuUnLIs@ -L: -I: -s: -t: -X --oneline --long --grid --across "
    "--recurse --tree --classify:: --colour:: --color:: --colour-scale:: --color-scale:: "
    "--icons:: --hyperlink --all --almost-all --list-dirs --only-dirs --only-files "
    "--level: --reverse --sort: --group-directories-first --git-ignore --ignore-glob: "
    "--binary --bytes --group --header --links --modified --changed --accessed --created "
    "--time: --time-style: --total-size --no-permissions --no-filesize --no-user "
    "--no-time --no-icons --numeric --inode --blocksize --octal-permissions --git "
    "--git-repos --git-repos-no-status --smart-group --width: --absolute:: --dereference",
    args="n*"))
define("ccat highlight pygmentize glow mdcat gron jless fx vis", lambda: prog(
    "-lgpsvNn -O: -S: -f: -P: -t: -w: --syntax: --out-format: --style: --line-numbers "
    "--width: --pager --no-pager -C", args="r*",
    ask={"-o:w --output:w": "writes its output to a file"},
    danger={"-x --load-lexer:": "loads a lexer or filter from a file (code)"}))
define("csvlook csvstat csvcut csvgrep csvsort xsv qsv", lambda: prog(
    args="p*", raw=True, hook="table_tool"))
define("dasel", lambda: prog("-f:r -r: -w: -s: --file:r --read: --write: --selector: "
                             "--plain -c --compact --pretty -n --null -m --multiple "
                             "--escape-html --colour --color", args="p*", hook="dasel"))
define("tokei scc cloc loc", lambda: prog(
    args="p*", raw=True, hook="counter", info="--version -V --help -h"))
define("pyenv rbenv nodenv goenv jenv nvm fnm volta sdk", lambda: prog(
    args="p*", raw=True, hook="version_manager", info="--version -v version --help"))
define("rclone", lambda: prog(args="p*", raw=True, hook="rclone",
                              info="version --version --help"))
define("glab", lambda: prog(args="p*", raw=True, hook="glab", info="--version version"))
define("consul nomad", lambda: prog(args="p*", raw=True, hook="hashicorp",
                                    info="--version version -v"))
define("chrt numactl cgexec", lambda: prog(args="p*", raw=True, hook="scheduler"))
define("launchctl schtasks", lambda: prog(args="p*", raw=True, hook="launchctl"))
define("uvx", lambda: prog(args="p*", raw=True,
                                    effect="runs a package it may download",
                                    dangerous=True, info="--version --help"))
define("hping3 scapy masscan zmap arp-scan", lambda: prog(
    args="p*", raw=True, effect="scans other hosts or crafts network packets", dangerous=True,
    info="--version -v"))
define("influx sqlcmd bq cockroach", lambda: prog(args="p*", raw=True, hook="db_generic"))
define("httpd nginx apache2 apachectl lighttpd caddy http-server live-server serve "
       "webfsd thttpd mini_httpd darkhttpd miniserve twistd", lambda: prog(
           args="p*", raw=True, effect="listens for connections (serves files to the network)",
           dangerous=True,
           info="--version -v -V --help -h"))
define("xmllint", lambda: prog(
    "--format --noout --valid --dtdvalid:r --relaxng:r --schema:r --schematron:r --xpath: "
    "--noent --nonet --html --xmlout --encode: --pretty: --c14n --c14n11 --exc-c14n "
    "--nowarning --recover --noblanks --nocatalogs --load-trace --huge --quiet --timing "
    "--stream --debug --version --insert --compress --path:n --nsclean --dropdtd "
    "--noxincludenode --xinclude --postvalid --dtdattr --loaddtd --auto --memory "
    "--maxmem: --oldxml10 --walker --sax --sax1 --repeat --push --pushsmall --testIO",
    args="r*", ask={"--output:w -o:w": "writes its output to a file",
                    "--shell": "an interactive shell over the document"}))
define("tidy", lambda: prog(
    "-q -e -i -u -c -b -n -w: -xml -asxml -asxhtml -ashtml -raw -ascii -latin0 -latin1 "
    "-iso2022 -utf8 -mac -win1252 -ibm858 -utf16le -utf16be -utf16 -big5 -shiftjis "
    "-language: -quiet -errors -indent -wrap: -upper -clean -bare -numeric -access: "
    "-version -help -help-config -show-config", single=True, args="r*",
    ask={"-m -modify -o:w -output:w -f:w -file:w -config:r": "writes or rewrites files"}))
define("run-parts", lambda: prog(args="p*", raw=True, hook="run_parts"))
define("pdb pdb3", lambda: prog(args="p*", raw=True, hook="script"))
define("select coproc", lambda: prog(args="p*", raw=True,
                                     effect="runs a command the shell reads interactively"))
