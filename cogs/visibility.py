"""Who may learn about a game: /history, /replay and /games tell a member about a game only
when the member may read the channel or thread it was played in (its table, its messages);
/replay also to the game's own players who were not removed from it (cogs/stats.py).

Threads need more than discord.py's cache and ``Thread.permissions_for``:

- a private thread is shown by Discord only to its members and to those with Manage Threads
  in its parent, while ``Thread.permissions_for`` resolves the parent's permissions alone;
- an archived thread (Discord archives every thread after its auto-archive time without a
  message) is dropped from discord.py's cache, yet stays readable: it is fetched by REST.

A channel Discord no longer has (deleted, or the bot may not see it) counts as invisible:
what was private stays private.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Iterable
from typing import Protocol, TypeVar

import aiohttp
import discord

log = logging.getLogger(__name__)

LOOKUPS = 20  # REST calls one command may spend on channels and thread members it must ask for
MEMBER_LOOKUPS = 20  # ...and one member in any minute, over all their commands
MOST_COSTLY = 2  # lookups one channel's decision may take (the channel, a thread member)
GONE_KEPT = 10_000  # channels known deleted, remembered per bot (ids are never reused)

Place = discord.abc.GuildChannel | discord.Thread


class InChannel(Protocol):
    @property
    def channel_id(self) -> int: ...


Row = TypeVar("Row", bound=InChannel)


class Sight:
    """What the member running one command may see. Each channel is decided once (ten games
    in one archived thread: one fetch), and at most ``lookups`` REST calls are spent, so the
    command still answers within Discord's 3 s; a channel left undecided counts as invisible.
    Made per command and dropped with it: nothing here outlives the command."""

    def __init__(self, interaction: discord.Interaction, lookups: int = LOOKUPS) -> None:
        self.interaction = interaction
        self.lookups = lookups
        self.decided: dict[int, bool] = {}
        self.undecided = False  # a channel was left undecided (no lookups left, Discord failing)
        self.gone = gone_channels(interaction.client)
        self.budget = member_lookups(interaction.client)
        self._reserved: list[float] = []  # lookups taken from the member's minute ahead
        self._charged = 0  # lookups taken from it as they were made

    def can_look(self) -> bool:
        """Whether a channel could be looked up now, if one must be: the member has a
        lookup left and the server is known (not by its id alone, as after a new gateway
        session). Asked before anything is read, so that the answer tells nothing of
        whether there is a game to look for."""
        guild = self.interaction.guild
        if guild is None or guild.unavailable or guild.get_role(guild.id) is None:
            return False
        # Room for the most costly decision (a channel and a thread member looked up): one
        # never stops half-way for want of lookups, which would tell what it looked for.
        wanted = MOST_COSTLY
        return self.lookups >= wanted and self.budget.has(self.interaction.user.id, wanted)

    def reserve(self) -> None:
        """Take at once from the member's minute what the most costly decision takes (a
        channel and a thread member looked up), whatever this one will take: answers then
        cost the same whether or not there was a game to look for, and another command of
        the member's cannot take the second lookup half-way (either would tell whether a
        hidden game is there)."""
        while len(self._reserved) + self._charged < MOST_COSTLY:
            taken = self.budget.take(self.interaction.user.id)
            if taken is None:
                return
            self._reserved.append(taken)

    def release(self) -> None:
        """Give back the reserve not used: the member is shown the game (nothing to hide)."""
        self.budget.give_back(self.interaction.user.id, self._reserved)
        self._reserved = []

    async def may_see(self, channel_id: int) -> bool:
        if channel_id not in self.decided:
            self.decided[channel_id] = await self._decide(channel_id)
        return self.decided[channel_id]

    def _spend(self) -> bool:
        # Each command's own cap keeps it within Discord's 3 s; the member's, across their
        # commands, keeps one member (a script running /history) from spending the bot's
        # REST calls, which every server shares, on lookups.
        if self.lookups <= 0:
            self.undecided = True
            return False
        if self._reserved:
            self._reserved.pop()
        elif self.budget.take(self.interaction.user.id) is not None:
            self._charged += 1
        else:
            self.undecided = True
            return False
        self.lookups -= 1
        return True

    def known(self, channel_id: int) -> bool | None:
        """Whether the member may read the channel, from what the bot knows already (no
        REST call); None when Discord must be asked."""
        guild = self.interaction.guild
        member = self.interaction.user
        if guild is None or not isinstance(member, discord.Member):
            return False
        if guild.unavailable or guild.get_role(guild.id) is None:
            # Known by its id alone (after a new gateway session, until Discord sends the
            # server's channels and roles; during an outage of Discord's): no permission can
            # be worked out, save those Discord sent with the command for its own channel.
            if channel_id == self.interaction.channel_id:
                allowed = self.interaction.permissions
                return allowed.view_channel and allowed.read_message_history
            return None
        channel: Place | None = guild.get_channel_or_thread(channel_id)
        if channel is None:
            # Deleted (no lookup spent on it again), or a thread archived since discord.py
            # cached it.
            return False if channel_id in self.gone else None
        if not isinstance(channel, discord.Thread):
            allowed = channel.permissions_for(member)
            return allowed.view_channel and allowed.read_message_history
        readable = self._parent_allows(channel, member)
        if readable is not None:
            return readable
        # discord.py fills ``members`` only with the members intent: a hit is enough, a
        # miss proves nothing and Discord is asked.
        return True if any(m.id == member.id for m in channel.members) else None

    async def _decide(self, channel_id: int) -> bool:
        known = self.known(channel_id)
        if known is not None:
            return known
        guild = self.interaction.guild
        member = self.interaction.user
        assert guild is not None and isinstance(member, discord.Member)
        if guild.unavailable or guild.get_role(guild.id) is None:
            self.undecided = True
            return False
        channel = guild.get_channel_or_thread(channel_id) or await self._fetch(channel_id)
        if channel is None or channel.guild.id != guild.id:
            return False
        if isinstance(channel, discord.Thread):
            readable = self._parent_allows(channel, member)
            if readable is not None:
                return readable
            return await self._in_thread(channel, member.id)
        allowed = channel.permissions_for(member)
        return allowed.view_channel and allowed.read_message_history

    @staticmethod
    def _parent_allows(thread: discord.Thread, member: discord.Member) -> bool | None:
        """A thread has no permissions of its own: those of its parent, archived or not. A
        private one is shown only to its members and to those who manage its parent's
        threads: None when membership decides."""
        parent = thread.parent
        if parent is None:
            return False
        allowed = parent.permissions_for(member)
        if not (allowed.view_channel and allowed.read_message_history):
            return False
        if not thread.is_private() or allowed.manage_threads:
            return True
        return None

    async def _fetch(self, channel_id: int) -> Place | None:
        if not self._spend():
            log.debug("channel %s: no lookups left in this command", channel_id)
            return None
        try:
            found = await self.interaction.client.fetch_channel(channel_id)
        except discord.NotFound:
            self.gone.add(channel_id)
            return None
        except discord.Forbidden:
            return None  # hidden from the bot itself (for now)
        except (discord.HTTPException, discord.InvalidData, aiohttp.ClientError, OSError) as error:
            # Discord failing, not saying no: the game is said to be unchecked, not hidden.
            log.info("channel %s: fetching it failed: %r", channel_id, error)
            self.undecided = True
            return None
        return found if isinstance(found, Place) else None

    async def _in_thread(self, thread: discord.Thread, user_id: int) -> bool:
        if any(m.id == user_id for m in thread.members):
            return True
        if not self._spend():
            log.debug("thread %s: no lookups left in this command", thread.id)
            return False
        try:
            await thread.fetch_member(user_id)
        except (discord.NotFound, discord.Forbidden):
            return False
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            log.info("thread %s: asking for member %s failed: %r", thread.id, user_id, error)
            self.undecided = True  # unchecked, not hidden
            return False
        return True


class MemberLookups:
    """Each member's lookups of the last minute: at most ``MEMBER_LOOKUPS`` in any minute.
    Members with none in the last minute are forgotten (the dict holds recent askers)."""

    def __init__(self) -> None:
        self._times: dict[int, deque[float]] = {}

    def _recent(self, user_id: int, moment: float) -> deque[float]:
        times = self._times.get(user_id, deque())
        while times and moment - times[0] >= 60.0:
            times.popleft()
        return times

    def has(self, user_id: int, wanted: int = 1) -> bool:
        """Whether the member has ``wanted`` lookups left (none taken)."""
        return len(self._recent(user_id, time.monotonic())) <= MEMBER_LOOKUPS - wanted

    def give_back(self, user_id: int, taken: list[float]) -> None:
        """Lookups taken ahead and not needed (``Sight.release``): those very ones, not
        another command's taken since (its time on record decides when it frees up)."""
        times = self._times.get(user_id)
        for moment in taken:
            if times is not None and moment in times:
                times.remove(moment)

    def take(self, user_id: int) -> float | None:
        """One lookup for the member: when it was taken (to give it back), None if the
        minute's are spent."""
        moment = time.monotonic()
        times = self._recent(user_id, moment)
        if len(times) >= MEMBER_LOOKUPS:
            return None
        if len(self._times) > 1000:
            self._times = {u: t for u, t in self._times.items() if t and moment - t[-1] < 60.0}
        times.append(moment)
        self._times[user_id] = times
        return moment


def member_lookups(client: object) -> MemberLookups:
    """The bot's one ``MemberLookups``."""
    return _kept_on(client, "member_lookups", MemberLookups)


class GoneChannels:
    """Channels (and threads) known deleted: heard of (``Lobby.on_guild_channel_delete``) or
    found missing; their games need no lookup again. The oldest are forgotten past
    ``GONE_KEPT`` (a lookup then finds them gone again)."""

    def __init__(self) -> None:
        self._ids: dict[int, None] = {}

    def add(self, channel_id: int) -> None:
        self._ids[channel_id] = None
        if len(self._ids) > GONE_KEPT:
            del self._ids[next(iter(self._ids))]

    def __contains__(self, channel_id: object) -> bool:
        return channel_id in self._ids


def gone_channels(client: object) -> GoneChannels:
    """The bot's memory of deleted channels."""
    return _kept_on(client, "gone_channels", GoneChannels)


Kept = TypeVar("Kept")


def _kept_on(client: object, name: str, kind: type[Kept]) -> Kept:
    """The bot's one object of ``kind``, kept on the client as ``name`` (made on first use):
    what outlives a command but belongs to one bot."""
    found = getattr(client, name, None)
    if isinstance(found, kind):
        return found
    made = kind()
    if client is not None:
        setattr(client, name, made)
    return made


UNCHECKED = "Games in channels I couldn't check just now are not listed."


async def visible(
    interaction: discord.Interaction, rows: Iterable[Row], limit: int | None = None
) -> tuple[list[Row], bool]:
    """The rows (games) whose channel the member may read, in order, at most ``limit``, and
    whether a channel was left unchecked (Discord failing, or the command's lookups spent):
    its games are left out, and the member is to be told so (``UNCHECKED``)."""
    sight = Sight(interaction)
    kept: list[Row] = []
    for row in rows:
        if limit is not None and len(kept) >= limit:
            break
        if await sight.may_see(row.channel_id):
            kept.append(row)
    return kept, sight.undecided
