"""Tool arguments: parse what the model sent (JSON text or an object, seed 003) and check it
against the tool's JSON Schema subset (object, required, types, enum, minimum/maximum).

Unknown keys are ignored rather than rejected: models add harmless extras, and refusing them
would cost a round trip for nothing. Defaults from the schema are filled in.
"""

from __future__ import annotations

import json
from typing import Any

from swebash.errors import InvalidArguments

TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
}


def parse_arguments(raw: str | dict[str, Any] | None) -> dict[str, Any]:
    if raw is None or raw == "":
        return {}
    if isinstance(raw, dict):
        return dict(raw)
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidArguments(f"arguments are not valid JSON ({exc.msg} at position "
                               f"{exc.pos}): {raw[:200]!r}") from None
    if isinstance(value, str):  # doubly encoded: some models send a JSON string of JSON
        return parse_arguments(value)
    if not isinstance(value, dict):
        raise InvalidArguments(f"arguments must be a JSON object, got {type(value).__name__}")
    return value


def _type_ok(value: Any, expected: str) -> bool:
    kinds = TYPES.get(expected)
    if kinds is None:
        return True
    if isinstance(value, bool) and expected in ("integer", "number"):
        return False
    if expected == "integer" and isinstance(value, float) and value.is_integer():
        return True
    return isinstance(value, kinds)


def validate(schema: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
    properties: dict[str, Any] = schema.get("properties", {})
    checked = {k: v for k, v in args.items() if k in properties}
    for name in schema.get("required", []):
        if name not in checked or checked[name] is None:
            raise InvalidArguments(f"missing required argument '{name}'")
    for name, spec in properties.items():
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
        if "enum" in spec and value not in spec["enum"]:
            allowed = ", ".join(map(str, spec["enum"]))
            raise InvalidArguments(f"argument '{name}' must be one of: {allowed}")
        if "minimum" in spec and isinstance(value, int | float) and value < spec["minimum"]:
            raise InvalidArguments(f"argument '{name}' must be at least {spec['minimum']}")
        if "maximum" in spec and isinstance(value, int | float) and value > spec["maximum"]:
            raise InvalidArguments(f"argument '{name}' must be at most {spec['maximum']}")
    return checked
