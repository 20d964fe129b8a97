"""The presenter's posts to a game's channel are clipped as Discord shows them: never a
mention cut in half. Before, the text was cut blindly at 2,000 characters, so a post that
ran over ended in "<@1234", shown raw."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord.driver import Table

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_post_too_long_is_cut_before_a_mention_not_inside_it(simcord_env: Any) -> None:
    table = await Table.start(simcord_env, "uno", 2, seed=1)
    session = await table.session()
    user = next(iter(table.members))
    text = "x" * 1990 + f" <@{user}> is next."
    message_id = await simcord_env.bot.presenter.post(session, text)
    posted = next(m for m in table.public_messages() if m.id == message_id)
    assert len(posted.content) <= 2000
    assert posted.content == "x" * 1990 + " …"
