"""Grammars of version control: git (its read verbs with their full option lists; write
verbs as effects judged by ``hooks_git.py``), gh, hg, svn.

git's global options come before the verb (``git -C dir log``); ``-c key=value`` is judged by
the key (color and format settings pass; anything that can name a program asks, dangerous).
"""

from __future__ import annotations

from swebash.safety.classify.grammar import Spec, Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)

DIFF = ("-psuRaWbwtzDlN -U:: -X:: -B:: -M:: -C:: -l: -S: -G: -O:r -I: -0 -1 -2 -3 --patch "
        "--no-patch --unified:: --raw --patch-with-raw --indent-heuristic "
        "--no-indent-heuristic --minimal --patience --histogram --anchored: "
        "--diff-algorithm: --stat:: --compact-summary --numstat --shortstat --dirstat:: "
        "--cumulative --dirstat-by-file:: --summary --patch-with-stat --name-only "
        "--name-status --submodule:: --color:: --no-color --color-moved:: --no-color-moved "
        "--color-moved-ws: --no-color-moved-ws --word-diff:: --word-diff-regex: "
        "--color-words:: --no-renames --renames --rename-empty --no-rename-empty --check "
        "--ws-error-highlight: --full-index --binary --abbrev:: --break-rewrites:: "
        "--find-renames:: --find-copies:: --find-copies-harder --irreversible-delete "
        "--diff-filter: --find-object: --pickaxe-all --pickaxe-regex --skip-to: --rotate-to: "
        "--relative:: --no-relative --text --ignore-cr-at-eol --ignore-space-at-eol "
        "--ignore-space-change --ignore-all-space --ignore-blank-lines "
        "--ignore-matching-lines: --inter-hunk-context: --function-context --exit-code "
        "--quiet --no-ext-diff --no-textconv --ignore-submodules:: --src-prefix: "
        "--dst-prefix: --no-prefix --default-prefix --line-prefix: --ita-invisible-in-index "
        "--ita-visible-in-index --stat-width: --stat-name-width: --stat-count: "
        "--stat-graph-width: --output-indicator-new: --output-indicator-old: "
        "--output-indicator-context: --diff-merges: --no-diff-merges --combined-all-paths "
        "--remerge-diff --dd --cc -m -c --full-diff")
REVS = ("-n: -i -E -F -P -g -q -L: --max-count: --skip: --since: --after: "
        "--since-as-filter: --until: --before: --author: --committer: --grep-reflog: --grep: "
        "--all-match --invert-grep --regexp-ignore-case --basic-regexp --extended-regexp "
        "--fixed-strings --perl-regexp --remove-empty --merges --no-merges --min-parents: "
        "--max-parents: --no-min-parents --no-max-parents --first-parent "
        "--exclude-first-parent-only --not --all --branches:: --tags:: --remotes:: --glob: "
        "--exclude: --exclude-hidden: --reflog --alternate-refs --single-worktree "
        "--ignore-missing --bisect --stdin --cherry-mark --cherry-pick --left-only "
        "--right-only --cherry --walk-reflogs --merge --boundary --simplify-by-decoration "
        "--show-pulls --full-history --dense --sparse --simplify-merges --ancestry-path:: "
        "--date-order --author-date-order --topo-order --reverse --no-walk:: --do-walk "
        "--pretty:: --format: --abbrev-commit --no-abbrev-commit --oneline --encoding: "
        "--expand-tabs:: --no-expand-tabs --notes:: --no-notes --show-notes:: "
        "--standard-notes --no-standard-notes --show-signature --relative-date --date: "
        "--parents --children --left-right --graph --show-linear-break:: --decorate:: "
        "--no-decorate --decorate-refs: --decorate-refs-exclude: --clear-decorations "
        "--source --mailmap --no-mailmap --use-mailmap --no-use-mailmap --log-size --count "
        "--max-age: --min-age: --follow --no-follow --timestamp --objects --objects-edge "
        "--unpacked --in-commit-order --no-object-names --object-names --filter: --no-filter "
        "--missing: --header --no-commit-header --commit-header --bisect-vars --bisect-all "
        "--no-graph --show-origin --author-date-order -N")
LOG = DIFF + " " + REVS
DANGER_DIFF = {"--ext-diff --textconv": "runs the diff or text conversion programs the "
                                        "configuration names"}
WRITE_OUT = {"--output:w": "writes its output to a file"}


def read(options: str = "", args: str = "p*", hook: str = "git_revs", **kw: object) -> Spec:
    return prog(options, args=args, hook=hook, danger=DANGER_DIFF, ask=WRITE_OUT,
                **kw)  # type: ignore[arg-type]


def write(effect: str, dangerous: bool = False) -> Spec:
    """A git verb that changes the repository, the work tree or a remote: its options are
    not modelled (it asks anyway); ``hooks_git.write`` flags the destructive forms."""
    return prog(args="p*", raw=True, effect=effect, dangerous=dangerous, hook="git_write")


def git() -> Spec:
    stash = prog(subs={
        "list": read(LOG), "show": read(DIFF + " -u --include-untracked --only-untracked"),
        "push save create store apply branch": write("stashes or applies changes"),
        "pop drop clear": write("deletes stashed work", True)}, verb_optional=True,
        hook="git_stash_bare")
    return prog(
        "-p -P -C:n --paginate --no-pager --git-dir:n --work-tree:n --namespace: "
        "--super-prefix: --bare --no-replace-objects --no-lazy-fetch --literal-pathspecs "
        "--glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks "
        "--no-advice --html-path --man-path --info-path --list-cmds: --attr-source: "
        "--exec-path:: -c:", hook="git", info="--version --help -v -h --html-path --man-path "
        "--info-path --exec-path",
        danger={"--config-env:": "sets configuration from the environment (it can name "
                                 "programs to run)"},
        subs={
            "log whatchanged": read(LOG),
            "show": read(LOG),
            "diff": read(DIFF + " --cached --staged --merge-base --no-index --base --ours "
                                "--theirs"),
            "diff-tree diff-index diff-files": read(
                DIFF + " -r -t -v --root --merge-base --stdin --no-commit-id --always "
                       "--cached --pretty:: --format: --encoding: -m --no-renames"),
            "range-diff": read(LOG + " --creation-factor: --no-dual-color"),
            "shortlog": read(REVS + " -s -e -c -w:: --numbered --summary --email --committer "
                                    "--group:"),
            "rev-list": read(LOG + " --quiet --disk-usage:: --exclude-promisor-objects "
                                   "--indexed-objects --no-kept-objects --progress:"),
            "status": read("-sbuvz -u:: --short --branch --porcelain:: --long --verbose "
                           "--untracked-files:: --ignore-submodules:: --ignored:: "
                           "--column:: --no-column --ahead-behind --no-ahead-behind "
                           "--renames --no-renames --find-renames:: --show-stash --null",
                           hook=""),
            "blame annotate": read(
                "-bltsepwnfc -M:: -C:: -L: -S:r --root --show-stats --score-debug "
                "--show-name --show-number --porcelain --line-porcelain --incremental "
                "--contents:r --date: --progress --no-progress --abbrev:: --reverse: "
                "--first-parent --encoding: --ignore-rev: --ignore-revs-file:r "
                "--color-lines --color-by-age --minimal", hook="git_paths"),
            "grep": prog(
                "-aiIrwvhHEGFPnlLzocpWq -A: -B: -C: -m: -f:r -e: -N --cached --untracked "
                "--no-index --no-exclude-standard --exclude-standard --recurse-submodules "
                "--parent-basename: --text --no-textconv --ignore-case --max-depth: "
                "--recursive --no-recursive --word-regexp --invert-match --full-name "
                "--extended-regexp --basic-regexp --perl-regexp --fixed-strings "
                "--line-number --column --files-with-matches --name-only "
                "--files-without-match --null --only-matching --count --color:: "
                "--no-color --break --heading --show-function --function-context "
                "--max-count: --threads: --and --or --not --all-match --quiet",
                args="p*", hook="git_grep",
                danger={"-O:: --open-files-in-pager:: --textconv":
                        "runs a pager or text conversion program"}),
            "ls-files": read("-cdmoiksutvfz -x: -X:r --cached --deleted --modified --others "
                             "--ignored --stage --unmerged --killed --directory "
                             "--no-empty-directory --eol --deduplicate --exclude: "
                             "--exclude-from:r --exclude-per-directory: --exclude-standard "
                             "--error-unmatch --with-tree: --full-name "
                             "--recurse-submodules --abbrev:: --debug --sparse --format: "
                             "--resolve-undo", hook=""),
            "ls-tree": read("-drtlz --long --name-only --name-status --object-only "
                            "--full-name --full-tree --abbrev:: --format:", hook=""),
            "cat-file": prog("-tsep -Z --batch:: --batch-check:: --batch-command:: "
                             "--batch-all-objects --buffer --follow-symlinks --unordered "
                             "--path: --allow-unknown-type --mailmap --use-mailmap "
                             "--no-mailmap", args="p*", hook="git_revs",
                             danger={"--textconv --filters": "runs the conversion programs "
                                                             "the configuration names"}),
            "describe": prog("--all --tags --contains --abbrev: --candidates: "
                             "--exact-match --debug --long --match: --exclude: --always "
                             "--first-parent --dirty:: --broken::", args="p*"),
            "rev-parse": prog(
                "-q --revs-only --no-revs --flags --no-flags --default: --prefix: --verify "
                "--quiet --sq --sq-quote --short:: --not --abbrev-ref:: --symbolic "
                "--symbolic-full-name --all --branches:: --tags:: --remotes:: --glob: "
                "--exclude: --exclude-hidden: --disambiguate: --local-env-vars "
                "--path-format: --git-dir --git-common-dir --resolve-git-dir:n --git-path: "
                "--show-toplevel --show-superproject-working-tree --shared-index-path "
                "--absolute-git-dir --is-inside-git-dir --is-inside-work-tree "
                "--is-bare-repository --is-shallow-repository --show-cdup --show-prefix "
                "--show-object-format:: --show-ref-format --since: --after: --until: "
                "--before: --keep-dashdash --stop-at-non-option --stuck-long", args="p*",
                abbrev=False),
            "name-rev": prog("--tags --refs: --exclude: --all --annotate-stdin --stdin "
                             "--name-only --no-undefined --always", args="p*"),
            "merge-base": prog("-a --all --octopus --independent --is-ancestor "
                               "--fork-point", args="p*"),
            "count-objects": prog("-vH --verbose --human-readable"),
            "for-each-ref": prog("-sp --count: --shell --perl --python --tcl --sort: "
                                 "--format: --color:: --points-at: --merged:: --no-merged:: "
                                 "--contains:: --no-contains:: --ignore-case --omit-empty "
                                 "--exclude: --stdin --include-root-refs", args="p*"),
            "show-ref": prog("-dsq --dereference --hash:: --abbrev:: --head --tags --heads "
                             "--branches --verify --exists --exclude-existing:: --quiet",
                             args="p*"),
            "show-branch": prog("-arg --all --remotes --topo-order --date-order --current "
                                "--sparse --more:: --list --merge-base --independent "
                                "--no-name --sha1-name --topics --reflog:: --color:: "
                                "--no-color", args="p*"),
            "var": prog("-l", args="p?"),
            "check-ignore": prog("-qvnz --quiet --verbose --no-index --non-matching --stdin",
                                 args="n*"),
            "check-attr": prog("-az --all --cached --stdin --source:", args="p*"),
            "verify-commit verify-tag": prog("-v --verbose --raw --format:", args="p*"),
            "symbolic-ref": prog("-q --quiet --short --no-recurse --recurse", args="p p?",
                                 hook="git_symref",
                                 danger={"-d --delete": "deletes a symbolic ref"}),
            "fsck": prog("--unreachable --dangling --no-dangling --root --tags --cache "
                         "--no-reflogs --full --no-full --connectivity-only --strict "
                         "--verbose --progress --no-progress --name-objects --references "
                         "--no-references", args="p*",
                         ask={"--lost-found": "writes found objects into .git"}),
            "reflog": read(LOG, hook="git_reflog"),
            "stash": stash,
            "worktree": prog(subs={
                "list": prog("-v --porcelain --verbose --expire: -z"),
                # the new working tree's path is a place written: outside the tree, it is
                # judged like any write there
                "add": prog("-fq --force --detach --checkout --no-checkout --lock --reason: "
                            "--orphan -b: -B: --track --no-track --guess-remote "
                            "--no-guess-remote --quiet", args="a p?",
                            effect="adds a working tree"),
                "move": prog("-f --force", args="p a", effect="moves a working tree"),
                "lock unlock repair": write("changes working trees"),
                "remove prune": write("deletes a working tree", True)}),
            "submodule": prog("--quiet -q", subs={
                "status": prog("--cached --recursive -q --quiet", args="n*", inherits=True),
                "summary": prog("--cached --files -n: --summary-limit: --for-status",
                                args="p*", inherits=True),
                "foreach": prog("--recursive -q --quiet", args="c", inherits=True,
                                effect="runs a command in every submodule"),
                "deinit": write("deletes a submodule's working tree", True),
                "update init add sync set-branch set-url absorbgitdirs":
                    write("changes submodules")}, verb_optional=True),
            "remote": prog("-v --verbose", subs={
                "show": prog("-n", args="p*", inherits=True),
                "get-url": prog("--push --all", args="p", inherits=True),
                "set-head set-branches prune update": write("changes remotes"),
                "add rename remove rm set-url": write("changes a remote (where commits are "
                                                      "sent or fetched from)", True)},
                verb_optional=True),
            "branch": prog("-avrilq -vv --all --remotes --list --contains:: --no-contains:: "
                           "--merged:: --no-merged:: --points-at: --sort: --format: "
                           "--show-current --color:: --no-color --column:: --no-column "
                           "--ignore-case --abbrev: --no-abbrev --omit-empty --verbose "
                           "--quiet", args="p*", hook="git_branch",
                           ask={"-m -M -c -C --move --copy -t --track:: --no-track -u: "
                                "--set-upstream-to: --unset-upstream --edit-description "
                                "--create-reflog --recurse-submodules":
                                "creates, renames or changes branches"},
                           danger={"-d -D --delete -f --force":
                                   "deletes or overwrites branches"}),
            "tag": prog("-lnv -n:: --list --contains:: --no-contains:: --merged:: "
                        "--no-merged:: --points-at: --sort: --format: --color:: --column:: "
                        "--no-column --ignore-case --omit-empty --verify", args="p*",
                        hook="git_tag",
                        ask={"-a -s -u: -m: -F:r -e --annotate --sign --no-sign "
                             "--local-user: --message: --file:r --edit --cleanup: "
                             "--create-reflog --trailer:": "creates a tag"},
                        danger={"-d --delete -f --force": "deletes or overwrites tags"}),
            "config": prog("-lz --list --get --get-all --get-regexp --get-urlmatch "
                           "--get-color --get-colorbool --show-origin --show-scope "
                           "--name-only --global --system --local --worktree --file:r "
                           "-f:r --blob: --type: --bool --int --bool-or-int --path "
                           "--expiry-date --null --includes --no-includes --default: "
                           "--fixed-value", args="p*", hook="git_config",
                           ask={"--unset --unset-all --add --replace-all --rename-section "
                                "--remove-section -e --edit": "changes the configuration"}),
            "notes": prog("--ref:", subs={
                "list show": prog(args="p*", inherits=True),
                "add append copy edit merge remove prune get-ref": write("changes notes")},
                verb_optional=True),
            "help": prog("-aigm --all --guides --config --man --no-verbose --verbose "
                         "--no-external-commands --no-aliases --user-interfaces "
                         "--developer-interfaces", args="p*",
                         ask={"-w --web -i --info": "opens a browser or info viewer"}),
            "version": prog("--build-options"),
            "ls-remote": prog("-htbq --heads --tags --branches --refs --quiet --exit-code "
                              "--get-url --sort: --symref -o: --server-option:", args="p*",
                              hook="git_remote_url",
                              danger={"--upload-pack: --exec:": "runs the program it is "
                                                                "given"}),
            "archive": prog("-lv0123456789 --format: --list --verbose --prefix: "
                            "--add-file:r --add-virtual-file: --worktree-attributes "
                            "--mtime:", args="p*",
                            ask={"-o:w --output:w": "writes the archive to a file",
                                 "--remote:": "asks a remote for an archive"},
                            danger={"--exec:": "runs the program it is given"}),
            "bundle": prog(subs={"verify list-heads": prog("-q --quiet", args="r p*"),
                                 "create unbundle": write("writes a bundle or its objects")}),
            "cherry": prog("-v --abbrev::", args="p*"),
            "get-tar-commit-id patch-id show-index": prog("--stable --unstable --verbatim"),
            "verify-pack": prog("-vs --verbose --stat-only", args="r*"),
            "clean": prog("-dfixXnqe: --dry-run --force --interactive --quiet --exclude:",
                          args="n*", hook="git_clean"),
            "add": write("stages changes"),
            "commit": write("records a commit"),
            "push send-pack": write("publishes commits to a remote", True),
            "subtree": prog(subs={"push": write("publishes commits to a remote", True),
                                  "add merge pull split": write("changes the repository "
                                                                "or the working tree")}),
            "lfs": prog(subs={
                "ls-files status env version locks": prog(args="p*", raw=True),
                "push": write("publishes large files to a remote", True),
                "migrate": write("rewrites, prunes or deletes history or files", True),
                "prune": write("deletes the local copies of large files", True),
                "track untrack install uninstall pull fetch checkout lock unlock "
                "update fsck pointer clone dedup": write("changes the repository or the "
                                                         "working tree")}),
            "pull fetch": write("fetches from a remote and updates refs"),
            "replace": write("changes what history shows (replaces objects)", True),
            "merge cherry-pick revert am apply mv init clone sparse-checkout "
            "switch checkout restore reset mergetool maintenance repack request-pull "
            "interpret-trailers mktree hash-object write-tree read-tree commit-tree "
            "update-index checkout-index unpack-objects pack-objects index-pack "
            "unpack-file merge-file merge-tree fast-import fast-export citool gui gitk "
            "range-diff-write rerere bisect format-patch diagnose bugreport scalar "
            "prune-packed pack-refs multi-pack-index commit-graph":
                write("changes the repository or the working tree"),
            "rebase filter-branch filter-repo update-ref gc prune rm":
                write("rewrites, prunes or deletes history or files", True),
            "send-email imap-send": write("sends patches by email", True),
            "daemon instaweb http-backend upload-pack receive-pack upload-archive shell":
                write("serves the repository", True),
            "credential credential-store credential-cache credential-manager "
            "credential-manager-core credential-osxkeychain credential-libsecret "
            "credential-wincred credential-netrc": write(
                "reads or stores credentials", True),
            "difftool": write("runs a diff tool"),
        })


define("git", git)
define("gh", lambda: prog(
    "-R: --repo: --hostname:",
    subs={
        "pr": prog(subs={
            "list ls status": prog("-s: -l: -L: -A: -B: -H: -S: -q: -t: --state: --label: "
                                "--limit: --author: --base: --head: --search: --json: "
                                "--jq: --template: --draft --app: --assignee: --repo: -R:",
                                args="p*", inherits=True),
            "view diff checks": prog("-c -q: -t: --comments --json: --jq: --template: "
                                     "--color: --patch --name-only --watch --required "
                                     "--interval: --fail-fast --web-url", args="p?",
                                     inherits=True, ask={"-w --web": "opens a browser"}),
            "create merge close reopen edit comment review ready checkout lock unlock "
            "update-branch revert": write("changes pull requests")}),
        "issue": prog(subs={
            "list ls status": prog("-s: -l: -L: -A: -a: -m: -S: -q: -t: --state: --label: "
                                   "--limit: --author: --assignee: --milestone: --search: "
                                   "--json: --jq: --template: --mention: --app: --repo: -R:",
                                   args="p*",
                                inherits=True),
            "view": prog("-c -q: -t: --comments --json: --jq: --template:", args="p?",
                         inherits=True, ask={"-w --web": "opens a browser"}),
            "create close reopen edit comment delete transfer pin unpin lock unlock develop":
                write("changes issues")}),
        "repo": prog(subs={
            "view": prog("-b: -q: -t: --branch: --json: --jq: --template:", args="p?",
                         inherits=True, ask={"-w --web": "opens a browser"}),
            "list ls": prog("-L: -l: -q: -t: --limit: --language: --topic: --visibility: "
                         "--json: --jq: --template: --archived --no-archived --fork "
                         "--source", args="p?", inherits=True),
            "delete archive": write("deletes or archives a repository", True),
            "clone create fork edit rename sync set-default deploy-key unarchive":
                write("changes repositories")}),
        "run": prog(subs={
            "list ls": prog("-L: -b: -w: -s: -u: -e: -c: -q: -t: --limit: --branch: "
                         "--workflow: --status: --user: --event: --commit: --json: --jq: "
                         "--template: --created: --all", args="p*", inherits=True),
            "view watch": prog("-j: -a: --job: --attempt: --log --log-failed --verbose -v "
                               "--exit-status --json: --jq: --template: -i: --interval: "
                               "--compact", args="p?", inherits=True,
                               ask={"-w --web": "opens a browser"}),
            "rerun cancel download delete": write("changes workflow runs")}),
        "release": prog(subs={
            "list ls": prog("-L: --limit: --exclude-drafts --exclude-pre-releases --json: "
                         "--jq: --template: -O: --order:", inherits=True),
            "view": prog("--json: --jq: --template: -q: -t:", args="p?", inherits=True,
                         ask={"-w --web": "opens a browser"}),
            "delete delete-asset": write("deletes a release", True),
            "create upload": write("publishes a release with its files", True),
            "edit download verify verify-asset": write("changes releases")}),
        "auth": prog(subs={
            "status": prog("-a -h: --active --hostname: --json: --jq: --template:",
                           inherits=True,
                           danger={"-t --show-token": "prints the authentication token"}),
            "token": write("prints the authentication token", True),
            "login logout refresh setup-git switch": write("changes authentication")}),
        "workflow": prog(subs={
            "list ls view": prog("-a -L: -r: -y --all --limit: --ref: --yaml --json: --jq: "
                              "--template:", args="p?", inherits=True),
            "run enable disable": write("runs or changes workflows")}),
        "api": prog(args="p*", raw=True, hook="gh_api"),
        "secret variable": prog(subs={
            "list": prog("-a: -e: -o: --app: --env: --org: --user --json: --jq: "
                         "--template:", inherits=True),
            "set delete remove get": write("reads or changes secrets and variables", True)}),
        "gist": prog(subs={"list view": prog("-L: --limit: --public --secret --raw -r "
                                             "--filename: -f:", args="p?", inherits=True),
                           "create edit delete clone rename": write("publishes or changes "
                                                                    "gists", True)}),
        "extension ext extensions": prog(subs={
            "list ls search browse": prog(args="p*", inherits=True, raw=True),
            "install upgrade exec create remove": write("installs or runs a gh extension "
                                                        "(its code runs)", True)}),
        "codespace cs ssh-key gpg-key label cache ruleset project org browse "
        "attestation copilot": write("changes GitHub or local gh settings"),
        # gh's settings name programs (editor, pager, browser) and aliases run shell code
        "config": prog(subs={"get list": prog("-h: --host:", args="p?", inherits=True),
                             "set clear-cache": write("sets a program gh runs (editor, "
                                                      "pager, browser)", True)}),
        "alias": prog(subs={"list ls": prog(inherits=True),
                            "set import delete": write("defines a gh alias (it can run "
                                                       "shell code)", True)}),
        "search": prog(subs={"repos issues prs code commits": prog(
            args="p*", raw=True, inherits=True)}),
        "status": prog("-e: -o: --exclude: --org:", inherits=True),
        "version": prog(),
    }))
define("hg", lambda: prog(
    "-R:n -y -q -v --repository:n --cwd:n --noninteractive --quiet --verbose --color: "
    "--pager: --debug --time --traceback --profile --hidden",
    danger={"--config: --config-file:": "sets configuration (hooks, aliases and extensions "
                                        "run programs)"},
    subs={"status st": prog("-amrdcuinC0S --all --modified --added --removed --deleted "
                            "--clean --unknown --ignored --no-status --copies --rev: "
                            "--change: --include: --exclude: --subrepos --template: -T:",
                            args="p*", inherits=True),
          "log history": prog("-fpgMPvr -l: -r: -u: -k: -b: -d: -I: -X: -T: --follow "
                              "--limit: --rev: --user: --keyword: --branch: --date: "
                              "--patch --git --stat --graph --template: --style: "
                              "--no-merges --only-merges --copies --prune:", args="p*",
                              inherits=True),
          "diff": prog("-acgpBwbZ -r: -c: -I: -X: -U: --rev: --change: --text --git "
                       "--binary --nodates --noprefix --show-function --reverse "
                       "--ignore-all-space --ignore-space-change --ignore-blank-lines "
                       "--unified: --stat --root:", args="p*", inherits=True),
          "summary sum identify id heads branches tags paths root version files "
          "manifest cat annotate blame": prog("-r: -T: --rev: --template: -a -u -n -c -l "
                                              "-q --remote --closed --active", args="p*",
                                              inherits=True),
          "strip purge clean prune rollback": write("deletes changesets or files", True),
          "commit ci push pull update up add remove rm forget merge rebase histedit "
          "backout graft revert shelve unshelve import export bookmark branch tag clone "
          "init serve": write("changes the repository or the working tree")}))
define("svn", lambda: prog(
    "-q -v --quiet --verbose --non-interactive --username: --no-auth-cache "
    "--trust-server-cert --config-dir:n",
    danger={"--config-option:": "sets configuration (it can name programs to run)"},
    subs={"status st stat info log diff di cat blame praise annotate ls list proplist "
          "plist propget pget pg mergeinfo": prog(
              "-r: -c: -l: -x: -N --revision: --change: --limit: --depth: --stop-on-copy "
              "--xml --incremental --show-updates -u --summarize --diff --internal-diff "
              "--git --no-ignore --ignore-externals --recursive -R", args="p*",
              inherits=True, danger={"--diff-cmd: --extensions:": "runs the diff program "
                                                                   "it is given"}),
          "delete del remove rm": write("deletes files from the repository", True),
          "update up checkout co commit ci add move mv copy cp propset pset ps propdel "
          "merge switch revert resolve resolved cleanup import export lock unlock "
          "relocate patch mkdir upgrade": write("changes the working copy or the "
                                                "repository")}))
