"""/games lists the server's open games: a private channel's game stays private, as it does
for /history and /replay."""

from __future__ import annotations

from tests.discord.driver import message_text, private_channel, server_with_eve


async def test_games_lists_no_game_from_a_channel_the_member_cannot_see(simcord_env) -> None:
    """ann and bea play in #staff, which eve cannot read. /history and /replay hide that
    channel's games from eve; before, /games showed her "#1 Haymaker in #staff —
    2 players, in progress" with a link to its table."""
    env = simcord_env
    guild, general, ann, bea, eve = server_with_eve(env)
    staff = private_channel(guild, "staff", ann, bea)
    await ann.slash(staff, "newgame haymaker", turn_timer=0)
    await bea.click(staff.last_message, label="Join")
    await ann.click(staff.last_message, label="Start")
    row = await env.bot.store.open_game_in_channel(staff.id)
    assert row is not None and row.status == "active"

    seen_by_ann = await ann.slash(general, "games")
    assert f"#{row.id} " in message_text(seen_by_ann.response)  # its players see it
    seen_by_eve = await eve.slash(general, "games")
    text = message_text(seen_by_eve.response)
    assert seen_by_eve.ephemeral
    assert f"#{row.id} " not in text and str(staff.id) not in text, text


async def test_a_long_list_of_open_games_says_how_many_more_there_are(simcord_env) -> None:
    """Before, /games listed the first 50 open games (then cut the text at 4,000 characters,
    mid-link) and said nothing of the others."""
    env = simcord_env
    guild = env.create_guild()
    ann = guild.add_member(env.create_user("ann"))
    for i in range(55):
        host = guild.add_member(env.create_user(f"host{i}"))  # a member may open 3 lobbies
        opened = await host.slash(guild.create_text_channel(f"t{i}"), "newgame uno", turn_timer=0)
        assert not opened.ephemeral
    listed = await ann.slash(guild.create_text_channel("general"), "games")
    text = message_text(listed.response)
    shown = text.count("waiting in the lobby")
    assert 0 < shown < 55
    assert f"…and {55 - shown} more games." in text, text[-200:]
