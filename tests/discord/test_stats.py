"""Stats, leaderboards, history and replays on a server with several finished games."""

from __future__ import annotations

import random
import re
from typing import Any

import engine
from cogs.render.text import humanize
from cogs.sessions import finishing_result
from cogs.stats import percent
from db import SeatRow
from engine.cards import label
from engine.testing import playout
from tests.discord.driver import Table, controls, message_text


async def finished_game(
    bot, guild_id: int, channel: int, winner: int, loser: int, kind: str = "haymaker"
) -> int:
    """A finished two-member game of ``kind`` that ``winner`` won, stored as the bot would
    store it; its id."""
    for seed in range(200):
        game = engine.new_game(kind, [str(winner), str(loser)], seed=seed)
        playout(game, seed=seed)
        if game.winners == [str(winner)]:
            break
    else:  # pragma: no cover
        raise AssertionError("no seed gives that winner")
    store = bot.store
    row = await store.create_lobby(guild_id, channel, kind, winner, "x", {}, seed=seed)
    await store.add_seat(row.id, loser, "y")
    await store.start_game(row.id, {}, {})
    seats = [
        SeatRow(row.id, winner, 0, "x", False, None, None, False),
        SeatRow(row.id, loser, 1, "y", False, None, None, False),
    ]
    result = finishing_result(game, seats)
    await store.record_move(
        row.id, 0, winner, "x", game.to_dict(), {}, status="finished", result=result
    )
    await store.mark_announced(row.id)
    return row.id


async def test_stats_leaderboard_history_and_replay(simcord_env) -> None:
    table = await Table.start(simcord_env, "haymaker", 2, seed=12)
    guild = table.channel.guild
    ann, bea = (table.members[p] for p in table.members)
    await table.play_random(random.Random(1))
    end = next(m for m in table.public_messages() if "Final scores" in (m.content or ""))
    assert "Ratings: " in end.content and "1000 → " in end.content  # each member's change

    cy = guild.add_member(simcord_env.create_user("cy"))
    dee = guild.add_member(simcord_env.create_user("dee"))  # never played
    eve = guild.add_member(simcord_env.create_user("eve"))
    for i in range(3):
        await finished_game(simcord_env.bot, guild.id, 900 + i, cy.id, ann.id)
        await finished_game(simcord_env.bot, guild.id, 910 + i, eve.id, bea.id)

    # /stats: played, won, win rate, rating and place, streak, favourite game.
    mine = await cy.slash(table.channel, "stats")
    text = message_text(mine.response)
    assert mine.ephemeral and "**3** played · **3** won (100%)" in text
    assert "Favourite game: Haymaker" in text and "3 wins in a row" in text
    assert ("rating **" in text and "(#1 here)" in text) or "(#2 here)" in text
    none = await cy.slash(table.channel, "stats", member=dee)
    assert "hasn't finished a game on this server yet" in none.response.content

    # A hidden member is left off the leaderboard (their games still count).
    hidden = await eve.slash(table.channel, "privacy", hide=True)
    assert "hidden from leaderboards" in hidden.response.content
    board = await dee.slash(table.channel, "leaderboard", game="haymaker")
    text = message_text(board.response)
    assert f"<@{cy.id}>" in text and f"<@{eve.id}>" not in text
    eve_board = await eve.slash(table.channel, "leaderboard", game="haymaker")
    assert "You: hidden from leaderboards" in message_text(eve_board.response)
    assert "**3** played" in message_text((await eve.slash(table.channel, "stats")).response)

    # /history: the last games, with results and links.
    history = await dee.slash(table.channel, "history")
    text = message_text(history.response)
    assert f"#{table.game_id} Haymaker" in text and "/replay game:" in text
    assert f"/channels/{guild.id}/{table.channel.id}" in text

    # /replay: step by step, the public events the table showed, and no hand.
    replay = await dee.slash(table.channel, "replay", game=table.game_id)
    assert replay.ephemeral
    shown = [message_text(replay.response)]
    message = replay.response
    moves = len(await simcord_env.bot.store.moves(table.game_id))
    for _ in range(moves):
        step = await dee.click(message, label="Next")
        message = step.response
        shown.append(message_text(message))
    assert f"Move {moves} of {moves}" in shown[-1]
    assert not any(c.label == "Next" and not c.disabled for c in controls(message))
    everything = "\n".join(shown)
    session = await table.session()
    for line in session.public_log:  # every line the table showed, the replay shows too
        assert humanize(line, session.names) in everything, line
    assert "Your hand" not in everything and "You drew" not in everything
    game = await table.game()
    for card in game.to_dict()["state"]["burned"]:  # burned cards are never shown, ever
        assert label(card) not in everything

    # A running game cannot be replayed.
    running = await Table.start(simcord_env, "haymaker", 2, channel_name="live", seed=3)
    peek = await dee.slash(table.channel, "replay", game=running.game_id)
    assert peek.ephemeral and "Only finished games" in peek.response.content


async def test_a_kicked_members_seat_winning_is_not_announced_as_their_win(simcord_env) -> None:
    """Before: the end post named and pinged the kicked member as the winner, and /history
    listed them, while the stats (rightly) gave them no win."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=1)
    ann, bea = table.members
    await table.members[ann].slash(table.channel, "kick", member=table.members[bea])
    await table.play_random(random.Random(1))
    assert (await table.game()).winners == [bea]  # the bot playing the seat won
    name = (await table.session()).names[bea]
    assert name.endswith(" 🤖")
    end = next(m for m in table.public_messages() if "Final scores" in (m.content or ""))
    stored = simcord_env.backend.get_message(table.channel.id, end.id)
    assert int(bea) not in stored.ping_user_ids
    assert f"<@{bea}>" not in end.content and f"🏆 {name} wins" in end.content
    stats = await table.bot.store.stats(table.channel.guild.id, int(bea))
    assert stats == {}, stats  # a kicked member's game counts for nothing: no win, no game
    history = await table.members[ann].slash(table.channel, "history")
    assert f"🏆 {name}" in message_text(history.response)


async def lost_to_bot(bot: Any, guild_id: int, channel: int, member: int) -> None:
    """A finished Haymaker game: ``member`` against a bot seat (-1), which wins."""
    for seed in range(80):
        game = engine.new_game("haymaker", [str(member), "-1"], seed=seed)
        playout(game, seed=seed)
        if game.winners == ["-1"]:
            break
    store = bot.store
    row = await store.create_lobby(
        guild_id, channel, "haymaker", member, "x", {}, seed=seed, bots=[(-1, "🤖 Ada", "normal")]
    )
    await store.start_game(row.id, {}, {})
    seats = [
        SeatRow(row.id, member, 0, "x", False, None, None, False),
        SeatRow(row.id, -1, 1, "🤖 Ada", True, None, None, False, human=False, level="normal"),
    ]
    result = finishing_result(game, seats)
    await store.record_move(
        row.id, 0, member, "x", game.to_dict(), {}, status="finished", result=result
    )
    await store.mark_announced(row.id)


async def test_three_losses_to_bots_are_a_losing_streak(simcord_env) -> None:
    """Before: a game a bot won left no member among the winners and counted as a draw for
    streaks, so a member who only lost to bots read "streak: none"."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(simcord_env.create_user("ann"))
    for i in range(3):
        await lost_to_bot(simcord_env.bot, guild.id, 700 + i, ann.id)
    answer = await ann.slash(channel, "stats")
    text = message_text(answer.response)
    assert "**3** played · **0** won (0%)" in text, text
    # Three games lost in a row (to a bot) are a losing streak, not "none".
    assert "3 losses in a row" in text, text


async def test_tied_members_get_one_place_everywhere(simcord_env) -> None:
    """Before: equal ratings were numbered 1 and 2 on /leaderboard (in no fixed order), and
    /stats told both "#1 here"."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    cy, eve, ann, bea = (
        guild.add_member(simcord_env.create_user(n)) for n in ("cy", "eve", "ann", "bea")
    )
    for i in range(3):  # the same record against fresh-rated opponents: the same rating
        await finished_game(simcord_env.bot, guild.id, 900 + i, cy.id, ann.id)
        await finished_game(simcord_env.bot, guild.id, 910 + i, eve.id, bea.id)

    board = message_text((await ann.slash(channel, "leaderboard", game="haymaker")).response)
    places = {}
    for line in board.splitlines():
        m = re.match(r"(\d+)\. <@(\d+)> — \*\*(\d+)\*\*", line)
        if m:
            places[int(m.group(2))] = (int(m.group(1)), int(m.group(3)))
    assert places[cy.id][1] == places[eve.id][1], board  # the same rating shown
    for member in (cy, eve):
        stats = message_text((await member.slash(channel, "stats")).response)
        found = re.search(r"\(#(\d+) here\)", stats)
        assert found is not None, stats
        here = int(found.group(1))
        # /stats and /leaderboard must agree on the member's place.
        assert here == places[member.id][0], (member.id, here, board)


async def test_hidden_member_has_no_place_on_the_board(simcord_env) -> None:
    """Before: /stats ranked a member who left the boards (/privacy) "#1 here", the place
    another member holds on /leaderboard."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    cy, eve, ann, bea = (
        guild.add_member(simcord_env.create_user(n)) for n in ("cy", "eve", "ann", "bea")
    )
    for i in range(4):  # eve: four wins, cy: three
        await finished_game(simcord_env.bot, guild.id, 900 + i, eve.id, bea.id)
    for i in range(3):
        await finished_game(simcord_env.bot, guild.id, 910 + i, cy.id, ann.id)
    await eve.slash(channel, "privacy", hide=True)

    board = message_text((await ann.slash(channel, "leaderboard", game="haymaker")).response)
    assert f"1. <@{cy.id}>" in board, board
    cy_stats = message_text((await cy.slash(channel, "stats")).response)
    assert "(#1 here)" in cy_stats, cy_stats
    # Another member asks for eve's stats: she asked to be off the boards.
    eve_stats = message_text((await ann.slash(channel, "stats", member=eve)).response)
    assert " here)" not in eve_stats and "hidden from leaderboards" in eve_stats, eve_stats


def test_a_win_share_reads_0_or_100_percent_only_when_true() -> None:
    """Before: 199 wins in 200 games read "100%", and 1 in 200 "0%"."""
    assert [percent(w, p) for w, p in ((199, 200), (1, 200), (0, 5), (5, 5), (1, 3))] == [
        "99%",
        "1%",
        "0%",
        "100%",
        "33%",
    ]
    assert percent(0, 0) == "—"


async def test_replaying_an_ended_game_says_it_was_ended(simcord_env) -> None:
    """Before: it said "no peeking at a running one" about a game that was over."""
    table = await Table.start(simcord_env, "uno", 2)
    host = next(iter(table.members.values()))
    await host.slash(table.channel, "endgame")
    replay = await host.slash(table.channel, "replay", game=table.game_id)
    assert replay.ephemeral and "ended before it finished" in replay.response.content
