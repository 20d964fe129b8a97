"""The one error path: slash commands and components answer an unexpected failure kindly,
privately, and log it without any secret."""

from __future__ import annotations

import logging

import pytest

from cogs.replies import OOPS
from cogs.sessions import Sessions
from tests.discord.driver import Table


async def test_a_failing_slash_command_gets_a_kind_private_answer(
    simcord_env, monkeypatch, caplog
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(simcord_env.create_user("ann"))

    secret = "".join(reversed("eulav-noitpo-terces"))  # built at run time, not in source

    async def broken(*args, **kwargs):
        raise RuntimeError(f"database fell over: {secret}")

    monkeypatch.setattr(simcord_env.bot.store, "open_games_in_guild", broken)
    with caplog.at_level(logging.ERROR):
        result = await ann.slash(channel, "games")
    # The injected failure reached the command error handler (and only that one).
    assert [type(e.__cause__ or e).__name__ for e in simcord_env.errors] == ["RuntimeError"]
    assert result.ephemeral and result.response.content == OOPS
    assert "/games failed: RuntimeError" in caplog.text
    assert secret not in caplog.text


@pytest.mark.parametrize("kind", ["warofsuits"])
async def test_a_failing_click_gets_a_kind_answer_and_no_secret_in_the_log(
    simcord_env, monkeypatch, caplog, kind
) -> None:
    table = await Table.start(simcord_env, kind, 2)
    game = await table.game()
    player = game.actors()[0]
    secret = next(a.id for a in game.legal_actions(player) if a.id.startswith("choose:"))

    async def broken(self, session, user_id, action_id, *args, **kwargs):
        raise KeyError(action_id)  # an error whose message quotes the secret choice

    monkeypatch.setattr(Sessions, "apply", broken)
    with caplog.at_level(logging.DEBUG):
        result = await table.act_once(player, secret)
    assert result.ephemeral and OOPS in (result.response.content or "")
    assert "KeyError" in caplog.text
    card = secret.split(":", 1)[1]
    assert secret not in caplog.text and f"'{card}'" not in caplog.text
    assert (await table.session()).version == 0  # nothing changed
