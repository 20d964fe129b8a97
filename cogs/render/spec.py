"""Plain descriptions of messages, so rendering is testable and scannable without a bot."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cogs.render.text import plain, shown_prefix

# Discord limits that shape rendering.
MAX_BUTTON_LABEL = 80
MAX_OPTION_LABEL = 100  # a select option's label, and its description
MAX_PLACEHOLDER = 150
MAX_SELECT_OPTIONS = 25
MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_EMBED_DESCRIPTION = 4096
MAX_FIELD_VALUE = 1024
MAX_CONTENT = 2000


@dataclass(slots=True)
class Button:
    label: str
    custom_id: str
    style: str = "secondary"  # primary | secondary | success | danger
    emoji: str | None = None
    disabled: bool = False


@dataclass(slots=True)
class Choice:
    label: str
    value: str
    description: str | None = None
    emoji: str | None = None


@dataclass(slots=True)
class Select:
    custom_id: str
    placeholder: str
    options: list[Choice]
    min_values: int = 1
    max_values: int = 1


Row = list[Button] | Select


@dataclass(slots=True)
class Embed:
    title: str
    description: str = ""
    color: int = 0x5865F2
    fields: list[tuple[str, str, bool]] = field(default_factory=list)
    footer: str | None = None
    thumbnail: str | None = None  # an image address (a card face), never an upload


@dataclass(slots=True)
class Screen:
    content: str | None = None
    embed: Embed | None = None
    rows: list[Row] = field(default_factory=list)
    ping: list[int] = field(default_factory=list)  # the only users this message may notify

    def text(self) -> str:
        """Every human-visible string, for tests that scan for leaks."""
        parts: list[str] = [self.content or ""]
        if self.embed is not None:
            parts += [self.embed.title, self.embed.description, self.embed.footer or ""]
            for name, value, _ in self.embed.fields:
                parts += [name, value]
        for row in self.rows:
            if isinstance(row, Select):
                parts.append(row.placeholder)
                parts += [f"{c.label} {c.description or ''}" for c in row.options]
            else:
                parts += [b.label for b in row]
        return "\n".join(parts)


# Markup Discord draws as one thing (a custom emoji, a mention, a timestamp): never cut in
# half, which would show its raw code instead.
_MARKUP = re.compile(r"<(?:a?:\w+:\d+|[@#][!&]?\d+|t:-?\d+(?::\w)?|/[^<>:]+:\d+)>")


def clip(text: str, limit: int) -> str:
    """``text`` in ``limit`` characters, "…" marking a cut (never inside markup)."""
    if len(text) <= limit:
        return text
    cut = limit - 1
    start = text.rfind("<", 0, cut)
    if start != -1 and (markup := _MARKUP.match(text, start)) and markup.end() > cut:
        cut = start
    return text[:cut] + "…"


def clip_words(text: str, limit: int) -> str:
    """``text`` in ``limit`` characters, cut after a whole word ("…" marking the cut)."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return (text[:cut] if cut > limit // 2 else text[: limit - 1]).rstrip(",;:") + "…"


def clip_label(text: str, limit: int) -> str:
    """``text`` for a button, a select option or a placeholder, where markdown never renders
    (``plain`` drops its escapes): clipped to ``limit`` characters *as shown*, so escapes take
    none of the room, and still escaped, never with half an escape left."""
    shown = plain(text)
    if len(shown) <= limit:
        return text
    return shown_prefix(text, len(clip(shown, limit)) - 1) + "…"


def newest_lines(lines: list[str], limit: int) -> str:
    """The newest (last) whole lines that fit in ``limit`` characters, the oldest dropped: in
    a log, the newest line says what just happened. A newest line too long alone is clipped."""
    kept: list[str] = []
    size = -1  # no line break before the first line
    for line in reversed(lines):
        if size + 1 + len(line) > limit:
            break
        kept.append(line)
        size += 1 + len(line)
    if not kept and lines:
        return clip(lines[-1], limit)
    return "\n".join(reversed(kept))


def whole_lines(lines: list[str], limit: int, what: str = "more", total: int = 0) -> str:
    """As many whole lines as fit in ``limit`` characters, then "…and N more." for the rest
    (of ``total`` entries, if more than the lines given): never a line (a link) cut in the
    middle, never entries dropped without a word."""
    total = max(total, len(lines))
    kept: list[str] = []
    size = -1  # no line break before the first line
    for i, line in enumerate(lines):
        # Room for this line and, unless it is the last, for the note that may follow it.
        after = total - i - 1
        reserve = len(f"\n…and {after} {what}.") if after else 0
        if size + 1 + len(line) + reserve > limit:
            kept.append(f"…and {total - i} {what}.")
            break
        kept.append(line)
        size += 1 + len(line)
    else:
        if total > len(lines):
            kept.append(f"…and {total - len(lines)} {what}.")
    return clip("\n".join(kept), limit)


def button_rows(buttons: list[Button], max_rows: int = MAX_ROWS) -> list[Row]:
    """Pack buttons five to a row."""
    rows: list[Row] = []
    for i in range(0, len(buttons), MAX_PER_ROW):
        if len(rows) == max_rows:
            break
        rows.append(buttons[i : i + MAX_PER_ROW])
    return rows
