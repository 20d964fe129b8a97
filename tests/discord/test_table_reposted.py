"""A table reposted because Discord limits edits of hour-old messages.

The presenter reposts a table over 50 minutes old (``presenter.TABLE_MAX_AGE``) as a new
message and turns the old one into "The table moved down ⬇️". Before, the old message kept
its embed (a picture of the game still reading "Time runs out 2 hours ago"), and the DMs'
"[table]" links and the turn reminder's link still led to it. Now the old message keeps only
the notice, with a link down, and every link the bot gave out leads to the new table."""

from __future__ import annotations

import re

from tests.discord.driver import Table, message_text

LINK = re.compile(r"\[(?:table|to the table)\]\(https://discord\.com/channels/\d+/\d+/(\d+)\)")


def linked(text: str | None) -> set[int]:
    return {int(m) for m in LINK.findall(text or "")}


def leads_down(table: Table, message_id: int, now_table: int) -> bool:
    """The message says the table moved down and links to where it is now."""
    old = next((m for m in table.channel.history() if m.id == message_id), None)
    text = old.content or "" if old is not None else ""
    return "moved down" in text and text.rstrip().endswith(f"/{now_table}")


async def test_dm_table_links_follow_a_reposted_table(simcord_env) -> None:
    """Players read their hand in a DM whose header links to the table ("· [table](…)").
    A slow UNO game: the next move comes 55 minutes after the table was posted, so the bot
    reposts the table. The DMs the move redraws link to the new table; the others are not
    edited for the link alone (each edit of an hour-old DM may be refused and replaced by a
    new DM, a notification for nothing): their link leads to the old message, which says the
    table moved down, with a link to it. Before, it said only that, above a stale picture."""
    env = simcord_env
    table = await Table.start(env, "uno", 3, seed=7)
    session = await table.session()
    first = session.row.table_message_id
    await env.advance_time(55 * 60)
    game = await table.game()
    mover = next(p for p in game.actors() if game.legal_actions(p))
    await table.some_move(via="dm")
    await env.advance_time(2)
    await env.bot.presenter.idle()
    session = await table.session()
    now_table = session.row.table_message_id
    assert now_table != first, "the old table was not reposted"
    stale = {}
    for player in table.members:
        dm = table.dm_message(player)
        assert dm is not None
        links = linked(dm.content)
        if links != {now_table} and not all(leads_down(table, m, now_table) for m in links):
            stale[session.names[player] + (" (the mover)" if player == mover else "")] = links
    assert not stale, (
        f"DMs still linking to the old table {first} (now 'moved down'), not {now_table}: {stale}"
    )


def reminders(table: Table) -> list:
    return [m for m in table.public_messages() if "your turn in" in (m.content or "")]


async def test_the_turn_reminder_link_follows_a_reposted_table(simcord_env) -> None:
    """A War of Suits battle: both players choose a card face down at once. Nobody moves for
    20 s, so one reminder pings both, "your turn … [to the table](…)". bea plays her card
    55 minutes later; the bot reposts the old table, which now reads "The table moved down".
    ann is still awaited in the same turn, so she gets no new reminder (one per turn), and the
    one in the channel still sends her to the stale message. docs/rules/common.md: the
    reminder comes "with a link to the table". Expected: the live reminder links to the table
    in use (edit it, or post it again, when the table is reposted)."""
    env = simcord_env
    table = await Table.start(env, "warofsuits", 2, seed=3)
    game = await table.game()
    assert len(game.actors()) == 2, "both choose at once"
    await env.advance_time(25)
    (reminder,) = reminders(table)
    first = (await table.session()).row.table_message_id
    assert linked(reminder.content) == {first}
    await env.advance_time(55 * 60)
    ann, bea = list(table.members)
    legal = game.legal_actions(bea)
    await table.act(bea, legal[0].id, via="dm")
    await env.advance_time(25)
    await env.bot.presenter.idle()
    session = await table.session()
    assert ann in (await table.game()).actors(), "ann still has to choose"
    now_table = session.row.table_message_id
    assert now_table != first, "the old table was not reposted"
    links = [linked(m.content) for m in reminders(table) if f"<@{ann}>" in m.content]
    assert links, "ann has no reminder left"
    assert links[-1] == {now_table}, (
        f"ann's reminder links to {links[-1]} (the old table, now 'moved down'), "
        f"not to the table {now_table}"
    )


async def test_the_moved_table_keeps_no_live_picture_of_the_game(simcord_env) -> None:
    """UNO with a 10-minute turn timer, players taking 8 minutes a turn: after 50 minutes
    the bot reposts the table (Discord limits edits of hour-old messages) and edits the old
    one to "The table moved down ⬇️". Only the content and the buttons are replaced: the old
    embed stays, still saying "ann-games to play a Red card…" and "⏳ Time runs out <t:…:R>",
    a live countdown that soon reads "Time runs out 2 hours ago". A long game leaves one
    such picture an hour in the channel, each telling an untrue turn and deadline under the
    notice. Expected: the moved message keeps no live game picture (drop or replace its
    embed when it is edited into the notice, or delete it)."""
    env = simcord_env
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=600)
    first = (await table.session()).row.table_message_id
    for _ in range(7):
        await env.advance_time(8 * 60)
        await table.some_move(via="dm")
    await env.bot.presenter.idle()
    assert (await table.session()).row.table_message_id != first, "not reposted"
    old = next(m for m in table.channel.history() if m.id == first)
    text = message_text(old)
    assert "moved down" in text
    assert "Time runs out" not in text and " to play " not in text, (
        f"the moved table still shows a live turn and countdown:\n{text}"
    )
