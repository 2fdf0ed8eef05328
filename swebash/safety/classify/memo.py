"""The state a judgement reads, as one comparable value: what lets the walker judge a
repeated command once (``walker.Walker.command``).

A judgement of a simple command is a function of its words and of the findings so far (the
directories the line may be in, the functions it defined, the facts earlier commands left,
what it decided…). Every field of ``Findings`` is part of that state unless it is named
below as output or a cache, so a field added later is compared by default — a memo that
forgets a field would replay a verdict judged in another state."""

from __future__ import annotations

import dataclasses
import marshal
import operator

from swebash.safety.classify.model import Findings

# what a judgement writes and never reads (records, counters of questions, caches of pure
# functions of a path or of the cwd — ``tree`` is found on first use —, the deadline), and
# the callbacks, set once per classification
NOT_STATE = frozenset({"commands", "command_asks", "verdicts", "places", "tree", "deadline",
                       "asks", "loose", "feed_kind", "nested", "judge"})
FIELDS = tuple(f.name for f in dataclasses.fields(Findings) if f.name not in NOT_STATE)


_fields = operator.attrgetter(*FIELDS)


def state(f: Findings) -> bytes:
    """Every field, serialised with ``marshal``: equal bytes decode to equal values, so two
    different states never compare alike (the same state may, rarely, serialise two ways:
    that only costs a judgement). Built in C — ~3 µs, where a Python walk over the fields
    costs ~30 µs, more than most judgements. A field that is not plain data makes
    ``marshal`` raise, and the classification fails closed."""
    return marshal.dumps(_fields(f))
