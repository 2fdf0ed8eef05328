"""Grammars of the search tools: grep and its family, ripgrep, ag, ack, fd, find, locate.

A recursive search reads every file under its directories, so the hooks (``hooks_text.py``)
judge those directories as trees: a tree holding your home is denied, one holding a
secret-looking file asks. ``find -exec`` and ``fd -x`` carry commands, judged as commands.
"""

from __future__ import annotations

from swebash.safety.classify.grammar import Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)

GREP = ("-EFGPiyvwxclLoqsbHhnTZzaIrRU -e: -f:r -m: -A: -B: -C: -D: -d: -N --extended-regexp "
        "--fixed-strings --basic-regexp --perl-regexp --regexp: --file:r --ignore-case "
        "--no-ignore-case --word-regexp --line-regexp --null-data --no-messages "
        "--invert-match --count --color:: --colour:: --files-without-match "
        "--files-with-matches --max-count: --only-matching --quiet --silent --byte-offset "
        "--with-filename --no-filename --label: --line-number --initial-tab --unix-byte-offsets "
        "--null --after-context: --before-context: --context: --text --binary-files: "
        "--devices: --directories: --exclude: --exclude-from:r --exclude-dir: --include: "
        "--recursive --dereference-recursive --line-buffered --binary -u")
define("grep egrep fgrep zgrep zegrep zfgrep bzgrep xzgrep ggrep", lambda: prog(
    GREP, args="p*", hook="grep"))
RG = ("-AaBbCcEeFfgHhiIjLlMmNnoPpqrSsTtUuVvwxz0. -A: -B: -C: -d: -E: -e: -f:r -g: -j: -M: "
      "-m: -r: -t: -T: --after-context: --before-context: --context: --count "
      "--count-matches --color: --colors: --column --no-column --text --no-text "
      "--auto-hybrid-regex --binary --no-binary --block-buffered --no-block-buffered "
      "--byte-offset --no-byte-offset --case-sensitive --ignore-case --smart-case "
      "--context-separator: --no-context-separator --crlf --no-crlf --debug --trace "
      "--dfa-size-limit: --encoding: --no-encoding --engine: --field-context-separator: "
      "--field-match-separator: --file:r --files --files-with-matches "
      "--files-without-match --fixed-strings --no-fixed-strings --follow --no-follow "
      "--glob: --glob-case-insensitive --no-glob-case-insensitive --heading --no-heading "
      "--hidden --no-hidden --iglob: --ignore-file:r --ignore-file-case-insensitive "
      "--include-zero --invert-match --no-invert-match --json --no-json --line-buffered "
      "--no-line-buffered --line-number --no-line-number --line-regexp --max-columns: "
      "--max-columns-preview --no-max-columns-preview --max-count: --max-depth: "
      "--maxdepth: --max-filesize: --mmap --no-mmap --multiline --no-multiline "
      "--multiline-dotall --no-multiline-dotall --no-config --no-ignore --ignore "
      "--no-ignore-dot --no-ignore-exclude --no-ignore-files --no-ignore-global "
      "--no-ignore-parent --no-ignore-vcs --no-ignore-messages --no-messages "
      "--no-require-git --null --null-data --one-file-system --no-one-file-system "
      "--only-matching --passthru --passthrough --path-separator: --pcre2 --no-pcre2 "
      "--pcre2-version --pretty --quiet --regex-size-limit: --regexp: --replace: "
      "--search-zip --no-search-zip --sort: --sortr: --sort-files --no-sort-files --stats "
      "--no-stats --stop-on-nonmatch --threads: --trim --no-trim --type: --type-add: "
      "--type-clear: --type-list --type-not: --unrestricted --vimgrep --with-filename "
      "--no-filename --word-regexp --hyperlink-format: --generate: --no-unicode --unicode "
      "--no-ignore-hidden --ignore-hidden --no-pre")
define("rg", lambda: prog(
    RG, args="p*", hook="rg",
    danger={"--pre: --hostname-bin:": "runs the program it is given on every file"},
    info="--version --help -V -h --pcre2-version --type-list"))
define("ag", lambda: prog(
    "-aAbBcCDfFgGhHilLmnopQrsStuUvVwWz0 -A: -B: -C: -G: -g: -m: -p:r -W: -t --ackmate "
    "--all-text --all-types --after: --before: --break --nobreak --case-sensitive --color "
    "--nocolor --color-line-number: --color-match: --color-path: --column --context:: "
    "--count --debug --depth: --file-search-regex: --files-with-matches "
    "--files-without-matches --filename --nofilename --fixed-strings --follow --group "
    "--nogroup --heading --noheading --hidden --ignore: --ignore-case --ignore-dir: "
    "--invert-match --line-numbers --list-file-types --literal --max-count: "
    "--multiline --nomultiline --no-numbers --only-matching --one-device "
    "--path-to-ignore:r --print-all-files --print-long-lines --null --print0 --recurse "
    "--norecurse --search-binary --search-zip --silent --skip-vcs-ignores --smart-case "
    "--stats --unrestricted --vimgrep --word-regexp --workers: --width: --literal",
    args="p*", hook="rg", danger={"--pager:": "runs the pager it is given"}))
define("ack ack-grep", lambda: prog(
    "-ivwQclLhHnoAB -A: -B: -C: -m: -t: --ignore-case --smart-case --invert-match "
    "--word-regexp --literal --count --files-with-matches --files-without-matches "
    "--with-filename --no-filename --nobreak --nogroup --nocolor --noenv --sort-files "
    "--type: --ignore-dir: --noignore-dir: --nopager", args="p*", hook="rg",
    danger={"--pager: --output: --env --ackrc: --files-from:":
            "runs a pager or evaluates Perl it is given"}))
FD = ("-HIusiglaLp01q -d: -E: -t: -e: -S: -o: -j: -c: --hidden --no-hidden --no-ignore "
      "--ignore --no-ignore-vcs --ignore-vcs --no-ignore-parent --no-global-ignore-file "
      "--unrestricted --case-sensitive --ignore-case --glob --regex --fixed-strings "
      "--absolute-path --relative-path --list-details --follow --no-follow --full-path "
      "--print0 --max-depth: --min-depth: --exact-depth: --prune --exclude: --type: "
      "--extension: --size: --changed-within: --changed-before: --change-newer-than: "
      "--change-older-than: --newer: --older: --owner: --format: --color: --threads: "
      "--max-results: --max-one-result --quiet --has-results --show-errors "
      "--base-directory:n --path-separator: --search-path:n --strip-cwd-prefix:: "
      "--one-file-system --ignore-file:r --hyperlink:: -x:x --exec:x -X:x --exec-batch:x")
define("fd fdfind", lambda: prog(
    FD, args="p? n*", hook="fd",
    ask={"--batch-size:": "sets how many files each command gets"}))
FIND = ("-H -L -P -D: -O* -depth -d -mount -xdev -noleaf -ignore_readdir_race "
        "-noignore_readdir_race -daystart -follow -regextype: -warn -nowarn -maxdepth: "
        "-mindepth: -name: -iname: -path: -ipath: -wholename: -iwholename: -regex: "
        "-iregex: -lname: -ilname: -type: -xtype: -size: -perm: -user: -group: -uid: "
        "-gid: -links: -inum: -samefile:n -newer:n -anewer:n -cnewer:n -newer* -amin: "
        "-atime: -cmin: -ctime: -mmin: -mtime: -used: -fstype: -context: -empty "
        "-executable -readable -writable -nogroup -nouser -false -true -print -print0 "
        "-printf: -ls -prune -quit -not -and -or -a -o -E -X -x -s -f:n "
        "-files0-from:r -Bmin: -Btime: -Bnewer:n -acl -xattr -flags: -exec:x -execdir:x "
        "-ok:x -okdir:x")
define("find gfind bfs", lambda: prog(
    FIND, args="n*", single=True, hook="find", own_commands=True,
    danger={"-delete": "deletes the files it finds"},
    ask={"-fprint:w -fprint0:w -fls:w -fprintf:w": "writes a file"}))
define("locate plocate mlocate slocate", lambda: prog(
    "-0AbceiLlPqrSw -d:m -l: -n: --null --all --basename --count --existing --follow "
    "--ignore-case --limit: --nofollow --quiet --regex --regexp: --statistics --wholename "
    "--database:m --ignore-spaces --transliterate", args="p*"))
