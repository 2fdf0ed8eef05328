"""swebash: a daily terminal shell with a built-in AI mode.

Importing this package must stay cheap: it imports nothing but the standard library.
"""

from __future__ import annotations

__version__ = "0.1.0"
