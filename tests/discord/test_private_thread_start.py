"""/newgame in a private thread the bot was never added to (and where it has no Manage
Threads). Interactions reach the bot there (the lobby is the command's answer and its buttons
work), but the bot may not post in the thread, so the table is refused at Start (403 50001).
``Lobby.post_first_table`` then puts the game back in its lobby. Before, it told the host,
privately, to "fix the channel's permissions and press **Start** again", but the lobby message
had already been redrawn by Start's answer as "Started with 2 players — the table is below."
with no buttons, and the REST edit putting it back was refused like the table: no Start
button anywhere, a public message saying a game started that did not, and the thread held
until the lobby expired. Now the lobby is put back through Start's own interaction, with a
notice saying how to add the bot to the thread."""

from __future__ import annotations

from simcord.backend.access import channel_accessible

from tests.discord.driver import controls, message_text, thread_without_bot


async def test_a_start_refused_in_a_private_thread_leaves_a_lobby_that_can_start(
    simcord_env,
) -> None:
    env = simcord_env
    ann, bea, thread = thread_without_bot(env)
    assert not channel_accessible(env.backend, thread.id, env.backend.bot_user.id)

    opened = await ann.slash(thread, "newgame haymaker", turn_timer=0)
    assert not opened.ephemeral  # Discord gives the bot no sign it is not in the thread
    lobby = thread.last_message
    await bea.click(lobby, label="Join")
    started = await ann.click(lobby, label="Start")
    await env.bot.presenter.idle()
    row = await env.bot.store.get_game(1)
    assert row is not None
    assert row.status == "lobby"  # the table could not be posted: back in the lobby
    told = [f.content for f in started.followups]
    lobby = next(m for m in thread.history() if m.id == lobby.id)
    text = message_text(lobby)
    labels = [c.label for c in controls(lobby)]
    assert "Start" in labels and "the table is below" not in text, (
        f"the game is back in its lobby and the host was told {told!r}, "
        f"but the lobby message says {text!r} with buttons {labels}"
    )
    assert "I'm not in it" in text and "to add me" in text, text
