"""A game's clocks, worked out after every change: pure, so it is easy to test.

``clocks`` (stored with the game, JSON):
- ``turn``:   {player: deadline} for each member the game waits for (turn timers);
- ``phase``:  [key, deadline] while a phase runs on a clock of its own (no turn timers then);
- ``bot``:    when the next bot move is due;
- ``nudge``:  {player: time} when to remind a member whose turn it is;
- ``nudged``: members already reminded this turn (never twice for one turn);
- ``struck``: members whose time ran out this turn (one strike per turn, however many moves
  the bot then makes to finish it);
- ``held``:   {player: deadline} a member's turn deadline while a bot plays their seat
  (/leave mid-turn), given back if they return in the same turn;
- ``turn_of``: the renderer's turn number (``Renderer.turn_of``): when it grows, a new turn;
- ``noted``:  lines for the next move's log (a seat changed hands).
A member's turn lasts as long as the game waits for them: drawing in UNO, or claiming then
placing a card in the Item Collection Game, is one turn.
The game's ``wake_at`` is the nearest of them; the one timer loop sleeps until the smallest.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import engine.bots
from cogs.hosting import Hosted
from engine import Action, Game


@dataclass(frozen=True, slots=True)
class Timing:
    bot_pause: float = 2.0  # a bot's human-like pause before it moves
    uno_grace: float = 5.0  # bots wait this long while a member may still call or catch UNO
    nudge_after: float = 20.0  # remind a member of their turn after this long


def next_clocks(
    old: dict[str, Any],
    game: Game,
    hosted: Hosted,
    humans: Collection[str],
    bots: Collection[str],
    turn_timer: int | None,
    now: float,
    timing: Timing,
    mover: str | None = None,
    timed_out: bool = False,
    turn_before: int | None = None,
) -> tuple[dict[str, Any], float | None]:
    """The clocks after a change; ``mover`` just acted (their turn clock starts over, unless
    the move was made for them because it ran out: then the bot finishes the turn at once).
    ``turn_before``: the renderer's turn number before the move (else the one stored).

    ``humans`` are the members playing their own seats now, ``bots`` the seats a bot plays.
    """
    clocks: dict[str, Any] = {}
    if game.finished:
        return clocks, None
    view = game.view(None)
    waiting_for = hosted.awaited(game)
    awaited = [p for p in waiting_for if p in humans]
    # A new turn (where the renderer can tell): nothing of the last one carries over to a
    # player awaited again (a deadline run out, a strike, a reminder given).
    turn = hosted.renderer.turn_of(view)
    previous = turn_before if turn_before is not None else old.get("turn_of", turn)
    new_turn = turn is not None and previous is not None and turn > previous
    if turn is not None:
        clocks["turn_of"] = turn
    elif "turn_of" in old:  # unknown for now (UNO's discards at once): kept for after
        clocks["turn_of"] = old["turn_of"]

    phase = hosted.phase_clock(view)
    if phase is not None:
        key, seconds = phase
        kept = old.get("phase")
        clocks["phase"] = kept if kept and kept[0] == key else [key, now + seconds]
    elif turn_timer:
        before = old.get("turn", {})
        # A member whose seat a bot took mid-turn (/leave) keeps what was left of that turn:
        # back before the bot moved (/back), they get it, not a fresh turn (a stall, repeated).
        held = old.get("held", {})
        clocks["turn"] = {
            p: before[p]
            if p in before and (p != mover or timed_out) and not new_turn
            else held[p]
            if p in held and p != mover and not new_turn
            else now + turn_timer
            for p in awaited
        }
        kept = {p: t for p, t in {**held, **before}.items() if p in bots and p in waiting_for}
        if kept and not new_turn:  # the turn left is over: nothing to give back
            clocks["held"] = kept
    struck = [p for p in old.get("struck", []) if p in awaited and not new_turn]
    if timed_out and mover in awaited and mover not in struck and not new_turn:
        struck.append(mover)  # the bot finishes the turn it ran out of
    if struck:
        clocks["struck"] = struck

    nudged = [p for p in old.get("nudged", []) if p in awaited and not new_turn]
    due = old.get("nudge", {})
    # A phase on its own clock (the Item Collection talk) ends by itself: nobody stalls it,
    # so nobody is reminded to act in it.
    nudge = {
        p: due[p] if p in due and p != mover and not new_turn else now + timing.nudge_after
        for p in awaited
        if p not in nudged and phase is None
    }
    if nudge:
        clocks["nudge"] = nudge
    if nudged:
        clocks["nudged"] = nudged

    if any(bot_moves(game, hosted, p, waiting_for) for p in bots):
        wait = timing.bot_pause
        window = view.get("uno_window")
        if window is not None and window in humans:
            wait = max(wait, timing.uno_grace)  # members keep their chance to call or catch
        clocks["bot"] = now + wait
    if old.get("noted"):
        clocks["noted"] = old["noted"]  # lines for the next move's log (``Sessions.apply``)
    return clocks, wake_at(clocks)


def bot_moves(game: Game, hosted: Hosted, player: str, awaited: Collection[str]) -> list[Action]:
    """The moves a bot seat may make now: its turn's, or out of turn (an UNO catch or
    jump-in) those worth making (``engine.bots.optional_moves``); none, it lets them pass."""
    actions = game.legal_actions(player)
    if actions and player not in awaited:
        actions = engine.bots.optional_moves(hosted.kind, game.view(player), actions)
    return actions


def wake_at(clocks: dict[str, Any]) -> float | None:
    times: list[float] = []
    times += clocks.get("turn", {}).values()
    times += clocks.get("nudge", {}).values()
    if "phase" in clocks:
        times.append(clocks["phase"][1])
    if "bot" in clocks:
        times.append(clocks["bot"])
    return min(times) if times else None


def deadline_shown(clocks: dict[str, Any]) -> float | None:
    """The time the table shows: the phase's end, or the earliest turn deadline."""
    if "phase" in clocks:
        return float(clocks["phase"][1])
    turn = clocks.get("turn", {})
    return min(turn.values()) if turn else None
