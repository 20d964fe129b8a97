"""A member's channel lookups, said in the README to be "20 at most per member a minute".
Before, the budget held 20 and refilled 20 a minute on top (about 40 within a minute); now it
is 20 in any minute."""

from __future__ import annotations

import pytest

from tests.discord.archived_games import games_in_archived_threads
from tests.discord.driver import message_text, server_with_eve

pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


def _lookups(env, threads: set[int], since: int) -> int:
    return sum(
        1
        for r in env.http_requests[since:]
        if r.method == "GET" and r.path.rstrip("/").rsplit("/", 1)[-1] in threads
    )


async def test_history_looks_up_at_most_twenty_channels_a_minute_for_one_member(
    simcord_env,
) -> None:
    """Ten games in public threads Discord has archived. eve runs /history twice (20
    lookups), and again 50 s later: ten lookups more, 30 within one minute."""
    env = simcord_env
    guild, general, ann, bea, eve = server_with_eve(env)
    _, made = await games_in_archived_threads(env, guild, general, ann, bea)
    threads = {str(thread) for thread in made}
    since = len(env.http_requests)
    for _ in range(2):
        message_text((await eve.slash(general, "history")).response)
    await env.advance_time(50)
    message_text((await eve.slash(general, "history")).response)
    spent = _lookups(env, threads, since)  # type: ignore[arg-type]
    assert spent <= 20, f"eve's /history looked up {spent} channels within a minute"
