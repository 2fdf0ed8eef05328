"""Hosting the AI half without a terminal: the runtime the composition root builds once, the loop
thread its coroutines run on, and the `ai …` builtins — shared by the interactive shell and the
plain `-c`/piped host."""
