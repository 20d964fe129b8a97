"""The move picker: a player's legal actions as buttons, step by step.

Actions are grouped by their id's ``:`` segments, so a wild card first asks "which card",
then "which colour" (``play:W`` -> ``play:W:R``), and Swap Hands then asks "which opponent".
The root groups by the first two segments, which for most actions is the action itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cogs import ids
from cogs.render import faces
from cogs.render.kinds import Renderer
from cogs.render.spec import (
    MAX_BUTTON_LABEL,
    MAX_OPTION_LABEL,
    MAX_PER_ROW,
    MAX_PLACEHOLDER,
    MAX_SELECT_OPTIONS,
    Button,
    Choice,
    Row,
    Select,
    clip_label,
)
from engine import Action


@dataclass(slots=True)
class Option:
    label: str
    target: str  # an action id, or a prefix leading to the next step
    emoji: str | None = None  # the card's face, when it shows one card


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
            label = renderer.action_label(action.id, action.label, names)
            out.append(Option(label, action.id, _face(renderer, action.id)))
        else:
            out.append(Option(renderer.group_label(key, names), key, _face(renderer, key)))
    return out


def _face(renderer: Renderer, action_id: str) -> str | None:
    card = renderer.action_card(action_id)
    return faces.face(*card) if card is not None else None


def _option_face(option: str) -> str | None:
    # Pick options are card codes, the k-th copy of an UNO card suffixed "_k".
    return faces.face(option.split("_", 1)[0])


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
            Button(
                clip_label(c.label, MAX_BUTTON_LABEL),
                ids.act(game_id, version, c.target),
                emoji=c.emoji,
            )
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
                    options=[
                        Choice(clip_label(c.label, MAX_OPTION_LABEL), c.target, emoji=c.emoji)
                        for c in chunk
                    ],
                )
            )
    if extra:
        result.append(extra[:MAX_PER_ROW])
    return result


MAX_PICK_SELECTS = 4  # a pick step's selects; the fifth row keeps the Back button


def pick_rows(
    game_id: int, version: int, action: Action, renderer: Renderer, names: Mapping[str, str]
) -> list[Row]:
    """Multi-selects for a Pick action (a Haymaker block, several cards at once): one over
    every option, or one per group when the game groups them (a haymaker is of one suit; a
    big UNO discard, made in parts, by colour). Each select is a submission of its own.

    A group longer than a select can hold is cut into selects of ``MAX_SELECT_OPTIONS``
    (a game whose choices may exceed it groups them itself, so that each part is a valid
    choice: see ``Renderer.pick_groups``)."""
    assert action.pick is not None
    pick = action.pick
    groups = renderer.pick_groups(action.id, pick.options) or [
        (renderer.action_label(action.id, action.label, names), pick.options)
    ]
    split: list[tuple[str, list[str]]] = []
    for label, options in groups:
        if len(options) <= MAX_SELECT_OPTIONS:
            split.append((label, options))
            continue
        for i in range(0, len(options), MAX_SELECT_OPTIONS):
            part = options[i : i + MAX_SELECT_OPTIONS]
            split.append((f"{label} ({i + 1}-{i + len(part)})", part))
    groups = split[:MAX_PICK_SELECTS]
    rows: list[Row] = []
    for n, (label, opts) in enumerate(groups):
        hi = min(pick.max, len(opts))
        custom_id = ids.pick(game_id, version, action.id, n if len(groups) > 1 else None)
        rows.append(
            Select(
                custom_id=custom_id,
                placeholder=clip_label(label, MAX_PLACEHOLDER),
                options=[
                    Choice(
                        clip_label(renderer.segment(o, names), MAX_OPTION_LABEL),
                        o,
                        emoji=_option_face(o),
                    )
                    for o in opts
                ],
                min_values=min(pick.min, hi),
                max_values=hi,
            )
        )
    return rows
