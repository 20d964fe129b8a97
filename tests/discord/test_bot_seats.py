"""Bot seats: one member and bots play any game to its end, bots only ever move for their own
seats, in turn, and nothing hidden reaches the channel."""

from __future__ import annotations

import random

import pytest

import engine
from tests.discord.driver import Table, controls, message_text

SETUPS = {
    # kind: (members, bots, options)
    "uno": (1, 2, {"target": 30}),
    "ihaveit": (1, 2, {}),
    "warofsuits": (1, 1, {}),
    "itemcollection": (1, 3, {}),
    "haymaker": (1, 1, {}),
}


@pytest.mark.parametrize("kind", list(SETUPS))
async def test_one_member_and_bots_play_to_the_end(simcord_env, kind: str) -> None:
    members, bots, options = SETUPS[kind]
    table = await Table.start(simcord_env, kind, members, bots=bots, seed=77, **options)
    session = await table.session()
    assert [s.is_bot for s in session.seats] == [False] + [True] * bots
    assert all(session.names[p].startswith("🤖 ") for p in session.bots)
    human = next(iter(table.members))
    clicks = 0

    async def check(t: Table) -> None:
        nonlocal clicks
        clicks += 1
        await t.assert_no_secrets()

    await table.play_random(random.Random(5), check=check)
    game = await table.game()
    assert game.finished
    moves = await table.bot.store.moves(table.game_id)
    # The member's moves are exactly their clicks; every other move is a bot's, for its seat.
    assert sum(1 for _, user, _ in moves if str(user) == human) == clicks
    assert {str(user) for _, user, _ in moves} <= {human, *session.bots}
    # Every move was legal when made: the log replays to the stored state.
    replay = engine.new_game(kind, game.players, session.row.seed, session.row.options)
    for _, user, action in moves:
        replay.apply(str(user), action)
    assert replay.to_dict() == game.to_dict()
    # The end is announced once, naming the winner(s); bots by name, never as a mention.
    posts = [m for m in table.public_messages() if f"game #{table.game_id} (" in m.content]
    assert len(posts) == 1
    assert "<@-" not in message_text(posts[0])
    await table.assert_no_secrets()


async def test_lobby_bots_buttons_and_level(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("uno")
    ann = guild.add_member(simcord_env.create_user("ann"))
    bea = guild.add_member(simcord_env.create_user("bea"))
    await ann.slash(channel, "newgame uno", bots=1)
    lobby = channel.last_message
    assert "🤖 Ada" in message_text(lobby)
    refused = await bea.click(lobby, label="Add bot")
    assert refused.ephemeral and "Only the host" in refused.response.content
    await ann.click(channel.last_message, label="Add bot")
    assert "🤖 Babbage" in message_text(channel.last_message)
    level = await ann.click(channel.last_message, label="Bot level")
    assert level.followups and "hard" in level.followups[0].content
    assert "Bots: **Hard**" in message_text(channel.last_message)
    await ann.click(channel.last_message, label="Remove bot")
    text = message_text(channel.last_message)
    assert "🤖 Ada" in text and "Babbage" not in text
    # One member and a bot can start.
    await ann.click(channel.last_message, label="Start")
    row = await simcord_env.bot.store.open_game_in_channel(channel.id)
    assert row is not None and row.status == "active" and row.settings["level"] == "hard"
    seats = await simcord_env.bot.store.seats(row.id)
    assert [(s.is_bot, s.level) for s in seats] == [(False, None), (True, "hard")]
    assert controls(channel.last_message)
