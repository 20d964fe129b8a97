"""Rate limits on the card faces' uploads: a 429 is Discord saying "later", not "never"."""

from __future__ import annotations

import pytest

from cogs.faces.book import FaceBook
from cogs.faces.catalog import NoFaces
from cogs.render import faces
from tests.discord.test_card_faces_recovery import _cheap_draw

# The uploads do not touch the database: one run is enough.
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_an_upload_answered_429_is_tried_again_later(
    simcord_env, make_bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord answers the first upload of a face with 429 (what reaches the bot when
    discord.py gives up: a Cloudflare ban of the bot's address, whose answer is not
    Discord's JSON, or five 429s in a row). Before, ``FaceBook.sync`` treated it as a
    refusal: every card stayed text until a restart, though the limit is over within the
    hour. Now a 429 is tried again later, as a 503 is (1, 2, 4... minutes on)."""
    monkeypatch.setitem(FaceBook.__init__.__kwdefaults__, "draw", _cheap_draw)
    simcord_env.inject_error(
        "POST",
        "/applications/*/emojis",
        status=429,
        message="You are being rate limited.",
        times=1,
    )
    bot = make_bot(card_emojis=True)
    await simcord_env.restart_bot(bot)
    try:
        await simcord_env.settle()
        assert not bot.faces.ready and not bot.faces.uploaded
        await simcord_env.advance_time(3600)  # the ban is long over
        await bot.faces.wait()
        assert bot.faces.ready, (
            "after one 429 the card faces were given up until a restart: every card is text"
        )
    finally:
        faces.use(NoFaces())
