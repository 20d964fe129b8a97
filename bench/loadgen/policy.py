"""What a player does next: a seeded policy over the engine's legal actions, and how the click
reaching it is found on a message (table, picker, DM hand) by custom id alone.

Custom ids (stable): ``g:<game>:<version>:<target>`` buttons, ``s:<game>:<version>[:n]`` selects
whose option values are targets, ``k:<game>:<version>:<action>[~n]`` multi-selects for Pick
actions (several for one action when its options are grouped), ``h:<game>`` "My hand",
``l:<game>:<verb>`` lobby buttons.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

import engine
from tests.fakediscord import FakeMessage

GAME_ID = re.compile(r"[gsk]:(\d+):(\d+)(?::|$)")
LOBBY_ID = re.compile(r"l:(\d+):([a-z]+)")
PICK_SHOWN = 25  # a select shows at most 25 options


def shown_version(message: FakeMessage, game_id: int | None = None) -> tuple[int, int] | None:
    """(game id, version) the message's game components carry, or None if it has none."""
    for cid in message.custom_ids():
        match = GAME_ID.match(cid)
        if match and (game_id is None or int(match[1]) == game_id):
            return int(match[1]), int(match[2])
    return None


def lobby_game(message: FakeMessage) -> int | None:
    for cid in message.custom_ids():
        match = LOBBY_ID.fullmatch(cid)
        if match:
            return int(match[1])
    return None


@dataclass(frozen=True, slots=True)
class Move:
    player: str
    action: str  # the full action id to apply (a Pick action with its choice: "id:a.b")
    base: str  # the legal action's id (== action unless it is a Pick)
    values: tuple[str, ...] = ()  # a Pick's chosen options


def choose(rng: random.Random, kind: str, game: engine.Game) -> Move | None:
    """A legal move. UNO: call UNO when you can, mostly play rather than draw, never catch
    (a random UNO match to 500 can take thousands of moves). Other games: uniformly random."""
    actors = sorted(game.actors())
    if not actors:
        return None
    if kind == "uno":
        for player in actors:
            if any(a.id == "uno" for a in game.legal_actions(player)):
                return Move(player, "uno", "uno")
        current = game.view(None).get("current")
        player = current if current in actors else rng.choice(actors)
        legal = game.legal_actions(player)
        plays = [a for a in legal if a.id.startswith(("play", "color", "challenge", "accept"))]
        calm = [a for a in legal if not a.id.startswith("catch")]
        pool = plays if plays and rng.random() < 0.85 else (calm or legal)
        return _concrete(rng, game, player, pool)
    player = rng.choice(actors)
    return _concrete(rng, game, player, game.legal_actions(player))


def _concrete(
    rng: random.Random, game: engine.Game, player: str, pool: list[engine.Action]
) -> Move | None:
    """An action from `pool`; a Pick gets a choice the engine accepts (tried on a copy)."""
    pool = list(pool)
    rng.shuffle(pool)
    for action in pool:
        if action.pick is None:
            return Move(player, action.id, action.id)
        options = action.pick.options[:PICK_SHOWN]
        low, high = action.pick.min, min(action.pick.max, len(options))
        for _ in range(20):
            if low > high:
                break
            chosen = sorted(rng.sample(range(len(options)), rng.randint(low, high)))
            values = tuple(options[i] for i in chosen)
            full = f"{action.id}:{'.'.join(values)}"
            try:
                game.copy().apply(player, full)
            except engine.IllegalAction:
                continue
            return Move(player, full, action.id, values)
    return None


# ---------------------------------------------------------------------------------------------
# Finding the click on a message
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Control:
    """One click on a message: a button (values None) or a select with its values."""

    custom_id: str
    values: tuple[str, ...] | None
    final: bool  # True: this click applies the move; False: it opens the next picker step


def _targets(comp: dict[str, Any], prefix: str) -> list[str]:
    if comp.get("type") == 2 and comp.get("custom_id", "").startswith(prefix):
        return [comp["custom_id"].split(":", 3)[3]]
    if comp.get("type") == 3 and comp.get("custom_id", "").startswith("s:"):
        return [o["value"] for o in comp.get("options") or []]
    return []


def control_for(message: FakeMessage, game_id: int, version: int, move: Move) -> Control | None:
    """The click on `message` that applies `move`, else the picker step leading to it."""
    act = f"g:{game_id}:{version}:"
    pick = f"k:{game_id}:{version}:{move.base}"
    step: Control | None = None
    for comp in message.interactive():
        if comp.get("disabled"):
            continue
        cid = comp.get("custom_id", "")
        if move.values and comp.get("type") == 3 and (cid == pick or cid.startswith(pick + "~")):
            # One multi-select for the action, or one per group of options ("~<n>").
            offered = {o.get("value") for o in comp.get("options") or []}
            fits = comp.get("min_values", 1) <= len(move.values) <= comp.get("max_values", 1)
            if fits and offered.issuperset(move.values):
                return Control(cid, move.values, True)
            continue
        if comp.get("type") == 3 and not cid.startswith(f"s:{game_id}:{version}"):
            continue
        for target in _targets(comp, act):
            is_select = comp.get("type") == 3
            if target == move.action and not move.values:
                return Control(cid, (target,) if is_select else None, True)
            leads = move.base.startswith(target + ":") or (move.values and target == move.base)
            if leads and step is None:
                step = Control(cid, (target,) if is_select else None, False)
    return step


def table_button(message: FakeMessage, game_id: int, version: int, move: Move) -> str | None:
    """The public table button applying `move`, if the table offers one."""
    if move.values:
        return None
    cid = f"g:{game_id}:{version}:{move.action}"
    return cid if cid in message.custom_ids() else None
