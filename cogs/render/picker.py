"""The move picker: a player's legal actions as buttons, step by step.

Actions are grouped by their id's ``:`` segments, so a wild card first asks "which card",
then "which colour" (``play:W`` -> ``play:W:R``), and Swap Hands then asks "which opponent".
The root groups by the first two segments, which for most actions is the action itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cogs import ids
from cogs.render.kinds import Renderer
from cogs.render.spec import (
    MAX_BUTTON_LABEL,
    MAX_PER_ROW,
    MAX_SELECT_OPTIONS,
    Button,
    Choice,
    Row,
    Select,
    clip,
)
from engine import Action


@dataclass(slots=True)
class Option:
    label: str
    target: str  # an action id, or a prefix leading to the next step


def options(
    actions: list[Action], prefix: str, renderer: Renderer, names: Mapping[str, str]
) -> list[Option]:
    """The choices at one step. ``prefix`` is ``ids.ROOT`` or a partial action id."""
    if prefix == ids.ROOT:
        depth, pool = 2, actions
    else:
        depth = prefix.count(":") + 2
        pool = [a for a in actions if a.id == prefix or a.id.startswith(prefix + ":")]
    groups: dict[str, list[Action]] = {}
    for action in pool:
        groups.setdefault(":".join(action.id.split(":")[:depth]), []).append(action)
    out: list[Option] = []
    for key, members in groups.items():
        if len(members) == 1:
            action = members[0]
            out.append(Option(renderer.action_label(action.id, action.label, names), action.id))
        else:
            last = key.rsplit(":", 1)[-1]
            out.append(Option(renderer.segment(last, names), key))
    return out


def rows(
    game_id: int,
    version: int,
    choices: list[Option],
    extra: list[Button] | None = None,
    placeholder: str = "Choose…",
) -> list[Row]:
    """Buttons when they fit (four rows, the fifth kept for ``extra``), else selects."""
    extra = extra or []
    result: list[Row] = []
    if len(choices) <= 4 * MAX_PER_ROW:
        buttons = [
            Button(clip(c.label, MAX_BUTTON_LABEL), ids.act(game_id, version, c.target))
            for c in choices
        ]
        for i in range(0, len(buttons), MAX_PER_ROW):
            result.append(buttons[i : i + MAX_PER_ROW])
    else:
        # More than 20 choices (a big UNO hand): selects of 25, up to four of them.
        for i in range(0, min(len(choices), 4 * MAX_SELECT_OPTIONS), MAX_SELECT_OPTIONS):
            chunk = choices[i : i + MAX_SELECT_OPTIONS]
            result.append(
                Select(
                    custom_id=ids.select(game_id, version) + f":{i // MAX_SELECT_OPTIONS}",
                    placeholder=f"{placeholder} ({i + 1}-{i + len(chunk)})",
                    options=[Choice(clip(c.label, 100), c.target) for c in chunk],
                )
            )
    if extra:
        result.append(extra[:MAX_PER_ROW])
    return result


def pick_rows(
    game_id: int, version: int, action: Action, renderer: Renderer, names: Mapping[str, str]
) -> list[Row]:
    """A multi-select for a Pick action (a Haymaker block, several cards at once)."""
    assert action.pick is not None
    opts = action.pick.options[:MAX_SELECT_OPTIONS]
    hi = min(action.pick.max, len(opts))
    return [
        Select(
            custom_id=ids.pick(game_id, version, action.id),
            placeholder=clip(renderer.action_label(action.id, action.label, names), 150),
            options=[Choice(clip(renderer.segment(o, names), 100), o) for o in opts],
            min_values=min(action.pick.min, hi),
            max_values=hi,
        )
    ]
