"""Grammars of the programs that change files: delete, copy, move, link, create, change
permissions, write raw data. None is read-only; the grammar makes sure every target is found
(``cp -t DIR``, ``--target-directory=DIR``, clustered flags) so the write policy can judge it
— writes outside the working tree, over existing files, into startup files or ``.git`` are
dangerous (``hooks_files.py``)."""

from __future__ import annotations

from swebash.safety.classify.grammar import Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)

define("rm", lambda: prog(
    "-fiIrRdv --force --interactive:: --one-file-system --no-preserve-root "
    "--preserve-root:: --recursive --dir --verbose", args="p*", hook="rm"))
define("unlink", lambda: prog(args="p*", hook="rm"))
define("rmdir", lambda: prog("-pv --ignore-fail-on-non-empty --parents --verbose",
                             args="p*", hook="create"))
define("shred", lambda: prog("-fuvxz -n: -s: --force --iterations: --random-source:m "
                             "--size: --remove:: --verbose --exact --zero", args="p*",
                             hook="destroy"))
define("truncate", lambda: prog("-co -r:n -s: --no-create --io-blocks --reference:n --size:",
                                args="p*", hook="destroy"))
define("wipe srm", lambda: prog("-frqQsvzc -l: -p: -S:", args="p*", hook="destroy"))
COPY = ("-abdfHilLnPpRrsSTuvxZ -S: -t:n --archive --attributes-only --backup:: "
        "--copy-contents --force --interactive --link --dereference --no-clobber "
        "--no-dereference --preserve:: --no-preserve: --parents --recursive --reflink:: "
        "--remove-destination --sparse: --strip-trailing-slashes --symbolic-link --suffix: "
        "--target-directory:n --no-target-directory --update:: --verbose --one-file-system "
        "--context:: --debug --keep-directory-symlink")
define("cp gcp", lambda: prog(COPY, args="p*", hook="copy"))
define("mv gmv", lambda: prog(COPY + " --exchange --no-copy", args="p*", hook="copy"))
define("ln gln", lambda: prog(
    "-bdFfinLPrsTtv -S: -t:n --backup:: --directory --force --interactive --logical "
    "--no-dereference --physical --relative --symbolic --suffix: --target-directory:n "
    "--no-target-directory --verbose", args="p*", hook="copy"))
define("install ginstall", lambda: prog(
    "-bcCdDpsTvZ -g: -m: -o: -S: -t:n --backup:: --compare --directory --group: --mode: "
    "--owner: --preserve-timestamps --strip --suffix: --target-directory:n "
    "--no-target-directory --verbose --preserve-context --context::", args="p*",
    hook="copy", danger={"--strip-program:": "runs the program it is given"}))
define("mkdir", lambda: prog("-pvZ -m: --mode: --parents --verbose --context::", args="p*",
                             hook="create"))
# a chosen time (`touch -d @0`, `-r other`) makes a changed file look untouched: timestomping
define("touch", lambda: prog("-acfhm --no-create --no-dereference --time:", args="p*",
                             hook="create",
                             danger={"-d: -t: --date: -r:n --reference:n":
                                     "sets a file's times to a chosen moment (hides when it "
                                     "changed)"}))
define("mkfifo", lambda: prog("-Z -m: --mode: --context::", args="p*", hook="create"))
define("mknod", lambda: prog("-Z -m: --mode: --context::", args="p*",
                             effect="creates a device file", dangerous=True))
define("fallocate", lambda: prog("-cdinpvxz -l: -o: --collapse-range --dig-holes "
                                 "--insert-range --length: --keep-size --offset: "
                                 "--punch-hole --posix --verbose --zero-range", args="p*",
                                 effect="allocates or frees disk space in a file",
                                 dangerous=True))
define("chmod chown chgrp chattr", lambda: prog(args="p*", raw=True, hook="perms"))
define("setfacl", lambda: prog("-bkndRLPvh -m: -M:r -x: -X:r --modify: --modify-file:r "
                               "--remove: --remove-file:r --remove-all --remove-default "
                               "--set: --set-file:r --mask --no-mask --default "
                               "--restore:r --test --recursive --logical --physical "
                               "--physical", args="p*", hook="perms"))
define("dd", lambda: prog(args="p*", raw=True, hook="dd"))
define("sync", lambda: prog("-df --data --file-system", args="n*"))
define("dos2unix unix2dos mac2unix unix2mac", lambda: prog(
    "-acfhiklLqsvVbrmoOnu -c: -D: -f --ascii --convmode: --force --keepdate --quiet "
    "--safe --verbose --newfile --oldfile --info:: --add-bom --remove-bom", args="p*",
    effect="rewrites files in place", dangerous=True))
define("strip objcopy", lambda: prog(
    "-gsSdxXpDUvw -o:w -R: -K: -N: -I: -O: -B: -j: -F: --strip-all --strip-debug "
    "--strip-unneeded --only-keep-debug --keep-symbol: --strip-symbol: --remove-section: "
    "--output-file:w --input-target: --output-target: --target: --preserve-dates "
    "--enable-deterministic-archives --verbose --wildcard --discard-all --discard-locals "
    "--only-section: --set-section-flags: --add-section: --update-section: "
    "--dump-section:",
    args="p*", hook="rewrite",
    danger={"--plugin:": "loads the plugin library it is given"}))
# Bulk renames and patches rewrite files as a whole; the files they name go through the
# write policy (outside the working tree: dangerous). Perl's rename evaluates its first
# argument as Perl code, whatever the options (`s/x/`id`/e`, `-e 'system …'`).
define("rename prename file-rename perl-rename", lambda: prog(
    "-v -n -f -0 -d -a -l -u:: --verbose --nono --dry-run --no-act --force --null --filename "
    "--nopath --path --fullpath --all --last --unicode:: -e:c --expr:c -E:c -m -V",
    args="p? a*", effect="renames files by a Perl expression (the expression is code)",
    dangerous=True))
define("rename.ul", lambda: prog(
    "-v -n -o -a -l -i -s --verbose --no-act --no-overwrite --all --last --interactive "
    "--symlink", args="p p a+", effect="renames files in bulk", dangerous=True))
define("mmv mcp mln mad", lambda: prog(
    "-m -x -r -c -o -a -l -s -h -d -p -g -t -k -v -n", args="p p",
    effect="moves or copies files in bulk by pattern"))
define("patch", lambda: prog(
    "-bcefElnNRstuZ -p: -F: -z: -B: -V: -Y: -g: -D: --backup --context --ed --normal "
    "--forward --reverse --silent --quiet --batch --force --unified --dry-run --verbose "
    "--strip: --fuzz: --suffix: --prefix: --basename-prefix: --version-control: --posix "
    "--binary --remove-empty-files --ignore-whitespace --set-utc --set-time --merge:: "
    "--quoting-style: --get: --ifdef: --follow-symlinks --read-only: --no-backup-if-mismatch "
    "--backup-if-mismatch -i:r --input:r -o:a --output:a -r:a --reject-file:a -d:a "
    "--directory:a", args="a? r?", effect="changes files as a patch says"))
