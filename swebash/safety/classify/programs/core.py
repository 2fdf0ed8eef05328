"""Grammars of the coreutils and the everyday text and file tools.

Option lists follow each tool's ``--help``/man page (GNU versions, with the BSD spellings an
agent meets on macOS where they differ harmlessly). An option that writes, runs a program or
changes state is under ``ask``/``danger``; one that is missing makes the command ask.
"""

from __future__ import annotations

from swebash.safety.classify.grammar import Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)


WRITES = "writes its output to a file"

define("cat", lambda: prog(
    "-AbeEnstTuv --show-all --number-nonblank --show-ends --number --squeeze-blank "
    "--show-tabs --show-nonprinting", args="r*"))
define("tac", lambda: prog("-br -s: --before --regex --separator:", args="r*"))
define("head", lambda: prog(
    "-N -qvz -c: -n: --bytes: --lines: --quiet --silent --verbose --zero-terminated",
    args="r*"))
define("tail", lambda: prog(
    "-N -fFqvz -c: -n: -s: --bytes: --lines: --follow:: --retry --max-unchanged-stats: "
    "--pid: --quiet --silent --sleep-interval: --verbose --zero-terminated", args="r*"))
define("wc", lambda: prog(
    "-cmlLw --bytes --chars --lines --max-line-length --words --files0-from:m --total:",
    args="m*"))
LS = ("-aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1 -I: -T: -w: --all --almost-all --author "
      "--escape --block-size: --ignore-backups --color:: --directory --dired --classify:: "
      "--file-type --format: --full-time --group-directories-first --no-group "
      "--human-readable --si --dereference-command-line "
      "--dereference-command-line-symlink-to-dir --hide: --hyperlink:: --indicator-style: "
      "--inode --ignore: --kibibytes --dereference --numeric-uid-gid --literal "
      "--hide-control-chars --show-control-chars --quote-name --quoting-style: --reverse "
      "--recursive --size --sort: --time: --time-style: --tabsize: --width: --context --zero")
define("ls dir vdir", lambda: prog(LS + " -e -O -P -@ -%", args="n*"))
define("sort", lambda: prog(
    "-bdfgiMhnRrVcCmsuz -k: -S: -t: -T:n --ignore-leading-blanks --dictionary-order "
    "--ignore-case --general-numeric-sort --ignore-nonprinting --month-sort "
    "--human-numeric-sort --numeric-sort --random-sort --random-source:m --reverse --sort: "
    "--version-sort --batch-size: --check:: --debug --files0-from:r --key: --merge --stable "
    "--buffer-size: --field-separator: --temporary-directory:n --parallel: --unique "
    "--zero-terminated", args="r*",
    ask={"-o:w --output:w": WRITES},
    danger={"--compress-program:": "runs the compression program it is given"}))
define("uniq", lambda: prog(
    "-cdDiuz -f: -s: -w: --count --repeated --all-repeated:: --skip-fields: --group:: "
    "--ignore-case --skip-chars: --unique --zero-terminated --check-chars:", args="r? w?"))
define("cut", lambda: prog(
    "-nsz -b: -c: -d: -f: --bytes: --characters: --delimiter: --fields: --complement "
    "--only-delimited --output-delimiter: --zero-terminated", args="r*"))
define("tr", lambda: prog("-cCdst --complement --delete --squeeze-repeats --truncate-set1",
                          args="p p?"))
define("nl", lambda: prog(
    "-p -b: -d: -f: -h: -i: -l: -n: -s: -v: -w: --body-numbering: --section-delimiter: "
    "--footer-numbering: --header-numbering: --line-increment: --join-blank-lines: "
    "--number-format: --no-renumber --number-separator: --starting-line-number: "
    "--number-width:", args="r*"))
define("paste", lambda: prog("-sz -d: --delimiters: --serial --zero-terminated", args="r*"))
define("join", lambda: prog(
    "-iz -a: -e: -j: -o: -t: -v: -1: -2: --ignore-case --check-order --nocheck-order "
    "--header --zero-terminated", args="r r"))
define("comm", lambda: prog(
    "-123z --check-order --nocheck-order --output-delimiter: --total --zero-terminated",
    args="r r"))
define("fold", lambda: prog("-bs -w: -N --bytes --spaces --width:", args="r*"))
define("fmt", lambda: prog(
    "-cstu -N -p: -w: -g: --crown-margin --prefix: --split-only --tagged-paragraph "
    "--uniform-spacing --width: --goal:", args="r*"))
define("expand unexpand", lambda: prog("-ai -t: -N --initial --tabs: --all --first-only",
                                       args="r*"))
define("rev", lambda: prog("", args="r*"))
define("od", lambda: prog(
    "-abcdfilosxvS -A: -j: -N: -t: -w:: --address-radix: --endian: --skip-bytes: "
    "--read-bytes: --strings:: --format: --output-duplicates --width:: --traditional",
    args="r*"))
define("base64 base32", lambda: prog("-diD -w: -b: --decode --ignore-garbage --wrap:",
                                     args="r?"))
define("basenc", lambda: prog(
    "-diw: --base64 --base64url --base32 --base32hex --base16 --base2msbf --base2lsbf "
    "--z85 --decode --ignore-garbage --wrap:", args="r?"))
define("shuf", lambda: prog(
    "-erz -i: -n: --echo --input-range: --head-count: --random-source:m --repeat "
    "--zero-terminated", args="r*", ask={"-o:w --output:w": WRITES}))
define("seq", lambda: prog("-w -N -f: -s: --format: --separator: --equal-width", args="p+"))
define("realpath", lambda: prog(
    "-emLPqsz --canonicalize-existing --canonicalize-missing --logical --physical --quiet "
    "--relative-to:n --relative-base:n --strip --no-symlinks --zero", args="n+"))
define("readlink", lambda: prog(
    "-femnqsvz --canonicalize --canonicalize-existing --canonicalize-missing --no-newline "
    "--quiet --silent --verbose --zero", args="n+"))
define("basename", lambda: prog("-az -s: --multiple --suffix: --zero", args="p+"))
define("dirname", lambda: prog("-z --zero", args="p+"))
define("md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum md5 sha1 shasum",
       lambda: prog("-bctwz -l: -a: --binary --check --tag --text --zero --ignore-missing "
                    "--quiet --status --strict --warn --length: --algorithm:", args="m*"))
define("cksum sum", lambda: prog(
    "-rsz -a: -l: --algorithm: --base64 --check --length: --raw --tag --untagged --zero "
    "--sysv --ignore-missing --quiet --status --strict --warn", args="m*"))
define("id", lambda: prog("-aZgGnruz --context --group --groups --name --real --user --zero",
                          args="p?"))
define("uname", lambda: prog(
    "-asnrvmpio --all --kernel-name --nodename --kernel-release --kernel-version --machine "
    "--processor --hardware-platform --operating-system"))
define("whoami logname hostid users arch true false : clear reset", lambda: prog(
    args="p*", raw=True))
define("nproc", lambda: prog("--all --ignore:"))
define("tty", lambda: prog("-s --silent --quiet"))
define("groups", lambda: prog("", args="p*"))
define("pwd", lambda: prog("-LP"))
define("yes sleep expr factor", lambda: prog(args="p*", raw=True))
define("echo print", lambda: prog(args="p*", raw=True, hook="echo"))
define("test [", lambda: prog(args="p*", raw=True, hook="test"))
define("printf", lambda: prog(args="p*", raw=True, hook="printf"))
define("tsort", lambda: prog(args="r?"))
define("numfmt", lambda: prog(
    "-z -d: --debug --delimiter: --field: --format: --from: --from-unit: --grouping "
    "--header:: --invalid: --padding: --round: --suffix: --to: --to-unit: "
    "--zero-terminated", args="p*"))
define("look", lambda: prog("-bdf -t: --alternative --alphanum --ignore-case --terminate:",
                            args="p r?"))
define("iconv", lambda: prog(
    "-lcs -f: -t: --from-code: --to-code: --list --silent --verbose --usage",
    args="r*", ask={"-o:w --output:w": WRITES}))
define("pr", lambda: prog(
    "-N -acdFfJmnrtTv -D: -e:: -h: -i:: -l: -N: -o: -s:: -S:: -w: -W: --across "
    "--show-control-chars --double-space --date-format: --expand-tabs:: --form-feed "
    "--header: --output-tabs:: --join-lines --length: --merge --number-lines:: "
    "--first-line-number: --indent: --no-file-warnings --separator:: --sep-string:: "
    "--omit-header --omit-pagination --show-nonprinting --width: --page-width: "
    "--columns:", args="r*"))
define("cmp", lambda: prog("-blsv -i: -n: --print-bytes --ignore-initial: --verbose "
                           "--bytes: --quiet --silent", args="r r? p? p?"))
DIFF = ("-qscuenyptTlrNiEZbwBadv -C: -U: -W: -F: -x: -X:r -S: -I: -D: --normal --brief "
        "--report-identical-files --context:: --unified:: --ed --rcs --side-by-side --width: "
        "--left-column --suppress-common-lines --show-c-function --show-function-line: "
        "--label: --expand-tabs --initial-tab --tabsize: --suppress-blank-empty --paginate "
        "--recursive --no-dereference --new-file --unidirectional-new-file "
        "--ignore-file-name-case --no-ignore-file-name-case --exclude: --exclude-from:r "
        "--starting-file: --from-file:r --to-file:r --ignore-case --ignore-tab-expansion "
        "--ignore-trailing-space --ignore-space-change --ignore-all-space "
        "--ignore-blank-lines --ignore-matching-lines: --text --strip-trailing-cr --ifdef: "
        "--old-group-format: --new-group-format: --unchanged-group-format: "
        "--changed-group-format: --line-format: --old-line-format: --new-line-format: "
        "--unchanged-line-format: --minimal --horizon-lines: --speed-large-files --color:: "
        "--palette: --no-index")
define("diff colordiff", lambda: prog(DIFF, args="r*", hook="diff"))
define("sdiff", lambda: prog(
    "-abBdEHilstvWZ -I: -w: --ignore-case --ignore-tab-expansion --ignore-trailing-space "
    "--ignore-space-change --ignore-all-space --ignore-blank-lines --ignore-matching-lines: "
    "--strip-trailing-cr --text --minimal --speed-large-files --left-column "
    "--suppress-common-lines --expand-tabs --tabsize: --width:", args="r r",
    ask={"-o:w --output:w": "writes a merged file"}))
define("diff3", lambda: prog("-AeEx3iaTm -L: --show-all --ed --show-overlap --label: --text "
                             "--initial-tab --merge --strip-trailing-cr", args="r r r"))
define("zdiff zcmp diffstat wdiff", lambda: prog(
    "-abBcdeEfinpqrstuwyN -C: -U: -l: -p: -w: --unified:: --context::", args="r*"))
define("stat", lambda: prog(
    "-LfFt -c: --dereference --file-system --cached: --format: --printf: --terse",
    args="n+"))
define("file", lambda: prog(
    "-bciklLhnN0prsSdzZIE -e: -F: -m:m -f:m -P: --brief --checking-printout --exclude: "
    "--exclude-quiet: --files-from:m --separator: --mime --mime-type --mime-encoding "
    "--apple --extension --keep-going --list --dereference --no-dereference --no-buffer "
    "--no-pad --print0 --preserve-date --parameter: --raw --special-files --no-sandbox "
    "--uncompress --uncompress-noreport --debug --magic-file:m",
    args="m*", ask={"-C --compile": "writes a compiled magic file"}))
define("du", lambda: prog(
    "-0abcDHhkLlmPSsx -B: -d: -t: -X:m --null --all --apparent-size --block-size: --bytes "
    "--total --dereference-args --max-depth: --summarize --files0-from:m --human-readable "
    "--inodes --dereference --count-links --no-dereference --separate-dirs --si "
    "--threshold: --time:: --time-style: --exclude-from:m --exclude: --one-file-system",
    args="n*"))
define("df", lambda: prog(
    "-ahHiklPTv -B: -t: -x: --all --block-size: --human-readable --si --inodes --local "
    "--no-sync --output:: --portability --sync --total --type: --print-type "
    "--exclude-type:", args="n*"))
define("free", lambda: prog(
    "-bkmghltvwLV -s: -c: --bytes --kilo --mega --giga --tera --peta --kibi --mebi --gibi "
    "--tebi --pebi --human --si --lohi --line --total --committed --wide --seconds: "
    "--count:"))
define("uptime", lambda: prog("-psr --pretty --since --raw"))
define("w", lambda: prog("-hiusfopn --no-header --ip-addr --no-current --short --from "
                         "--old-style --pids --no-truncat", args="p?"))
define("who", lambda: prog(
    "-abdHlmpqrsTtuw --all --boot --dead --heading --ips --login --lookup --process "
    "--count --runlevel --short --time --mesg --message --writable --users", args="p*"))
define("last lastb", lambda: prog(
    "-adFiowRx -f:m -n: -s: -t: -p: -N --dns --fullnames --ip --limit: --nohostname "
    "--since: --until: --present: --time-format: --fulltimes --system --hostlast",
    args="p*"))
define("lastlog", lambda: prog("-C -b: -t: -u: --before: --time: --user:"))
define("hostname", lambda: prog(
    "-aAdfiIsyv --alias --all-fqdns --domain --fqdn --long --ip-address "
    "--all-ip-addresses --short --yp --nis --verbose",
    ask={"-F:r --file:r -b --boot": "sets the host name"}, hook="hostname", args="p?"))
define("date", lambda: prog(
    "-uR -d: -f:r -I:: -r:n --date: --debug --file:r --iso-8601:: --resolution "
    "--rfc-email --rfc-3339: --reference:n --utc --universal -j -v: -z:",
    danger={"-s: --set:": "sets the clock"}, args="p?", hook="date"))
define("cal ncal", lambda: prog("-1 -3 -y -j -m -w -h -b -v -S -M -s: -A: -B: -d: "
                                "--one --three --year --julian --monday --sunday "
                                "--months: --span --week --vertical --iso --color::",
                                args="p*"))
define("locale", lambda: prog("-a -m -c -k -v --all-locales --charmaps --category-name "
                              "--keyword-name --verbose", args="p*"))
define("getconf", lambda: prog("-a -v:", args="p*"))
define("printenv", lambda: prog("-0 --null", args="p*"))
define("which", lambda: prog("-a -s -i --all --skip-alias --skip-functions --read-alias "
                             "--read-functions --tty-only --show-dot --show-tilde",
                             args="p+"))
define("whereis", lambda: prog("-bmsulg -B:n -M:n -S:n -f", args="p+"))
define("column", lambda: prog(
    "-tnOlEdeHRTWLJrixhV -N: -c: -o: -s: --table --table-name: --table-order: "
    "--table-columns: --table-columns-limit: --table-noextreme: --table-noheadings "
    "--table-header-repeat --table-hide: --table-right: --table-truncate: --table-wrap: "
    "--keep-empty-lines --json --tree: --tree-id: --tree-parent: --output-width: "
    "--output-separator: --separator: --fillrows", args="r*"))
define("strings", lambda: prog(
    "-afdwsTUvN -n: -t: -e: --all --data --print-file-name --bytes: --radix: --encoding: "
    "--target: --include-all-whitespace --output-separator: --unicode:", args="r*"))
define("xxd", lambda: prog(
    "-a -autoskip -b -bits -C -capitalize -c: -cols: -E -EBCDIC -e -g: -groupsize: -h "
    "-help -i -include -l: -len: -n: -name: -o: -offset: -p -ps -postscript -plain -r "
    "-revert -R: -d -s: -seek: -u -uppercase -v -version -c* -g* -l* -o* -s* -n*",
    args="r? w?", single=True))
define("hexdump hd", lambda: prog("-bcCdovx -e: -f:r -n: -s: --one-byte-octal "
                                  "--one-byte-char --canonical --two-bytes-decimal "
                                  "--two-bytes-octal --two-bytes-hex --format: "
                                  "--format-file:r --length: --skip: --no-squeezing "
                                  "--color::", args="r*"))
define("hexyl", lambda: prog("-pv -n: -c: -s: -o: --length: --bytes: --skip: "
                             "--display-offset: --block-size: --no-squeezing --color: "
                             "--border: --plain --no-characters --no-position "
                             "--panels: --group-size: --base:", args="r?"))
define("lsattr getfacl namei", lambda: prog(
    "-RVadlpvxmnol --absolute-names --access --omit-header --all-effective --skip-base "
    "--recursive --logical --physical --numeric --default --long --modes --owners "
    "--nosymlinks --vertical --mountpoints --tabular", args="n*"))
define("findmnt", lambda: prog(
    "-AbcDdefiJklmnNOoPrRsSTtUuvxyFz -o: -O: -t: -S: -T: -M: -N: -F:m -w: -p:: "
    "--all --bytes --canonicalize --df --direction: --evaluate --fstab --first-only "
    "--invert --json --list --mtab --kernel --noheadings --nocanonicalize --notruncate "
    "--options: --output: --output-all --pairs --raw --submounts --source: --target: "
    "--types: --uniq --verbose --verify --mountpoint: --task: --tab-file:m --poll:: "
    "--real --pseudo --shadow --shadowed --list-columns --hyperlink:: --id: --uniq-id:",
    args="n*"))
define("lsblk", lambda: prog(
    "-abdDfJlmnOpPrstSvzAEIMeio -e: -I: -o: -x: -Q: --all --bytes --nodeps --discard "
    "--fs --json --list --merge --noheadings --output: --output-all --paths --pairs "
    "--raw --scsi --tree:: --topology --sort: --include: --exclude: --ascii --perms "
    "--zoned --width: --noempty --virtio --nvme --filter:", args="n*"))
define("lscpu", lambda: prog("-aebcpJxyCrsV --all --online --offline --bytes --caches:: "
                             "--extended:: --json --parse:: --hex --physical --output-all"))
define("lsusb lspci", lambda: prog("-vtkmnDbxPjMA -s: -d: -i:m -p:m -F:m -O: -D: "
                                   "--verbose --tree", args="p*"))
define("lsmod", lambda: prog())
define("modinfo", lambda: prog("-0adlnpF -k: -b: --author --description --license "
                               "--filename --parameters --field: --null --basedir: "
                               "--set-version:", args="p+"))
define("lsns lsipc ipcs", lambda: prog(
    "-JlnpruWtbmqsaeg -o: -t: -i: -N: --json --list --noheadings --output: --output-all "
    "--task: --raw --notruncate --type: --nowrap --tree:: --shmems --queues --semaphores "
    "--global --id: --creator --time --pid --limits --summary --human", args="p*"))
define("pstree", lambda: prog(
    "-aAcCglhHnNpsStTuUZV --arguments --ascii --compact-not --color: --show-pgids "
    "--long --highlight-all --highlight-pid: --numeric-sort --ns-sort: --show-pids "
    "--show-parents --ns-changes --thread-names --hide-threads --uid-changes --unicode "
    "--vt100 --security-context", args="p?"))
define("pidof", lambda: prog("-sczqwx -o: -S: -d:", args="p+"))
define("pgrep", lambda: prog(
    "-cdfaiLlnorvwxAe -d: -g: -G: -P: -s: -t: -u: -U: -F:m --count --delimiter: "
    "--full --list-name --list-full --newest --oldest --older: --parent: --pgroup: "
    "--group: --session: --terminal: --euid: --uid: --inverse --lightweight --exact "
    "--pidfile:m --logpidfile --runstates: --ignore-ancestors --cgroup: --ns: --nslist: "
    "--env:", args="p*"))
define("top", lambda: prog(
    "-bcEeHiOSs1 -d: -n: -o: -p: -u: -U: -w:: --batch --cmdline-toggle --delay: "
    "--scale-summary-mem: --scale-task-mem: --threads-show --idle-toggle --iterations: "
    "--list-fields --sort-override: --pid: --secure-mode --accum-time-toggle "
    "--filter-any-user: --filter-only-euser: --width:: --single-cpu-toggle",
    ask={"-f": "opens the field editor"}))
define("htop btop atop iotop glances", lambda: prog(
    "-CMtHba -d: -u: -p: -s: -F: --no-color --tree --delay: --user: --pid: --sort-key: "
    "--no-mouse --readonly --only --processes --batch -o", args="p*",
    effect="an interactive monitor"))
define("vmstat", lambda: prog("-afmnsdDpStwCyV -S: -c: --active --forks --slabs --stats "
                              "--disk --disk-sum --partition: --unit: --timestamp --wide "
                              "--one-header --no-first --full-cache", args="p*"))
define("iostat mpstat", lambda: prog(
    "-cdhkmNstxyzHo -g: -j: -p:: -P: -I: -T -A -u -n: --dec: --human --compact --pretty "
    "-E", args="p*"))
define("pidstat", lambda: prog(
    "-dhHIlrRsStuUvwz -C: -G: -p: -T: --dec: --human", args="p*",
    danger={"-e:x": "runs the command it is given"}))
define("sar", lambda: prog("-ABbdFHhIqrSuvWwyz -f:m -i: -n: -P: -m: -s: -e: --dec: --human",
                           args="p*", ask={"-o:w": "writes its data to a file"}))
define("bc", lambda: prog("-hilqsw --help --interactive --mathlib --quiet --standard "
                          "--warn --version", args="r*"))
define("dc", lambda: prog("-e:c -f:r --expression:c --file:r", args="r*", hook="dc"))
define("tldr whatis apropos", lambda: prog(
    "-lLuadwrefs -p: -s: -m: -M: -C:m -L: -S: --update --list --platform: --language: "
    "--exact --regex --wildcard --long --section: --sections: --systems: --manpath: "
    "--locale:", args="p*"))
define("man", lambda: prog(
    "-afkKwWldruZ -M: -S: -s: -m: -L: -e: -E: -R: -T:: -t -7 -i -I -z --all --whatis "
    "--apropos --global-apropos --where --path --location --where-cat --location-cat "
    "--local-file --debug --regex --wildcard --names-only --manpath: --sections: "
    "--systems: --extension: --locale: --encoding: --recode: --ignore-case "
    "--match-case --no-subpages --no-hyphenation --no-justification --ascii --nh --nj "
    "--ditroff --troff --catman", args="p*",
    danger={"-P: --pager: -H:: --html:: -p: --preprocessor: -C: --config-file: -X:: "
            "--gxditview::": "runs a pager, browser or preprocessor it is given"}))
define("info", lambda: prog("-afkw -d:n -n: --all --apropos: --directory:n --node: --show-options "
                            "--usage --where --location --vi-keys --index-search:",
                            args="p*", ask={"-o:w --output:w": WRITES,
                                            "--dribble:w --restore:r": "reads or records keys"}))
define("tput", lambda: prog("-SVx -T:", args="p*"))
define("stty", lambda: prog("-a -g --all --save", args="p*", hook="stty"))
define("mktemp", lambda: prog("-d --directory -u --dry-run -q --quiet -p:a --tmpdir::a -t "
                              "--suffix:", args="p?", hook="mktemp"))
define("envsubst", lambda: prog("-v --variables", args="p?"))
define("ulimit", lambda: prog("-HSabcdefiklmnpqrstuvxPRT", args="p?", hook="ulimit",
                              abbrev=False, info=""))
define("umask", lambda: prog("-pS", args="p?", hook="umask", info=""))
define("timedatectl localectl hostnamectl", lambda: prog(
    "-aHMp --no-pager --no-ask-password --adjust-system-clock --monitor --property: "
    "--all --value --static --transient --pretty --json: -j --host:h --machine:",
    subs={"status show show-timesync timesync-status list-timezones list-locales "
          "list-keymaps list-x11-keymap-models list-x11-keymap-layouts "
          "list-x11-keymap-variants list-x11-keymap-options": prog(args="p*", inherits=True),
          "hostname icon-name chassis deployment location": prog(inherits=True)},
    verb_optional=True, admin=True))
