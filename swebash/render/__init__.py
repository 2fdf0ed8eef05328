"""Drawing AI turns: streamed markdown, tool panels, the inline y/N, plain piped output.

Nothing is imported here on purpose: the modules import rich, and rich must not be loaded
before the shell's first prompt. Import the module you need (``swebash.render.events``,
``swebash.render.plain``, ``swebash.render.confirm``) when the first ``?`` line arrives.
"""
