"""DM hands drawn by a version before the DM's Play button (redrawn at each turn start, so
drawn between turns with "Nothing for you to do right now." and no Play button), met by
this version after an upgrade (migration 010)."""

from __future__ import annotations

from typing import Any

import pytest

import cogs.show
from tests.db.test_upgrades import at_version
from tests.discord.driver import Table, controls, count_edits, message_text
from tests.discord.restarts import dead, fresh_clock
from tests.discord.test_dm_between_turns import a_plain_card
from tests.discord.test_uno_discord import current_player, past_first_colour

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_dm_drawn_by_the_old_version_is_drawn_anew_at_the_games_next_change(
    simcord_env: Any, make_bot: Any, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game runs while the old version draws the DMs: bea's DM (not her turn) reads
    "Nothing for you to do right now." with no button but Leave; the old version would have
    redrawn it with her moves when her turn began. The owner upgrades. Before, the new
    version took every DM as showing the game (``recall_drawn``) and never redraws one when
    a turn begins: on bea's turn her DM still said there was nothing for her to do, with no
    Play button. Now the games running at the upgrade draw their DMs anew at their next
    change, once (bea's with her moves, her turn having begun); nothing is redrawn at
    start."""
    env = simcord_env
    real = cogs.show.hand_screen

    def old_version(*args: Any, **kwargs: Any) -> Any:
        kwargs["dm"] = False  # the old version knew no DM Play button
        return real(*args, **kwargs)

    monkeypatch.setattr(cogs.show, "hand_screen", old_version)
    table = await Table.start(env, "uno", 3, seed=4, turn_timer=0)
    await past_first_colour(table)
    await env.bot.presenter.idle()
    ann = await current_player(table)
    card = await a_plain_card(table, ann)
    game = await table.game()
    game.apply(ann, card)  # a copy: who comes next
    bea = next(p for p in game.actors() if game.legal_actions(p))
    assert "Nothing for you to do right now" in message_text(table.dm_message(bea))

    old = env.bot
    await old.close()
    dead(old)
    await at_version(database, 9)
    monkeypatch.setattr(cogs.show, "hand_screen", real)  # this version
    fresh_clock()
    edits = count_edits(monkeypatch)
    await env.restart_bot(make_bot())
    await env.advance_time(5)
    await env.settle()
    assert edits == [], "redrawn at start"
    await table.act(ann, card, via="picker")
    await env.bot.presenter.idle()
    assert await current_player(table) == bea
    dm = table.dm_message(bea)
    assert dm is not None
    text = message_text(dm)
    moves = [c for c in controls(dm) if c.custom_id.startswith(f"g:{table.game_id}:")]
    assert "Nothing for you to do right now" not in text and moves, (
        f"bea's turn, and her DM (drawn by the old version) still says: {text!r}, "
        f"buttons {[c.custom_id for c in controls(dm)]}"
    )
    assert not (await table.session()).row.old_dms
    stored = await env.bot.store.get_game(table.game_id)
    assert stored is not None and not stored.old_dms, "drawn anew once, not at every start"
