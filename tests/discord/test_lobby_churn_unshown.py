"""The lobby churn limit and lobbies nobody ever saw. Before, lobbies the bot ended at once
because Discord refused to show them counted toward a member's five in ten minutes, and the
refusal said they had opened lobbies they never saw; now only lobbies that were shown count."""

from __future__ import annotations

import pytest

from db.store import LOBBIES_PER_WINDOW
from tests.discord.driver import answer_fails

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_newgames_whose_lobby_was_never_shown_use_up_the_churn_limit(simcord_env) -> None:
    """Discord is slow a while: ann's /newgame uno gets no lobby five times (the bot's answer
    is refused, 10062: the lobby is ended at once, "nothing was shown, so nothing is left").
    Her sixth try, once Discord is well again, is refused: "You've opened several lobbies
    here in the last few minutes that never started", for ten minutes, though she never
    opened (nor saw) a single lobby. A lobby never shown should not count (nor a lobby the
    bot itself ended)."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    for _ in range(LOBBIES_PER_WINDOW):
        answer_fails(env)
        await ann.slash(channel, "newgame uno", turn_timer=0)
        await env.settle()
        assert await env.bot.store.open_game_in_channel(channel.id) is None
        await env.advance_time(5)
    again = await ann.slash(channel, "newgame uno", turn_timer=0)
    text = again.response.content if again.response is not None else ""
    assert not again.ephemeral, f"her first lobby to be shown is refused: {text!r}"
