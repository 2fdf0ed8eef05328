from __future__ import annotations

from swebash.cli import main

raise SystemExit(main())
