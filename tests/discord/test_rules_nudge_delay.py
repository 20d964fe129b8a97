"""/rules against the bot's own settings: the player pages must describe this bot."""

from __future__ import annotations

import pytest

from cogs.hosting import GAMES
from cogs.rules import book_for
from tests.discord.driver import controls, message_text

# What players read: the same on either database, so drawn on one (the suite's time).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


@pytest.fixture
def simcord_bot(make_bot):
    # A server owner who finds 20 s too pushy: NUDGE_AFTER_SECONDS=60 (README settings table).
    return make_bot(nudge_after=60)


async def test_rules_page_states_the_reminder_delay_this_bot_uses(simcord_env) -> None:
    """The owner set NUDGE_AFTER_SECONDS=60, so players are reminded after 60 s. Before,
    `/rules` ("Turn timers and reminders") told every player "If it is your turn and you have
    not moved for 20 seconds": docs/rules/common.md was shown as written, with the default.
    Now the page gives the delay this bot uses."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("rules")
    ann = guild.add_member(simcord_env.create_user("ann"))
    result = await ann.slash(channel, "rules", game="uno")
    (menu,) = controls(result.response)
    book = book_for(GAMES["uno"])
    index = next(str(i) for i, s in enumerate(book.sections) if "eminder" in s.title)
    shown = await ann.select(result.response, [index], custom_id=menu.custom_id)
    page = message_text(shown.response)
    assert "not moved for" in page, page  # the reminder sentence is on this page
    assert "20 seconds" not in page and "60 seconds" in page, page
