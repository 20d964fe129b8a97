"""/stats, /history and the boards at their edges. Before: `/stats game:X` called X the
favourite game whatever the member played most; the "none yet" answer read "hasn't finished
a A War of Suits game"; /history looked only at the server's 50 newest finished games, so a
busy private channel hid a member's own channel's older games and /history said there were
none; and a hidden member with fewer than three rated games was promised a place."""

from __future__ import annotations

from tests.discord.driver import message_text, private_channel, server_with_eve
from tests.discord.test_stats import finished_game


async def test_stats_for_one_game_does_not_call_it_the_favourite(simcord_env) -> None:
    """ann has finished 4 War of Suits games and 1 Haymaker game. `/stats game:Haymaker`
    says "Favourite game: Haymaker (1 played)": the favourite is worked out from the rows
    left after the `game` filter (cogs/stats.py), so whatever game is asked for is called
    the favourite. It should name War of Suits (4 played), or leave the line out when one
    game is asked for."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    for i in range(4):
        await finished_game(env.bot, guild.id, 800 + i, ann.id, bea.id, "warofsuits")
    await finished_game(env.bot, guild.id, 810, ann.id, bea.id, "haymaker")

    everything = message_text((await ann.slash(channel, "stats")).response)
    assert "Favourite game: A War of Suits (4 played)" in everything, everything
    one = await ann.slash(channel, "stats", game="haymaker")
    text = message_text(one.response)
    assert "Favourite game: Haymaker" not in text, text


async def test_stats_for_a_game_not_played_reads_as_english(simcord_env) -> None:
    """`/stats game:A War of Suits` for a member who never played it answers
    "ann hasn't finished a A War of Suits game on this server yet." (and "a I Have It
    game", "a Item Collection Game game"): the sentence pastes the title after a fixed
    "a" and before "game" (cogs/stats.py). It should read e.g. "ann hasn't finished a game
    of A War of Suits on this server yet."."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    await finished_game(env.bot, guild.id, 800, ann.id, bea.id, "haymaker")
    texts = []
    for kind in ("warofsuits", "ihaveit", "itemcollection"):
        answer = await ann.slash(channel, "stats", game=kind)
        assert answer.ephemeral
        texts.append(answer.response.content)
    joined = "\n".join(texts)
    for wrong in ("a A War", "a I Have", "a Item", "Game game"):
        assert wrong not in joined, joined


async def test_history_still_finds_my_channels_games_behind_a_busy_private_one(
    simcord_env,
) -> None:
    """eve's channel #general has a finished game, then the staff play 50 games in #staff,
    which eve cannot read. eve's /history answers "No finished game on this server that
    you can see yet." although #1 in #general is there for her: /history looks only at the
    server's 50 newest finished games (HISTORY_LOOK in cogs/stats.py) and drops those she
    cannot see. It should keep looking (page further back) until it has games she can see
    or the history is exhausted, or at least not claim there are none."""
    env = simcord_env
    guild, general, ann, bea, eve = server_with_eve(env)
    staff = private_channel(guild, "staff", ann, bea)
    public = await finished_game(env.bot, guild.id, general.id, ann.id, bea.id, "haymaker")
    await env.advance_time(60)
    for _ in range(50):
        await finished_game(env.bot, guild.id, staff.id, bea.id, ann.id, "haymaker")
    answer = await eve.slash(general, "history")
    text = message_text(answer.response)
    assert answer.ephemeral
    assert f"#{public} Haymaker" in text, text


async def test_a_hidden_member_is_not_promised_a_rank(simcord_env) -> None:
    """eve hid herself from the leaderboards (`/privacy hide:True`) and has one rated
    game. Her `/stats` says "rating 1138, ranked after 3 rated games (1 so far)": a
    promise the bot will not keep, since a hidden member is never ranked (cogs/stats.py
    checks the rated-games count before `hidden`). It should say she is hidden from the
    leaderboards, as it does once she has three rated games."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    eve = guild.add_member(env.create_user("eve"))
    bea = guild.add_member(env.create_user("bea"))
    await finished_game(env.bot, guild.id, 900, eve.id, bea.id, "haymaker")
    hidden = await eve.slash(channel, "privacy", hide=True)
    assert hidden.ephemeral
    text = message_text((await eve.slash(channel, "stats")).response)
    assert "ranked after" not in text and "hidden from leaderboards" in text, text
