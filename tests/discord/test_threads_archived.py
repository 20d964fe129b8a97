"""A game hosted in a thread, and the thread archived under it.

Discord archives a thread by itself when nobody posts in it for its auto-archive time (an hour
to a week; a game played in DMs edits the table but posts nothing), and moderators archive or
lock threads by hand. In an archived thread Discord refuses edits and posts with 400, code
50083 "Thread is archived"; a thread that is archived but not locked may be unarchived by
anyone who may send messages in it (``PATCH /channels/{thread}`` with ``archived: false``), a
locked one only by moderators (Manage Threads).

Before, the presenter treated 50083 like any passing failure: it retried (``MAX_RETRIES``),
and the lone bot's catch-up (``Endings._catching_up``, every ``CATCH_UP_ALONE`` s) redrew
again, for as long as the game was open (and, for the end post, for ever). Nothing unarchived
the thread and nobody was told: the table showed an old turn for good while the bot sent a
failing REST call every few seconds to minutes. Now the bot unarchives a thread it may, and
a game in a locked thread ends as if the thread were deleted (its DMs say so).
"""

from __future__ import annotations

import random
from typing import Any

from simcord.builders import ChannelHandle

from tests.discord.driver import Table, controls, message_text, play_to_last_move

ARCHIVED = 50083


class Archived:
    """The thread as Discord keeps it: archived (and maybe locked) until unarchived. While
    archived, message posts, edits and deletes in it fail with 50083; the bot's own unarchive
    (``archived: false``) succeeds when the thread is not locked, and is refused (403 50013,
    no Manage Threads) when it is."""

    def __init__(self, env: Any, thread_id: int, locked: bool = False) -> None:
        self.env = env
        self.thread_id = thread_id
        self.locked = locked
        self.unarchived = False
        backend = env.backend
        edit = backend.edit_channel

        def edit_channel(channel_id, changes, *, overwrites=None, thread_metadata=None):
            if (
                channel_id == thread_id
                and thread_metadata
                and not thread_metadata.get("archived", True)
            ):
                self._lift()
            return edit(channel_id, changes, overwrites=overwrites, thread_metadata=thread_metadata)

        backend.edit_channel = edit_channel
        edit(thread_id, {}, thread_metadata={"archived": True, "locked": locked})
        self.faults = []
        for method in ("POST", "PATCH", "DELETE"):
            self._fault(
                method, f"/channels/{thread_id}/messages*", 400, ARCHIVED, "Thread is archived"
            )
        if locked:
            self._fault("PATCH", f"/channels/{thread_id}", 403, 50013, "Missing Permissions")

    def _fault(self, method: str, path: str, status: int, code: int, message: str) -> None:
        self.env.inject_error(method, path, status=status, code=code, message=message, times=None)
        self.faults.append(self.env.backend.faults[-1])

    def _lift(self) -> None:
        self.unarchived = True
        for fault in self.faults:
            if fault in self.env.backend.faults:
                self.env.backend.faults.remove(fault)

    def refused_calls(self, since: int) -> int:
        """REST calls to the thread's messages since ``since`` that Discord refused (every
        one while the thread stays archived)."""
        return sum(
            1
            for r in self.env.http_requests[since:]
            if r.path.startswith(f"/channels/{self.thread_id}/messages")
        )


async def thread_game(env: Any, kind: str = "uno", seed: int = 7, **options: Any) -> Table:
    """A game started in a public thread of #games by ann (the thread's owner) and bea."""
    import secrets

    guild = env.create_guild()
    parent = guild.create_text_channel("games")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    made = env.backend.create_thread(parent.id, "game night", ann.id)
    env.backend.add_thread_member(made.id, bea.id)
    thread = ChannelHandle(env, guild, made)
    options.setdefault("turn_timer", 0)
    draw = secrets.randbits
    secrets.randbits = lambda bits: seed if bits == 63 else draw(bits)
    try:
        opened = await ann.slash(thread, f"newgame {kind}", **options)
    finally:
        secrets.randbits = draw
    assert not opened.ephemeral
    lobby = thread.last_message
    await bea.click(lobby, label="Join")
    started = await ann.click(lobby, label="Start")
    assert not started.ephemeral
    await env.bot.presenter.idle()
    table = Table(env, thread, [ann, bea], game_id=1)
    assert (await table.session()).row.status == "active"
    return table


def shown_versions(table: Table) -> set[int]:
    return {
        int(c.custom_id.split(":")[2])
        for c in controls(table.table_message())
        if c.custom_id.startswith("g:")
    }


async def test_an_archived_thread_is_unarchived_so_the_table_shows_the_moves(simcord_env) -> None:
    """The thread is archived (not locked) mid-game and bea moves from her DM. Before: the
    table edit fails with 50083, is retried, then again every two minutes, and the table goes
    on showing the turn before the move for good (nothing ever unarchives the thread, which
    the bot may do: it may send messages there and the thread is not locked)."""
    env = simcord_env
    table = await thread_game(env)
    archived = Archived(env, table.channel.id)
    await table.some_move(via="dm")
    await env.advance_time(600)
    await env.bot.presenter.idle()
    session = await table.session()
    assert archived.unarchived and shown_versions(table) == {session.version}, (
        f"after 10 minutes the table shows {shown_versions(table)}, the game is at "
        f"{session.version}; the thread was {'' if archived.unarchived else 'never '}unarchived"
    )


async def quiet(env: Any, minutes: int) -> None:
    for _ in range(minutes // 5):
        await env.advance_time(300)


async def test_a_locked_thread_is_not_hammered_with_failing_calls(simcord_env) -> None:
    """The thread is locked and archived by a moderator mid-game (the bot may not unarchive
    it). A player moves from her DM, then nobody plays for a while. Before: a quarter of an
    hour on, the bot was still editing the table, reposting it and posting the turn reminder
    there, every call refused with 50083: about seven every two minutes, for as long as
    the game is open (no turn timer: for ever)."""
    env = simcord_env
    table = await thread_game(env)
    archived = Archived(env, table.channel.id, locked=True)
    await table.some_move(via="dm")
    await quiet(env, 15)  # retries, a reminder, a look now and then
    since = len(env.http_requests)
    await quiet(env, 10)  # nothing changes
    refused = archived.refused_calls(since)
    assert refused <= 3, f"{refused} refused calls to the locked thread in 10 quiet minutes"


async def test_players_are_told_when_their_games_thread_is_locked(simcord_env) -> None:
    """Before: nothing told anyone. The DMs go on working and showing the game, the table
    in the thread stays frozen on an old turn, the reminders and the result are never
    posted, and no DM, log line a server owner sees or message says why."""
    env = simcord_env
    table = await thread_game(env)
    Archived(env, table.channel.id, locked=True)
    await table.some_move(via="dm")
    await quiet(env, 10)
    await env.bot.presenter.idle()
    for _player, member in table.members.items():
        said = " ".join(message_text(m) for m in member.user.dm_channel.history()).lower()
        assert any(w in said for w in ("locked", "archived", "ended")), (
            f"{member.name}'s DMs never mention it: {said[-300:]!r}"
        )


async def test_the_end_post_refused_by_a_locked_thread_is_not_retried_forever(simcord_env) -> None:
    """The last move is made from a DM while the game's thread is locked. The end post is
    refused with 50083; ``Endings._post_end`` gives up for good only on 403 and 404, so the
    post (and, at first, the table) is tried again every few minutes for as long as the bot
    runs, also after restarts (``Store.unannounced`` looks at every finished game ever
    played whose end was never posted)."""
    env = simcord_env
    table = await thread_game(env, "haymaker", seed=1)
    rng = random.Random(1)
    player, action_id = await play_to_last_move(table, rng, via="dm")
    archived = Archived(env, table.channel.id, locked=True)
    await table.act(player, action_id, via="dm")
    assert (await table.game()).finished
    await quiet(env, 15)
    since = len(env.http_requests)
    await quiet(env, 10)
    refused = archived.refused_calls(since)
    assert refused <= 3, f"{refused} refused posts of the result in 10 minutes, 15 after the end"


async def test_an_unarchive_that_fails_for_now_is_tried_again_and_ends_nothing(
    simcord_env,
) -> None:
    """Discord fails the unarchive once (a 500): the thread is not taken for locked, the game
    goes on, and a later try unarchives it and shows the move."""
    env = simcord_env
    table = await thread_game(env)
    archived = Archived(env, table.channel.id)
    env.inject_error("PATCH", f"/channels/{table.channel.id}", status=500, code=0, times=1)
    await table.some_move(via="dm")
    await env.advance_time(600)
    await env.bot.presenter.idle()
    session = await table.session()
    assert session.row.status == "active"
    assert archived.unarchived and shown_versions(table) == {session.version}
