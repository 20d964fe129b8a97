"""A member in several games, the bot restarted (a deploy): what the first move after it
does to the member's DMs in the games it does not concern."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from tests.discord.driver import Table
from tests.discord.restarts import graceful_restart

# SQLite only: on PostgreSQL it fails the same way, but its hour of virtual time takes ~5 s.
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

# Discord refuses edits to a message over an hour old (modelled as in test_idle_dms.py).
EDIT_LIMIT = dict(
    status=400,
    code=30046,
    message="Maximum number of edits to messages older than 1 hour reached. Try again later",
    times=None,
)


async def open_game(env: Any, channel: Any, members: list[Any], seed: int) -> Table:
    """A started UNO game in ``channel`` hosted by ``members[0]`` (no turn timer)."""
    draw = secrets.randbits
    secrets.randbits = lambda bits: seed if bits == 63 else draw(bits)  # type: ignore[assignment]
    try:
        opened = await members[0].slash(channel, "newgame uno", turn_timer=0)
    finally:
        secrets.randbits = draw  # type: ignore[assignment]
    assert not opened.ephemeral, opened.response.content
    lobby = channel.last_message
    for member in members[1:]:
        assert not (await member.click(lobby, label="Join")).ephemeral
    assert not (await members[0].click(lobby, label="Start")).ephemeral
    await env.bot.presenter.idle()
    game_id = int(lobby.components[0].children[0].custom_id.split(":")[1])
    return Table(env, channel, members, game_id)


async def test_after_a_restart_a_move_sends_no_fresh_dm_to_players_it_did_not_touch(
    simcord_env: Any, make_bot: Any
) -> None:
    """ann plays UNO in #a (with bea) and in #b (with cy and dee, cy to move). After 40 quiet
    minutes (cy's reminder came and went) the bot is restarted gracefully (a deploy), and 25
    minutes later, the DMs now over an hour old, cy plays a number card in #b. ann's hand and
    turn in #b did not change. Before, she got a brand-new DM for game #b all the same (her
    old one deleted), as did anyone else the move did not touch: what each DM showed lived
    only in memory, so the first move after a restart redrew every DM of the game, and
    hour-old DMs are refused (30046) and replaced. Now a game loaded whose stored revision was
    shown in full counts as shown, and the reminder's clock no longer leaves that revision
    behind (games leaving memory are noted as shown)."""
    env = simcord_env
    guild = env.create_guild()
    a = guild.create_text_channel("a")
    b = guild.create_text_channel("b")
    ann, bea, cy, dee = (guild.add_member(env.create_user(n)) for n in ("ann", "bea", "cy", "dee"))
    table_a = await open_game(env, a, [ann, bea], seed=7)
    table_b = await open_game(env, b, [cy, dee, ann], seed=7)

    await env.advance_time(40 * 60)  # the turn reminder came and went: all quiet
    await graceful_restart(env, make_bot)
    await env.advance_time(25 * 60)  # the DMs are now over an hour old
    before = {(t.game_id, p): t.dm_message(p) for t in (table_a, table_b) for p in t.members}
    for dm in before.values():
        assert dm is not None
        env.inject_error("PATCH", f"/channels/{dm.channel.id}/messages/{dm.id}", **EDIT_LIMIT)

    game = await table_b.game()
    assert game.actors() == [str(cy.id)], game.actors()
    legal = [a.id for a in game.legal_actions(str(cy.id))]
    plain = [x for x in legal if x.startswith("play:") and x.split(":")[1][1:].isdigit()]
    assert plain, legal
    await table_b.act(str(cy.id), plain[0], via="picker")
    await env.advance_time(2)
    await env.bot.presenter.idle()
    assert (await table_b.game()).actors() == [str(dee.id)]

    fresh_a = [
        p for p in table_a.members if table_a.dm_message(p).id != before[(table_a.game_id, p)].id
    ]
    assert not fresh_a, "a move in #b replaced a DM of the game in #a"
    ann_b = table_b.dm_message(str(ann.id))
    assert ann_b.id == before[(table_b.game_id, str(ann.id))].id, (
        "ann got a brand-new DM for the game in #b although the move changed nothing of hers"
    )
