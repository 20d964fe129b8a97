"""Upgrading (last release d890b0e -> today) with games in progress: the stale-click
fingerprints stored in the move log's "seen" by the old code are read as they were meant.

The docstring tells what the player would have seen before the fix."""

from __future__ import annotations

import json
import zlib
from typing import Any

from cogs import sessions
from tests.discord.driver import Table, open_picker, set_uno
from tests.discord.test_surfaces_after_moves import call_uno_then_play_red6


def old_fingerprint(game: Any, player: str) -> int:
    """The last release's ``cogs.sessions.fingerprint`` (d890b0e): every legal action counted,
    the table-only ones (an UNO catch) included."""
    actions = [(a.id, a.label) for a in game.legal_actions(player)]
    hand = game.view(player).get("hand", [])
    return zlib.crc32(json.dumps([actions, hand], separators=(",", ":")).encode())


def old_track_seen(log: dict[str, Any], game: Any, version: int, *_: Any) -> dict[str, Any]:
    """The last release's ``track_seen``: entries [fingerprint, version]."""
    before = log.get("seen", {})
    seen = {}
    for p in game.actors():
        if not game.legal_actions(p):
            continue
        fp = old_fingerprint(game, p)
        old = before.get(p)
        seen[p] = old if old is not None and old[0] == fp else [fp, version]
    return seen


async def test_uno_catch_window_open_at_the_upgrade_does_not_stale_the_next_players_card(
    simcord_env, make_bot, monkeypatch
) -> None:
    """Under the old release, ann plays her next-to-last card without calling UNO (a catch
    window opens) and bea, whose turn it is, opens her card picker. The owner deploys today's
    code. ann then presses UNO! and bea clicks her Red 6 in the picker she opened.

    What bea sees: "That button is from an earlier turn..." and her card is not played: the
    very bug today's release fixes (d66f6fb), back for every catch window open at the deploy.
    The cause: the old "seen" fingerprint stored for bea counted her "catch:ann" move; today's
    ``track_seen`` (cogs/sessions.py) compares it with a fingerprint that leaves table-only
    moves out, finds them different and restarts bea's "unchanged since" at ann's UNO call.
    Now an entry in the old format is compared with the old formula on the game before the
    move, and her card is played."""
    monkeypatch.setattr(sessions, "track_seen", old_track_seen)  # the old release runs
    table = await Table.start(simcord_env, "uno", 3, seed=1)
    ann, bea, _cy = table.members
    await set_uno(table, [["R4", "B1"], ["R6", "G2", "Y5"], ["R1", "Y2", "G4"]], "R1")
    await table.act(ann, "play:R4", via="dm")  # forgot UNO for a second
    picker = await open_picker(table, bea)
    await simcord_env.settle()
    await table.bot.close()  # the deploy: a graceful stop...
    monkeypatch.undo()  # ...and today's code
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(5)
    await simcord_env.settle()

    await call_uno_then_play_red6(table, ann, bea, picker)
