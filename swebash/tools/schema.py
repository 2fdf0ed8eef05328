"""Tool arguments: parse what the model sent (JSON text, a doubly encoded string, or an
object) and check it against the tool's JSON Schema subset (object, required, types, enum,
minimum/maximum).

Unknown keys are ignored rather than rejected: models add harmless extras, and refusing them
would cost a round trip for nothing. Defaults from the schema are filled in.
"""

from __future__ import annotations

import json
import re

from swebash.api import JsonObject, JsonValue
from swebash.errors import InvalidArguments

TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
}


def str_arg(args: JsonObject, name: str) -> str:
    """A string argument ("" when absent or null); anything else is the model's mistake."""
    value = args.get(name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidArguments(f"argument '{name}' must be string, got {type(value).__name__}")
    return value


def int_arg(args: JsonObject, name: str, default: int) -> int:
    value = args.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidArguments(f"argument '{name}' must be integer, got {type(value).__name__}")
    return int(value)


MAX_DEPTH = 100  # nesting of tool arguments; real schemas need a handful of levels
# A JSON string (skipped whole) or one bracket: all the depth scan needs to look at.
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def nesting_exceeds(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON text nests deeper than ``limit``, found without recursion: ``json.loads``
    recurses per level and raises RecursionError on inputs like 100,000 ``[``."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return True
        elif token in "]}":
            depth -= 1
    return False


def parse_arguments(raw: str | JsonObject | None) -> JsonObject:
    if raw is None or raw == "":
        return {}
    if isinstance(raw, dict):
        return dict(raw)
    if nesting_exceeds(raw):
        raise InvalidArguments(f"arguments are nested deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(raw)
    except RecursionError:  # not reached after the scan; kept so no input escapes as one
        raise InvalidArguments(f"arguments are nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        raise InvalidArguments(f"arguments are not valid JSON ({exc.msg} at position "
                               f"{exc.pos}): {raw[:200]!r}") from None
    if isinstance(value, str):  # doubly encoded: some models send a JSON string of JSON
        return parse_arguments(value)
    if not isinstance(value, dict):
        raise InvalidArguments(f"arguments must be a JSON object, got {type(value).__name__}")
    return value


def _type_ok(value: JsonValue, expected: str) -> bool:
    kinds = TYPES.get(expected)
    if kinds is None:
        return True
    if isinstance(value, bool) and expected in ("integer", "number"):
        return False
    if expected == "integer" and isinstance(value, float) and value.is_integer():
        return True
    return isinstance(value, kinds)


def validate(schema: JsonObject, args: JsonObject) -> JsonObject:
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        properties = {}
    checked = {k: v for k, v in args.items() if k in properties}
    required = schema.get("required")
    for name in required if isinstance(required, list) else []:
        if not isinstance(name, str):
            continue
        if name not in checked or checked[name] is None:
            raise InvalidArguments(f"missing required argument '{name}'")
    for name, spec in properties.items():
        if not isinstance(spec, dict):
            continue
        if name not in checked:
            if "default" in spec:
                checked[name] = spec["default"]
            continue
        value = checked[name]
        expected = spec.get("type")
        if isinstance(expected, str) and not _type_ok(value, expected):
            raise InvalidArguments(f"argument '{name}' must be {expected}, got "
                                   f"{type(value).__name__}")
        if expected == "integer" and isinstance(value, float):
            checked[name] = value = int(value)
        enum = spec.get("enum")
        if isinstance(enum, list) and value not in enum:
            allowed = ", ".join(map(str, enum))
            raise InvalidArguments(f"argument '{name}' must be one of: {allowed}")
        low, high = spec.get("minimum"), spec.get("maximum")
        if isinstance(value, int | float) and not isinstance(value, bool):
            if isinstance(low, int | float) and value < low:
                raise InvalidArguments(f"argument '{name}' must be at least {low}")
            if isinstance(high, int | float) and value > high:
                raise InvalidArguments(f"argument '{name}' must be at most {high}")
    return checked
