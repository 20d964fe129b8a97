"""/history when Discord fails the lookup of a channel (a 5xx, a dropped connection).
Before, a failed lookup was taken for "hidden" (the answer said there was nothing the member
could see), and a dropped connection was a traceback and "Something went wrong"; now the
games there are said to be unchecked, as when the command runs out of lookups."""

from __future__ import annotations

import pytest

from tests.discord.driver import message_text
from tests.discord.test_visibility_threads import _archived_thread_game

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


async def test_a_failed_channel_lookup_is_not_passed_off_as_a_hidden_game(simcord_env) -> None:
    """ann's own game was played in a public thread, since archived (the bot must look it
    up). Discord answers that lookup 503 for now. Her /history says "No finished game on
    this server that you can see yet.", which is untrue: the game is hers and in a thread she
    reads; the bot merely could not check it. It should list the game or say that games in
    channels it couldn't check are not listed."""
    env = simcord_env
    general, thread, ann, _bea, row = await _archived_thread_game(env)
    env.inject_error("GET", f"/channels/{thread.id}", status=503, times=None)
    text = message_text((await ann.slash(general, "history")).response)
    assert f"#{row.id} " in text or "couldn't check" in text, (
        f"a lookup Discord failed is passed off as a game ann may not see: {text!r}"
    )


async def test_a_dropped_connection_on_a_lookup_is_no_bug(simcord_env, monkeypatch) -> None:
    """The same lookup meets a dropped connection (``aiohttp.ClientError``, which the
    presenter now treats as Discord failing): ``Sight._fetch`` catches only
    ``discord.HTTPException``, so /history answers with the generic error and logs a bug's
    traceback instead of listing the game or saying it could not be checked."""
    import aiohttp

    env = simcord_env
    general, _thread, ann, _bea, row = await _archived_thread_game(env)

    async def dropped(channel_id: int):  # type: ignore[no-untyped-def]
        raise aiohttp.ServerDisconnectedError()

    monkeypatch.setattr(env.bot, "fetch_channel", dropped)
    text = message_text((await ann.slash(general, "history")).response)
    logged = env.errors  # read (and cleared): the bug's traceback, if any
    assert f"#{row.id} " in text or "couldn't check" in text, (
        f"logged {len(logged)} errors; /history with one lookup's connection dropped: {text!r}"
    )
