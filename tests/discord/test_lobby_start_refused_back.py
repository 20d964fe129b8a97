"""Start's answer failing, then the table refused: the lobby comes back with its buttons."""

from __future__ import annotations

from tests.discord.driver import answer_fails, controls, message_text, thread_without_bot


async def test_a_lobby_sent_back_after_start_is_not_closed_later_by_the_retry(
    simcord_env,
) -> None:
    """A lobby in a private thread the bot was never added to (interactions reach it, posts
    do not). The host presses Start and Discord fails that answer (10062): ``_start`` now
    queues a redraw of the lobby message as "Started with 2 players — the table is below."
    (no buttons). The table is refused (403), so the game goes back to its lobby, as the
    host is told; that redraw is refused too and waits in the retry schedule (an hour).
    The host then adds the bot to the thread, as told, to press Start again: the
    waiting retry now lands, and the lobby message of a lobby that is open says the game
    started, with no Start or Join button left (the thread held until the lobby expires).
    That was before; now the redraw draws the lobby as it is when it runs (open again, with
    its buttons)."""
    env = simcord_env
    ann, bea, thread = thread_without_bot(env)

    await ann.slash(thread, "newgame haymaker", turn_timer=0)
    lobby = thread.last_message
    await bea.click(lobby, label="Join")
    answer_fails(env)
    await ann.click(lobby, label="Start")
    await env.bot.presenter.idle()
    row = await env.bot.store.get_game(1)
    assert row is not None and row.status == "lobby"  # the table was refused: back in lobby
    before = next(m for m in thread.history() if m.id == lobby.id)
    assert "Start" in [c.label for c in controls(before)], message_text(before)
    env.backend.add_thread_member(thread.id, env.backend.bot_user.id)  # ann adds the bot
    await env.advance_time(300)
    await env.bot.presenter.idle()
    row = await env.bot.store.get_game(1)
    assert row is not None and row.status == "lobby"
    lobby = next(m for m in thread.history() if m.id == lobby.id)
    text = message_text(lobby)
    labels = [c.label for c in controls(lobby)]
    assert "Start" in labels and "the table is below" not in text, (
        f"the game is in its lobby, but the lobby message says {text!r} with buttons {labels}"
    )
