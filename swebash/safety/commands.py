"""The command classifier's entry point (kept here for callers): it lives in
``swebash/safety/classify/`` — the walker (``walker.py``), the argument grammars
(``grammar.py``, ``programs/``), the one parser (``parser.py``) and the checks they feed."""

from __future__ import annotations

from swebash.safety.classify.walker import classify, classify_into

__all__ = ["classify", "classify_into"]
