"""The command classifier: bash text → allow | ask | deny, a dangerous flag, short reasons.

Design note. The problem: "read-only" modelled by excluding known-bad options lets every
option, program and verb nobody listed through (``ip -batch f``, ``pip list --python x``,
``systemctl -p status stop x``). The approach here is positive: nothing is allowed unless
every word of every simple command is known to be read-only.

- ``walker.py`` parses with tree-sitter-bash and visits every simple command wherever it sits
  (pipelines, lists, substitutions, redirections, here-docs, functions); ``words.py`` resolves
  each word the way bash would or marks it as known only at run time. Input it cannot read the
  way bash will (control and invisible characters, parse errors, past the time or size
  budget) is dangerous.
- ``dispatch.py`` peels wrappers (``wrappers.py``), applies bash builtins' rules
  (``builtins.py``), and parses every other program with its grammar.
- ``grammar.py`` is the grammar format (``prog``); ``programs/`` holds one grammar per program
  as data; ``registry.py`` finds them; ``parser.py`` is the one parser turning (grammar, argv)
  into the parsed command every check reads. A program with no grammar asks.
- ``roles.py`` says what an operand or an option's value implies (a file read → the path
  guard, a file written → the write policy, a URL → the URL policy, shell code → classified);
  ``hooks_*.py`` read what a grammar cannot say (sed and awk scripts in ``scripts.py``, SQL in
  ``sql.py``, find's commands, git's config keys, cloud verbs…), always from the parsed
  command; ``suspicion.py`` flags dangerous the commands that ask and whose words name
  secrets, startup files, programs to run or destruction.
- ``explain.py`` backs ``swebash policy check --explain``.
"""
