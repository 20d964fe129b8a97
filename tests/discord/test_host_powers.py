"""Hosting around the card play: who keeps the host's powers, what the last member playing is
told, and what a kick does to the ratings."""

from __future__ import annotations

import random

import discord

from tests.discord.driver import Table, message_text


async def test_a_host_removed_by_a_server_manager_can_no_longer_end_or_kick(simcord_env) -> None:
    """A manager kicks the host (say, for stalling or abuse). The kicked host "cannot return"
    to the game, yet still holds every host power: they can /kick the remaining members and
    /endgame the game for everyone. Their "I'm back" is also told "The host removed you",
    although they are the host and a manager removed them."""
    table = await Table.start(simcord_env, "uno", 3, seed=11)
    guild = table.channel.guild
    ann, bea, _cy = table.members.values()  # ann is the host
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])

    kicked = await mod.slash(table.channel, "kick", member=ann)
    assert kicked.ephemeral and "a bot plays that seat" in kicked.response.content

    revenge = await ann.slash(table.channel, "kick", member=bea)
    assert revenge.ephemeral
    assert (await table.session()).seat(bea.id).away != "kicked", revenge.response.content
    ended = await ann.slash(table.channel, "endgame")
    assert ended.ephemeral, ended.response.content
    assert (await table.session()).row.status == "active"
    back = await ann.slash(table.channel, "back")
    assert back.ephemeral and "The host removed you" not in back.response.content, (
        back.response.content
    )


async def test_a_lone_member_who_times_out_three_times_is_promised_nothing(simcord_env) -> None:
    """One member plays UNO against a bot and steps away for three turns: with nobody left
    playing, the game is abandoned (docs/rules/common.md). Before, the channel was also told
    "a bot is playing your seat. Press **I'm back** on the table to take it back", with no
    game left to come back to."""
    table = await Table.start(simcord_env, "uno", 1, seed=5, bots=1, turn_timer=30)
    ann = next(iter(table.members.values()))
    await simcord_env.advance_time(6 * 60)  # three timed-out turns, the bot moving between
    await simcord_env.bot.presenter.idle()
    texts = [m.content or "" for m in table.public_messages()]
    struck = [t for t in texts if "ran out of time three turns in a row" in t]
    assert struck and "I'm back" not in struck[0], texts
    assert any("Nobody is left playing" in t and "abandoned" in t for t in texts), texts
    assert (await table.session()).row.status == "cancelled"
    back = await ann.slash(table.channel, "back")
    assert back.ephemeral and "Welcome back" not in back.response.content


async def test_the_last_member_is_told_that_leaving_ends_the_game(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=5)
    ann, bea = table.members.values()
    asked = await bea.slash(table.channel, "leave")
    assert "I'm back" in message_text(asked.response), "others still play: a seat to return to"
    await bea.click(asked.response, label="Leave the game")
    asked = await ann.slash(table.channel, "leave")
    text = message_text(asked.response)
    assert "last member playing" in text and "abandoned" in text and "I'm back" not in text


async def test_kicking_the_opponent_wins_the_host_no_rating_for_a_lost_game(simcord_env) -> None:
    """Two members play Haymaker; the host kicks the other and then loses to the bot that
    plays the kicked seat. The host still gains rating (+138 on the first game: placed first
    among members) and the kicked member loses rating for a game the host took from them, so
    a host can farm rating, or sink a rival's, with /kick."""
    table = await Table.start(simcord_env, "haymaker", 2, seed=1)
    ann, bea = table.members
    await table.members[ann].slash(table.channel, "kick", member=table.members[bea])
    await table.play_random(random.Random(1))
    game = await table.game()
    assert game.winners == [bea]  # the bot playing bea's old seat beat the host
    await simcord_env.bot.presenter.idle()
    row = await simcord_env.bot.store.get_game(table.game_id)
    shifts = {int(u): (before, after) for u, (before, after) in row.ratings.items()}
    # Only one member played the game out: like any game with fewer than two members, it
    # changes no rating (and the end post shows no "Ratings:" line).
    assert not shifts, f"ratings moved (member: (before, after)): {shifts}"
    end = next(m for m in table.public_messages() if "Final scores" in (m.content or ""))
    assert "Ratings:" not in end.content, end.content


async def test_kick_in_a_lobby_takes_the_place_back(simcord_env) -> None:
    """Before: /kick in a lobby answered "There's no running game in this channel", and the
    host had no way to remove a member from a lobby but Cancel."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann, bea, cy = (guild.add_member(simcord_env.create_user(n)) for n in ("ann", "bea", "cy"))
    await ann.slash(channel, "newgame uno")
    lobby = channel.last_message
    for member in (bea, cy):
        await member.click(lobby, label="Join")
    refused = await cy.slash(channel, "kick", member=bea)
    assert refused.ephemeral and "Only the host" in refused.response.content
    host_out = await bea.slash(channel, "kick", member=ann)
    assert host_out.ephemeral
    done = await ann.slash(channel, "kick", member=bea)
    assert done.ephemeral and "out of the lobby" in done.response.content
    await simcord_env.bot.presenter.idle()
    row = await simcord_env.bot.store.open_game_in_channel(channel.id)
    assert row is not None and row.status == "lobby"
    seats = await simcord_env.bot.store.seats(row.id)
    assert sorted(s.user_id for s in seats) == sorted([ann.id, cy.id])
    shown = message_text(next(m for m in channel.history() if m.id == lobby.id))
    assert "cy" in shown and "bea" not in shown, shown
