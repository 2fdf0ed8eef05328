"""Grammars of text processors (sed, awk, jq, yq, mlr, pandoc, m4…), pagers and archivers.

Several of these execute text they are given (sed ``e``, awk ``system``, mlr ``exec``,
pandoc filters, m4 ``syscmd``): their scripts are read by hooks (``scripts.py``,
``hooks_text.py``); the options that run programs or write files are ``danger``/``ask``.
"""

from __future__ import annotations

from swebash.safety.classify.grammar import Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)

IN_PLACE = "rewrites files in place"
RUNS = "runs the program it is given"

define("sed gsed", lambda: prog(
    "-nEruszb -e: -f:r -l: --quiet --silent --debug --expression: --file:r "
    "--follow-symlinks --line-length: --posix --regexp-extended --separate --sandbox "
    "--unbuffered --null-data --binary", args="p*", hook="sed",
    danger={"-i:: --in-place:: -I": IN_PLACE}))
AWK = ("-F: -v: -e: -bcCgMNnOPrsStV -D:: -L:: --field-separator: --assign:e --source: "
       "--characters-as-bytes --traditional --copyright --debug:: --gen-pot --lint:: "
       "--bignum --use-lc-numeric --non-decimal-data --optimize --posix --re-interval "
       "--no-optimize --sandbox --lint-old --csv")
define("awk gawk mawk nawk", lambda: prog(
    AWK, args="p*", hook="awk", permute=False,
    danger={"-f:r --file:r -i: --include: -l: --load: -E:r --exec:r":
            "runs awk code from a file or an extension",
            "-W:": "passes an implementation option (mawk -W exec runs a file)"},
    ask={"-o:: --pretty-print:: -p:: --profile:: -d:: --dump-variables::":
         "writes a file (profile, pretty print or variable dump)"}))
JQ = ("-nrjascCMSehR -L:n -f:r --arg:+ --argjson:+ --slurpfile:+r --rawfile:+r "
      "--null-input --raw-output --join-output --ascii-output --slurp --compact-output "
      "--color-output --monochrome-output --sort-keys --exit-status --tab --indent: --args "
      "--jsonargs --seq --stream --stream-errors --raw-input --raw-output0 --unbuffered "
      "--binary -b --from-file:r")
define("jq gojq jaq", lambda: prog(JQ, args="p*", hook="jq"))
define("yq", lambda: prog(
    "-ejnNPrRCMv -o: -p: -I: -s: --exit-status --null-input --no-doc --prettyPrint "
    "--unwrapScalar --output-format: --input-format: --indent: --colors --no-colors "
    "--expression: --front-matter: --header-preprocess --nul-output "
    "--verbose --xml-attribute-prefix: --xml-content-name: --csv-auto-parse --tsv-auto-parse "
    "-y -Y --yaml-output --yaml-roundtrip --tab --indentless-lists --explicit-start "
    "--explicit-end --arg:+ --argjson:+ --raw-output --compact-output -c --slurp "
    "--sort-keys -S --tolerant",
    args="p*", hook="jq",
    ask={"-i --inplace --in-place": IN_PLACE, "--split-exp:": "writes files",
         "--from-file:r": "reads its expression from a file (it can load other files)"}))
define("mlr", lambda: prog(args="p*", raw=True, hook="mlr"))
define("m4", lambda: prog(
    "-EeGiPQsWv -D: -U: -I:n -d:: -l: -o: -t: -F: -R:r --fatal-warnings --interactive "
    "--gnu --traditional --prefix-builtins --quiet --silent --synclines --include:n "
    "--define: --undefine: --arglength: --debug:: --debugfile: --nesting-limit: "
    "--trace: --freeze-state: --reload-state:r --warn-macro-sequence::", args="r*",
    effect="expands macros, which can run commands (syscmd)"))
define("pandoc", lambda: prog(
    "-f: -r: -t: -w: -s -N -V: -M: -D: --from: --read: --to: --write: --standalone "
    "--toc --table-of-contents --toc-depth: --number-sections --number-offset: "
    "--variable: --metadata: --wrap: --columns: --list-input-formats "
    "--list-output-formats --list-extensions:: --list-highlight-languages "
    "--list-highlight-styles --print-default-template: --highlight-style: --no-highlight "
    "--shift-heading-level-by: --base-header-level: --strip-comments --tab-stop: "
    "--preserve-tabs --track-changes: --markdown-headings: --reference-links "
    "--reference-location: --top-level-division: --eol: --ascii --quiet --verbose "
    "--fail-if-warnings --mathjax:: --katex:: --mathml --webtex:: --gladtex "
    "--section-divs --html-q-tags --email-obfuscation: --id-prefix: --title-prefix: "
    "--indented-code-classes: --default-image-extension: --file-scope --sandbox "
    "--citeproc -C --ipynb-output: --dpi: --slide-level: --incremental -i "
    "--template:r --metadata-file:r --bibliography:r --csl:r --abbreviations:r "
    "--include-in-header:r -H:r --include-before-body:r -B:r --include-after-body:r -A:r "
    "--reference-doc:r --syntax-definition:r --css:p -c:p",
    args="r*",
    danger={"-F: --filter: -L: --lua-filter: --pdf-engine: --pdf-engine-opt: -d: "
            "--defaults: --data-dir:": "runs filters or programs it is given"},
    ask={"-o:w --output:w": "writes its output to a file",
         "--extract-media: --log:": "writes files",
         "--embed-resources --self-contained --resource-path: --request-header:":
         "fetches resources it names"}))
define("groff nroff troff", lambda: prog(
    "-abcCeEgGhijklNpRsStvVzZ -d: -f: -F:n -I:n -K: -m: -M:n -n: -o: -r: -T: -w: -W: "
    "-D: -P: -D*", args="r*",
    danger={"-U": "unsafe mode: lets the document run commands"},
    ask={"-l -L:": "prints the output"}))
define("split", lambda: prog(
    "-den -a: -b: -C: -l: -t: --suffix-length: --additional-suffix: --bytes: "
    "--line-bytes: --lines: --number: --separator: --elide-empty-files "
    "--numeric-suffixes:: --hex-suffixes:: --unbuffered --verbose -x --elide-empty-files",
    args="r? a?", effect="writes the pieces to files",
    danger={"--filter:": "runs a shell command for every piece"}))
define("csplit", lambda: prog(
    "-ksnzb -b: -f:a -n: --suffix-format: --prefix:a --keep-files --suppress-matched "
    "--digits: --quiet --silent --elide-empty-files", args="r p*",
    effect="writes the pieces to files"))
define("tee", lambda: prog("-aip --append --ignore-interrupts --output-error::", args="p*",
                           hook="tee"))
PAGER = ("-aABcCdeEfFgGiIJKLmMnNqQrRsSuUVwWXZ~ -b: -h: -j: -p: -P: -t: -x: -y: -z: "
         "-#: -D: -T:r --quit-at-eof --QUIT-AT-EOF --quit-if-one-screen --ignore-case "
         "--IGNORE-CASE --long-prompt --LONG-PROMPT --line-numbers --LINE-NUMBERS "
         "--raw-control-chars --RAW-CONTROL-CHARS --chop-long-lines --squeeze-blank-lines "
         "--no-init --tabs: --prompt: --pattern: --jump-target: --shift: --window: "
         "--max-back-scroll: --max-forw-scroll: --buffers: --auto-buffers --tag: "
         "--tag-file:r --search-skip-screen --hilite-search --HILITE-SEARCH "
         "--hilite-unread --HILITE-UNREAD --silent --SILENT --clear-screen --CLEAR-SCREEN "
         "--dumb --underline-special --UNDERLINE-SPECIAL --status-column --tilde "
         "--follow-name --incsearch --line-num-width: --mouse --wheel-lines: --no-keypad "
         "--no-histdups --save-marks --status-col-width: --use-backslash --use-color "
         "--color: --quotes: --redraw-on-quit --rscroll: --exit-follow-on-close "
         "--file-size --header: --no-number-headers --no-search-headers --no-vbell "
         "--proc-backspace --proc-tab --proc-return --show-preproc-errors --status-line "
         "--wordwrap --no-lessopen --form-feed --search-options: --modelines: --intr:")
define("less", lambda: prog(PAGER, args="r*", hook="pager",
                            ask={"-o:w -O:w --log-file:w --LOG-FILE:w": "writes a log file",
                                 "-k:r --lesskey-file:r --lesskey-src:r --lesskey-content:":
                                 "loads key bindings (they can run commands)"}))
define("more most pg", lambda: prog("-dflcpsuen: -N --silent --logical --no-pause --print-over "
                                    "--clean-print --squeeze --plain --lines:",
                                    args="r*", hook="pager"))
define("bat batcat", lambda: prog(
    "-ApnfdSuP -l: -H: -m: -r: --show-all --plain --number --force-colorization --diff "
    "--chop-long-lines --unbuffered --language: --highlight-line: --file-name: "
    "--diff-context: --tabs: --wrap: --terminal-width: --color: --italic-text: "
    "--decorations: --paging: --map-syntax: --ignored-suffix: --theme: --list-themes "
    "--list-languages --style: --line-range: --squeeze-blank --squeeze-limit: "
    "--strip-ansi: --no-config --no-custom-assets --config-file --config-dir "
    "--cache-dir --acknowledgements --diagnostic --set-terminal-title --nonprintable-notation: "
    "--binary: --no-paging -s",
    args="r*", danger={"--pager:": RUNS}))
define("zcat bzcat xzcat zstdcat lz4cat lzcat zless zmore bzless xzless", lambda: prog(
    "-fqvhlLtkcdT -S: --force --quiet --verbose --stdout --decompress --keep --test "
    "--list --suffix: --threads:", args="r*"))
define("gzip gunzip bzip2 bunzip2 xz unxz lzma unlzma zstd unzstd lz4 unlz4 brotli pigz "
       "unpigz pbzip2 lbzip2 lzip plzip pixz compress uncompress lzop", lambda: prog(
           "-0123456789cdfhklLnNqrStTvVzZ -S: -T: -b: -p: --stdout --to-stdout --decompress "
           "--uncompress --force --keep --list --license --no-name --name --quiet --recursive "
           "--rsyncable --suffix: --synchronous --test --verbose --fast --best --threads: "
           "--format: --check: --memlimit: --single-stream --no-sparse --robot --info "
           "--extreme --rm --ultra --long:: --no-progress --content-size --no-content-size "
           "--memory:", args="r*", hook="compress",
           ask={"-o:w --output:w": "writes its output to a file"}))
TAR = ("-AcdrtuxzjJZaOkvpPShWimBiMGonsUwl -C:n -f: -X:r -T:r -b: -N: -g:r -L: -V: "
       "-H: -K: --catenate --concatenate --create --diff --compare --delete --append --list "
       "--test-label --update --extract --get --show-defaults --directory:n --file: --gzip "
       "--gunzip --ungzip --bzip2 --xz --lzip --lzma --lzop --zstd --compress --uncompress "
       "--auto-compress --verbose --to-stdout --keep-old-files --keep-newer-files "
       "--skip-old-files --overwrite --overwrite-dir --preserve-permissions "
       "--same-permissions --no-same-permissions --same-owner --no-same-owner "
       "--numeric-owner --absolute-names --exclude: --exclude-from:r --files-from:r "
       "--wildcards --no-wildcards --dereference --sparse --verify --strip-components: "
       "--transform: --xform: --touch --owner: --group: --mode: --mtime: --read-full-records "
       "--blocking-factor: --ignore-zeros --check-links --newer: --after-date: "
       "--newer-mtime: --listed-incremental:r --incremental --multi-volume --tape-length: "
       "--checkpoint:: --force-local --one-file-system --totals:: --utc --full-time "
       "--quoting-style: --show-transformed-names --show-stored-names --anchored "
       "--no-anchored --ignore-case --no-ignore-case --null --no-null --recursion "
       "--no-recursion --exclude-vcs --exclude-vcs-ignores --exclude-caches "
       "--exclude-caches-under --exclude-caches-all --exclude-tag: --exclude-tag-under: "
       "--exclude-tag-all: --exclude-backups --format: --posix --label: --warning: "
       "--record-size: --sort: --acls --no-acls --xattrs --no-xattrs --selinux "
       "--no-selinux --delay-directory-restore --no-delay-directory-restore "
       "--keep-directory-symlink --unlink-first --recursive-unlink --backup:: --suffix: "
       "--preserve-order --same-order --occurrence:: --hole-detection: --level: "
       "--check-device --no-check-device --ignore-failed-read --ignore-command-error "
       "--interactive --confirmation --no-seek --seek --volno-file:w --restrict "
       "--atime-preserve:: --clamp-mtime --pax-option: --group-map:r --owner-map:r "
       "--block-number --index-file:w --no-auto-compress --no-overwrite-dir "
       "--no-unquote --unquote --add-file: --xattrs-include: --xattrs-exclude: --zstd")
define("tar gtar bsdtar", lambda: prog(
    TAR, args="p*", hook="tar", prep="tar",
    danger={"-I: -F: --use-compress-program: --to-command: --checkpoint-action: "
            "--info-script: --new-volume-script: --rmt-command: --rsh-command:": RUNS,
            "--remove-files": "deletes the files it archives"}))
define("unzip", lambda: prog(
    "-lvtzZpcfunoqjCXaAbBKLMsVWDT -d:n -x: -P: -O: -I: -Z1", args="r p*", hook="unzip"))
define("zipinfo", lambda: prog("-12shmlvLMtTzZC", args="r p*"))
define("zip", lambda: prog(
    "-rRjJqvufDFgAlLoSTwXyzeEhH0123456789@ -b:n -i: -x: -n: -t: -s: -P: -O:w -U -UN: "
    "-sp -sc -sf -su -sv -ll -db -dc -dd -dg -du -dv -ds: -FF -tt: -ws --recurse-paths "
    "--quiet --verbose --update --freshen --move --delete --grow --junk-paths --symlinks "
    "--test --encrypt --password: --exclude: --include: --suffixes: --temp-path:n "
    "--output-file:w --filesync --split-size: --no-extra", args="w p*",
    hook="zip", effect="creates or changes an archive",
    danger={"-TT: --unzip-command:": RUNS, "-m --move": "deletes the files it archives"},
    ask={"-d --delete": "deletes entries from an archive"}))
define("7z 7za 7zr 7zz 7zzs", lambda: prog(
    "-r -y -slt -so -si -ssc -scs* -sc* -bs* -bb* -ba -o*:a -p* -m* -t* -x* -i* -v* -w* "
    "-ao* -an -sdel -spf -snl -sni -sns -stl -bt -scrc*", single=True, args="p*",
    subs={"l t i h b": prog(args="r p*", inherits=True),
          "x e": prog(args="r p*", inherits=True, effect="extracts files (they may "
                      "overwrite existing ones)", dangerous=True),
          "a u d rn": prog(args="w p*", inherits=True, effect="creates or changes an archive",
                           hook="archive_reads")}))
define("cpio", lambda: prog(
    "-tivmduf0aBbcLsSV -H: -F: -E:r -R: -D:n -I: -O: -M: --list --verbose --numeric-uid-gid "
    "--quiet --no-absolute-filenames --format: --file: --pattern-file:r --directory:n "
    "--only-verify-crc --to-stdout --null -o --create -p --pass-through -u --unconditional "
    "--preserve-modification-time --make-directories --extract", hook="cpio",
    danger={"--rsh-command:": RUNS}))
define("ar gcc-ar llvm-ar", lambda: prog(
    "-DvcsSTUuoPN -tpx --target: --output:n", args="p*", hook="ar",
    danger={"--plugin:": "loads the plugin library it is given"}))
define("exiftool", lambda: prog(
    "-a -b -c: -d: -e -E -f -F -g -G -h -H -j -l -L -n -p: -q -r -s -S -t -T -u -U -v -X "
    "-ee -ext: -fast -api: -charset: -lang: -listx -list -listw -listf -listr -listwf "
    "-json -php -csv -struct -sort -x: -progress -m -s3 -s2 -s1 -G0 -G1 -G2 -G3 -a -D "
    "-validate -ver", single=True, args="r*", hook="exiftool",
    danger={"-if: -config: -userparam: -efile:": "evaluates Perl code or loads a config",
            "-filename:w -FileName:w -directory:w -Directory:w -hardlink:w -HardLink:w "
            "-symlink:w -SymLink:w -testname:w -TestName:w "
            "-o:w -w:w -W:w -out:w -tagsfromfile:r -overwrite_original "
            "-overwrite_original_in_place -delete_original": "writes or deletes files"}))
define("pdftotext pdfinfo pdffonts pdfimages pdftohtml", lambda: prog(
    "-f: -l: -r: -x: -y: -W: -H: -layout -fixed: -raw -nodiag -htmlmeta -bbox "
    "-bbox-layout -enc: -listenc -eol: -nopgbrk -opw: -upw: -q -v -h -help -meta -js "
    "-struct -struct-text -isodates -rawdates -dests -box -list -json", single=True,
    args="r p?", hook="pdf"))
define("identify ffprobe mediainfo", lambda: prog(
    "-verbose -format: -ping -quiet -v: -show_format -show_streams -show_entries: "
    "-of: -print_format: -hide_banner -loglevel: -select_streams: -count_frames -i:r "
    "-show_frames -show_packets -pretty -sexagesimal -unit -prefix -byte_binary_prefix",
    single=True, args="r*"))
