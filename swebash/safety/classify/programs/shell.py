"""Grammars of bash's builtins. The builtins that evaluate text or assign variables keep
their rules in ``swebash/safety/builtins.py`` (run as hooks on the parsed command); the rest
are plain data."""

from __future__ import annotations

from swebash.safety.classify.grammar import Table, definer, prog

SPECS: Table = {}
define = definer(SPECS)


define("cd pushd", lambda: prog("-LPe -@ -N", args="n?", hook="cd", info="", abbrev=False))
define("popd", lambda: prog("-n -N", args="p?", info=""))
define("dirs", lambda: prog("-clpv -N", info=""))
define("read", lambda: prog("-ers -a: -d: -i: -n: -N: -p: -t: -u:", args="p*", hook="read",
                            info=""))
define("mapfile readarray", lambda: prog("-t -d: -n: -O: -s: -u: -C: -c:", args="p?",
                                         hook="mapfile", info=""))
define("getopts", lambda: prog(args="p*", raw=True, hook="getopts"))
define("wait", lambda: prog("-fn -p:", args="p*", hook="wait", info=""))
define("unset", lambda: prog("-fvn", args="p*", hook="unset", info=""))
define("declare typeset local readonly export", lambda: prog(
    "-aAfFgiIlnprtux", args="p*", hook="declare", info=""))
define("let", lambda: prog(args="p*", raw=True, hook="let"))
define("compgen complete", lambda: prog(
    "-abcdefgjksuvDEIr -o: -A: -G: -W: -F: -C: -P: -S: -X: -p", args="p*", hook="compgen",
    info=""))
define("compopt", lambda: prog("-DEI -o: +o:", args="p*",
                               effect="changes how completion works"))
define("jobs", lambda: prog("-lnprs", args="p*", info="",
                            danger={"-x": "runs a command with job ids replaced"}))
define("hash", lambda: prog("-lrt -d -p:", args="p*", hook="hash", info=""))
define("shopt", lambda: prog("-pqsuo", args="p*", hook="shopt", info=""))
define("set", lambda: prog(args="p*", raw=True, hook="set"))
define("alias", lambda: prog("-p", args="p*", hook="alias", info=""))
define("unalias", lambda: prog("-a", args="p*", info=""))
define("trap", lambda: prog(args="p*", raw=True, hook="trap"))
define("history", lambda: prog(args="p*", raw=True, hook="history"))
define("fc", lambda: prog(args="p*", raw=True, hook="fc"))
define("enable", lambda: prog(args="p*", raw=True, hook="enable"))
define("bind", lambda: prog(args="p*", raw=True, hook="bind"))
define("help", lambda: prog("-dms", args="p*", info=""))
define("type", lambda: prog("-afptP", args="p*", info=""))
define("times caller shift exit return break continue", lambda: prog(args="p*", raw=True))
define("fg bg", lambda: prog(args="p*", raw=True))
define("disown", lambda: prog("-ahr", args="p*", info="",
                              effect="lets jobs outlive the shell"))
define("suspend logout", lambda: prog("-f", args="p*", effect="stops or ends the shell",
                                      info=""))
define("source .", lambda: prog(args="r p*", raw=True, hook="source"))
define("kill", lambda: prog(args="p*", raw=True, hook="kill"))
