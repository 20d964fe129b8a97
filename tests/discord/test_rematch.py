"""Play again: who may open the rematch, and how often the other players are pinged.

Before: any player could press Play again, Cancel the lobby it opened and press it again, as
often as they liked, each press pinging every other player; a member the host had kicked
could open the rematch (and ping the host who removed them); and a player pressing Play again
while the rematch was already open was told to finish the channel's game "(or `/endgame`)",
which was not theirs to end. Now the players are pinged once per ended game, a kicked member
is refused, and a second press points to the open rematch."""

from __future__ import annotations

from tests.discord.driver import Table


async def _ended(simcord_env, players: int = 3):  # type: ignore[no-untyped-def]
    """A UNO game ended with /endgame by its host: its post carries **Play again**."""
    table = await Table.start(simcord_env, "uno", players, seed=3)
    ended = await next(iter(table.members.values())).slash(table.channel, "endgame")
    assert not ended.ephemeral, ended.response.content
    await simcord_env.bot.presenter.idle()
    post = table.channel.last_message
    assert "ended by" in (post.content or "")
    return table, post


async def test_play_again_pings_the_other_players_only_once(simcord_env) -> None:
    """docs/rules/common.md: on Play again "the other players are mentioned once"."""
    table, post = await _ended(simcord_env)
    ann, bea, cy = table.members.values()
    pings = {ann.id: 0, cy.id: 0}
    for _ in range(3):
        again = await bea.click(post, label="Play again")
        assert not again.ephemeral, again.response.content
        for user in again.response.message.mentions:  # as posted, before any redraw
            pings[user.id] = pings.get(user.id, 0) + 1
        lobby = table.channel.last_message
        cancelled = await bea.click(lobby, label="Cancel")
        assert not cancelled.ephemeral
    assert pings[ann.id] == 1 and pings[cy.id] == 1, f"pings per member: {pings}"


async def test_a_kicked_member_cannot_open_the_rematch(simcord_env) -> None:
    """A kicked member "cannot take the seat back in that game" (docs): nor open its rematch."""
    table = await Table.start(simcord_env, "uno", 3, seed=3)
    ann, _bea, cy = table.members.values()
    kicked = await ann.slash(table.channel, "kick", member=cy)
    assert kicked.ephemeral and "a bot plays that seat" in kicked.response.content
    await ann.slash(table.channel, "endgame")
    await simcord_env.bot.presenter.idle()
    post = table.channel.last_message
    again = await cy.click(post, label="Play again")
    assert again.ephemeral, f"a rematch opened by the kicked member: {again.response.content!r}"
    assert "removed from that game" in again.response.content
    assert await simcord_env.bot.store.open_game_in_channel(table.channel.id) is None


async def test_play_again_on_a_rematch_already_open_points_to_it(simcord_env) -> None:
    """cy, pinged by bea's rematch, presses **Play again** too (the button right above)."""
    table, post = await _ended(simcord_env)
    _ann, bea, cy = table.members.values()
    opened = await bea.click(post, label="Play again")
    assert not opened.ephemeral
    second = await cy.click(post, label="Play again")
    assert second.ephemeral
    text = second.response.content
    assert "/endgame" not in text and "Join" in text, text


async def test_the_rematch_host_pressing_play_again_again_is_told_she_is_in(
    simcord_env,
) -> None:
    """bea presses **Play again**: the rematch lobby opens with her as its host. She presses
    **Play again** once more (a double click, or scrolling back up later). Before, she was
    told "The rematch is already open: press **Join** on it.", and Join then refused her
    ("You're already in this game."). Now she is told she is in it."""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=3)
    ann, bea, _cy = table.members.values()
    ended = await ann.slash(table.channel, "endgame")
    assert not ended.ephemeral
    await env.bot.presenter.idle()
    post = table.channel.last_message
    opened = await bea.click(post, label="Play again")
    assert not opened.ephemeral, opened.response.content
    lobby = table.channel.last_message
    again = await bea.click(post, label="Play again")
    assert again.ephemeral
    joined = await bea.click(lobby, label="Join")
    assert "already in" in joined.response.content  # Join refuses her, rightly
    assert "press **Join**" not in again.response.content, again.response.content
    assert "already in the rematch" in again.response.content
