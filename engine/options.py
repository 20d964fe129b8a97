"""Game options: declared once per game class, validated with clear errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class InvalidOption(ValueError):
    """An unknown option or a bad value; the message names it."""


def shown(value: Any, limit: int = 40) -> str:
    """A value quoted in an error message, clipped: a refusal must stay short."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
    brief: str | None = None  # at most 100 characters, for a slash command's option list

    @property
    def short(self) -> str:
        """The one-line description (Discord allows 100 characters)."""
        text = self.brief or self.help
        return text if len(text) <= 100 else text[:99].rsplit(" ", 1)[0] + "…"

    def check(self, name: str, value: Any) -> Any:
        if self.type is bool:
            if not isinstance(value, bool):
                raise InvalidOption(f"Option '{name}' must be true or false, not {shown(value)}.")
            return value
        if self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOption(f"Option '{name}' must be a whole number, not {shown(value)}.")
            if self.min is not None and value < self.min:
                raise InvalidOption(f"Option '{name}' must be at least {self.min}, not {value}.")
            if self.max is not None and value > self.max:
                raise InvalidOption(f"Option '{name}' must be at most {self.max}, not {value}.")
            return value
        if not isinstance(value, str):
            raise InvalidOption(f"Option '{name}' must be text, not {shown(value)}.")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(self.choices)
            raise InvalidOption(f"Option '{name}' must be one of {allowed}, not {shown(value)}.")
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
            f"{title} has no option {', '.join(shown(u) for u in unknown[:3])} (options: {known})."
        )
    return {name: opt.check(name, given.get(name, opt.default)) for name, opt in spec.items()}
