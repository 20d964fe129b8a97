"""Game options: declared once per game class, validated with clear errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class InvalidOption(ValueError):
    """An unknown option or a bad value; the message names it."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option: its default, and the values it accepts.

    ``type`` is bool, int or str. Ints may have ``min``/``max``; strs may have ``choices``.
    """

    default: Any
    help: str
    type: type = bool
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] | None = None

    def check(self, name: str, value: Any) -> Any:
        if self.type is bool:
            if not isinstance(value, bool):
                raise InvalidOption(f"Option '{name}' must be true or false, not {value!r}.")
            return value
        if self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOption(f"Option '{name}' must be a whole number, not {value!r}.")
            if self.min is not None and value < self.min:
                raise InvalidOption(f"Option '{name}' must be at least {self.min}, not {value}.")
            if self.max is not None and value > self.max:
                raise InvalidOption(f"Option '{name}' must be at most {self.max}, not {value}.")
            return value
        if not isinstance(value, str):
            raise InvalidOption(f"Option '{name}' must be text, not {value!r}.")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(self.choices)
            raise InvalidOption(f"Option '{name}' must be one of {allowed}, not {value!r}.")
        return value


def validate_options(
    title: str, spec: dict[str, Option], given: dict[str, Any] | None
) -> dict[str, Any]:
    """Every option resolved to a checked value (defaults filled in)."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(spec))
    if unknown:
        known = ", ".join(sorted(spec)) or "none"
        raise InvalidOption(
            f"{title} has no option {', '.join(repr(u) for u in unknown)} (options: {known})."
        )
    return {name: opt.check(name, given.get(name, opt.default)) for name, opt in spec.items()}
