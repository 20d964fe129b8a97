"""Drawing under a misbehaving Discord: the lobby message after Start."""

from __future__ import annotations

from typing import Any

from tests.discord.driver import answer_fails, controls, message_text, open_lobby


async def test_start_whose_answer_fails_still_closes_the_lobby(simcord_env: Any) -> None:
    """The host presses Start and the bot's answer to that click fails (a busy bot answers
    after Discord's 3 s: 10062, or a 5xx). The game starts (its table is posted below), but
    the lobby message above kept "Join", "Start", "Add bot" for good: nothing redrew it
    (Join, Leave and Cancel fall back to the presenter's redraw when their answer fails;
    Start only logged). Now Start falls back to it too: the lobby reads "Started with 2
    players — the table is below" with no buttons, as when the answer goes through."""
    env = simcord_env
    channel, lobby, ann, (bea,) = await open_lobby(env, "bea")
    await bea.click(lobby, label="Join")
    answer_fails(env)
    await ann.click(lobby, label="Start")
    await env.advance_time(120)
    await env.bot.presenter.idle()
    row = await env.bot.store.open_game_in_channel(channel.id)
    assert row is not None and row.status == "active"  # it did start
    shown = next(m for m in channel.history() if m.id == lobby.id)
    labels = [c.label for c in controls(shown) if not c.disabled]
    assert "Join" not in labels and "Start" not in labels, (labels, message_text(shown))


async def test_a_join_shown_late_after_a_two_minute_outage_still_reaches_the_lobby(
    simcord_env: Any,
) -> None:
    """bea presses Join during a Discord incident: the answer to her click fails (10062)
    and the lobby message's edits fail with 5xx for two minutes. Her seat is stored, and the
    presenter tries the lobby's redraw 5, 10, 15... s apart, six times (105 s), then drops
    it; nothing else ever looks at a lobby (the catch-up covers running games only). Once
    Discord is back the lobby still lists ann alone ("1 player"), for good: bea pressing Join
    again is told "You're already in this game." and nothing is redrawn. That was before;
    now the redraw is tried minutes apart for about an hour, and comes once Discord works."""
    env = simcord_env
    channel, lobby, _ann, (bea,) = await open_lobby(env, "bea")
    answer_fails(env)
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/{lobby.id}", times=None)
    await bea.click(lobby, label="Join")
    await env.advance_time(120)
    env.backend.faults.clear()  # Discord is back
    again = await bea.click(lobby, label="Join")
    assert "already in" in (again.response.content or "")
    await env.advance_time(300)
    await env.bot.presenter.idle()
    shown = next(m for m in channel.history() if m.id == lobby.id)
    assert "bea" in message_text(shown), message_text(shown)
