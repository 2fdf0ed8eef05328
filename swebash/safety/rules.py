"""Each simple command's words → findings: peel wrappers (``wrappers.py``) until the real
command, then apply its rule from ``RULES`` — builtins (``builtins.py``), programs that write
or run code (``rules_commands.py``), "read-only" programs with dangerous modes
(``programs_text.py``), network programs (``net.py``) — or the read-only table. A program on no
list asks.
"""

from __future__ import annotations

import shlex

from swebash.safety import builtins, listings, net, programs_text, rules_commands
from swebash.safety.checks import read_args
from swebash.safety.model import Findings, Rule, Word, base
from swebash.safety.paths import expand, secret_reason
from swebash.safety.tables import (
    CONTENT_READERS,
    DISK_TOOLS,
    INTERPRETERS,
    META_READERS,
    NAME_ONLY,
    NETWORK,
    POWER,
    READ_ONLY,
    RUNS_ANYTHING,
    SECRET_DUMPERS,
    SHELLS,
)
from swebash.safety.wrappers import peel

MAX_WRAPPERS = 16
RESERVED = frozenset({"{", "}", "!", "(", "((", "[[", "do", "done", "then", "fi", "esac",
                      "function", "select", "elif", "else", "case", "if", "while", "until"})
VERSION_ONLY = frozenset({"--version", "--help", "-V"})
RULES: dict[str, Rule] = {
    **builtins.BUILTIN_RULES,
    "find": programs_text.find, "fd": programs_text.fd, "fdfind": programs_text.fd,
    "tar": programs_text.tar,
    "unzip": programs_text.unzip, "zipinfo": programs_text.unzip, "jq": programs_text.jq,
    "yq": programs_text.jq, "less": programs_text.pager, "more": programs_text.pager,
    "uniq": programs_text.writes_second_file,
    "git": rules_commands.git, "tee": rules_commands.tee, "rm": rules_commands.rm,
    "rmdir": rules_commands.simple_write, "unlink": rules_commands.rm,
    "shred": rules_commands.destroy, "truncate": rules_commands.destroy,
    "wipe": rules_commands.destroy, "srm": rules_commands.destroy,
    "cp": rules_commands.simple_write, "mv": rules_commands.simple_write,
    "ln": rules_commands.simple_write, "install": rules_commands.simple_write,
    "mkdir": rules_commands.simple_write, "touch": rules_commands.simple_write,
    "chmod": rules_commands.perms, "chown": rules_commands.perms,
    "chgrp": rules_commands.perms, "chattr": rules_commands.perms,
    "setfacl": rules_commands.perms, "dd": rules_commands.dd,
    "crontab": rules_commands.crontab, "kill": rules_commands.kill,
    "pkill": rules_commands.kill, "killall": rules_commands.kill,
    "killall5": rules_commands.kill, "systemctl": rules_commands.systemctl,
    "source": rules_commands.source, ".": rules_commands.source,
    "sysctl": rules_commands.sysctl, "service": rules_commands.systemctl,
    "curl": net.curl, "wget": net.wget, "xxd": programs_text.xxd,
    "grep": programs_text.recursive_search, "egrep": programs_text.recursive_search,
    "fgrep": programs_text.recursive_search,
}
RULES.update({name: programs_text.option_rules for name in programs_text.OPTION_RULES
              if name not in RULES})
RULES.update({name: listings.listing for name in listings.LISTINGS})
RULES.update({tool: net.transfer for tool in ("scp", "rsync", "nc", "ncat", "netcat",
                                              "socat", "sftp", "ftp", "telnet",
                                              "tftp", "smbclient", "lftp", "aria2c", "xh",
                                              "http", "https", "websocat", "wscat")})
RULES.update({tool: net.lookup for tool in ("ping", "ping6", "dig", "host", "nslookup",
                                            "traceroute", "tracepath", "mtr", "whois",
                                            "drill", "kdig", "arping", "fping")})
RULES["ssh"] = rules_commands.ssh
RULES.update({tool: programs_text.compressor for tool in programs_text.COMPRESSORS})
RULES.update({tool: rules_commands.disk for tool in DISK_TOOLS})
RULES.update({tool: listings.admin for tool in listings.ADMIN})
RULES.update({tool: listings.linter
              for tool in listings.LINTERS | listings.FORMATTERS})
RULES.update({tool: rules_commands.editor for tool in rules_commands.EDITORS})
RULES.update({tool: rules_commands.power for tool in POWER})
RULES.update({sh: rules_commands.shell for sh in SHELLS})
RULES.update({name: rules_commands.interpreter for name in INTERPRETERS})


def check_argv(f: Findings, words: list[Word], depth: int) -> None:
    judge(f, [w.text for w in words], [w.dynamic for w in words], depth)


def judge(f: Findings, argv: list[str], dynamic: list[bool], depth: int) -> None:
    """Peel wrappers until the real command, then apply its rules."""
    for _ in range(MAX_WRAPPERS):
        if not argv:
            return
        f.tick()
        if dynamic[0] or set("*?[") & set(argv[0]):
            f.record(list(argv))
            f.ask("the command name is known only at run time", True)
            return
        name = base(argv[0])
        if name in RESERVED:  # `time { rm x; }`: a misparse; judge the words as shell text
            f.ask(f"'{name}' where a command is expected")
            f.nested(shlex.join(argv[1:]) if name in ("{", "!", "(") else
                     shlex.join(argv), f, depth + 1)
            return
        if argv[0] in f.functions:
            f.record(list(argv))
            return  # a function defined in this command: its body was judged
        peeled = peel(f, name, argv, dynamic, depth)
        if peeled is None:
            index = f.record(list(argv))  # as written: an allow rule for `make` is not `./make`
            before = f.asks
            f.window += 1
            try:
                apply_rules(f, name, argv, dynamic, depth)
            finally:
                f.window -= 1
            f.command_asks[index] = f.asks - before
            return
        argv, dynamic = peeled
    if argv:
        f.ask(f"more than {MAX_WRAPPERS} wrappers around one command")


def apply_rules(f: Findings, name: str, argv: list[str], dynamic: list[bool],
                depth: int) -> None:
    if name in CONTENT_READERS or name in META_READERS or name in NETWORK:
        read_args(f, name, argv[1:], dynamic[1:], VALUE_OPTIONS.get(name, frozenset()))
    elif name in READ_ONLY and name not in NAME_ONLY:
        # any other read-only program may echo what it reads (an error quoting a line)
        read_args(f, name, argv[1:], dynamic[1:], VALUE_OPTIONS.get(name, frozenset()),
                  reads=True)
    if len(argv) == 2 and argv[1] in VERSION_ONLY and name not in POWER | DISK_TOOLS \
            and not dynamic[1]:
        return
    if SECRET_DUMPERS.match(name):
        f.ask(f"{name}: reads a password store or key agent", True)
        return
    rule = RULES.get(name)
    if rule is not None:
        rule(f, name, argv, dynamic, depth)
    elif name.startswith(("python", "node", "ruby", "perl", "php", "pypy")):
        rules_commands.interpreter(f, name, argv, dynamic, depth)
    elif name not in READ_ONLY:
        listings.unknown(f, name, argv, dynamic, depth)
    if not (name in CONTENT_READERS or name in META_READERS or name in NETWORK
            or name in READ_ONLY):
        secret_arguments(f, name, argv[1:], dynamic[1:])
    if name in RUNS_ANYTHING and name not in RULES:
        inner_commands(f, argv, dynamic, depth)


def secret_arguments(f: Findings, name: str, args: list[str], dynamic: list[bool]) -> None:
    """Any program handed a secret file (`aws s3 cp ~/.ssh/id_rsa …`) may send it anywhere."""
    for arg, dyn in zip(args, dynamic, strict=True):
        if dyn or not arg or ("/" not in arg and not arg.startswith((".", "~"))):
            continue
        path = arg.split("=", 1)[-1].split("@", 1)[-1]
        reason = secret_reason(expand(path, f.cwd, f.home), f.home) if path else None
        if reason:
            f.ask(f"{name}: is handed {reason}", dangerous=True)
            return


def inner_commands(f: Findings, argv: list[str], dynamic: list[bool], depth: int) -> None:
    """A wrapper-like program the table does not model (`unshare -r rm x`): judge the command
    that starts at the first word naming a known program, for its dangerous flags."""
    for i in range(1, len(argv)):
        if not dynamic[i] and base(argv[i]) in RULES and not argv[i].startswith("-"):
            judge(f, argv[i:], dynamic[i:], depth)
            return


# options whose value is not a file (so `grep -e .env x` does not judge `.env`); a program
# not listed has none — a value then judged as a path can only make it stricter
VALUE_OPTIONS: dict[str, frozenset[str]] = {
    name: frozenset(options.split()) for name, options in {
        "grep": "-e --regexp -m --max-count -A -B -C -d -D --label --color --colour",
        "egrep": "-e -m -A -B -C", "fgrep": "-e -m -A -B -C", "zgrep": "-e -m -A -B -C",
        "rg": "-e --regexp -g --glob -t --type -T --type-not -m --max-count -A -B -C -M "
              "-j -r --replace --color --colors --sort --sortr --iglob",
        "ag": "-G -A -B -C -m --ignore", "head": "-n -c --lines --bytes",
        "tail": "-n -c --lines --bytes -s --pid", "cut": "-d -f -b -c --delimiter --fields",
        "sort": "-k -t -S -T --key --field-separator --buffer-size --parallel",
        "awk": "-F -v", "gawk": "-F -v", "mawk": "-F -v", "nawk": "-F -v",
        "sed": "-e --expression -l", "base64": "-w --wrap", "base32": "-w --wrap",
        "xxd": "-l -s -c -g -o -n -len -seek -cols -groupsize -offset -name",
        "od": "-A -j -N -t -w -S --address-radix --skip-bytes --read-bytes --format",
        "hexdump": "-n -s -e", "strings": "-n -t -e --bytes --radix --encoding",
        "nl": "-b -s -w -v -i -n -d -f -h -l", "column": "-s -c -o -N -t -R -E -W",
        "fold": "-w --width", "fmt": "-w --width -p", "diff": "-U -C --label -I",
        "uniq": "-f -s -w", "join": "-t -1 -2 -o -j -e", "paste": "-d --delimiters",
        "tr": "", "jq": "--arg --argjson --indent --tab", "curl": "-H -A -X -w -u -e -m -r "
        "--header --user-agent --request --write-out --user --referer --max-time --range",
        "ssh": "-i -p -l -o -F -J -L -R -D -b -c -E -e -m -O -Q -S -W -w -B",
        "scp": "-i -P -l -o -F -J -c -S", "rsync": "-e --rsh --rsync-path",
        "wget": "-U --user-agent --header -T --timeout -t --tries --max-redirect",
        "bat": "-l --language -r --line-range --theme --style -H --highlight-line "
               "--tabs --wrap --terminal-width --color --paging --italic-text",
        "less": "-b -h -j -p -P -x -y -z -# -o -O -k", "cat": "", "tac": "-s --separator",
        "comm": "--output-delimiter", "iconv": "-f -t --from-code --to-code",
        "shuf": "-n -i --head-count --input-range", "md5sum": "",
    }.items()
}
