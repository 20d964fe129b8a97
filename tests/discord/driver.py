"""Drive a game through the bot's real UI in simcord, the way players click.

A test chooses *what* to do (an engine action id); the driver finds *how* a player does it:
a table button, the "Play" picker (ephemeral) step by step, or the buttons in their DM.
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

import discord
from simcord.builders import ChannelHandle
from simcord.enums import ChannelType

import engine
from bot import CardBot
from cogs import ids
from cogs.sessions import Session


def answer_fails(env: Any) -> None:
    """Discord refuses the bot's next answer to an interaction (10062: the 3 s went by)."""
    env.inject_error(
        "POST",
        "/interactions/*/callback",
        status=404,
        code=10062,
        message="Unknown interaction",
        times=1,
    )


@dataclass
class Control:
    kind: str  # "button" | "select"
    custom_id: str
    label: str = ""
    values: list[str] = field(default_factory=list)
    disabled: bool = False


def controls(message: Any) -> list[Control]:
    """Every button and select on a message (a discord.Message or a simcord ResponseMessage)."""
    found: list[Control] = []
    rows = message.components
    for row in rows:
        children = row["components"] if isinstance(row, dict) else row.children
        for child in children:
            if isinstance(child, dict):
                if child.get("type") == 2:
                    found.append(
                        Control(
                            "button",
                            child.get("custom_id", ""),
                            child.get("label", ""),
                            disabled=child.get("disabled", False),
                        )
                    )
                elif child.get("type") == 3:
                    values = [o["value"] for o in child.get("options", [])]
                    found.append(Control("select", child["custom_id"], values=values))
            elif isinstance(child, discord.Button):
                found.append(
                    Control("button", child.custom_id or "", child.label or "", [], child.disabled)
                )
            elif isinstance(child, discord.SelectMenu):
                found.append(
                    Control("select", child.custom_id, values=[o.value for o in child.options])
                )
    return found


def target_of(custom_id: str) -> str | None:
    parts = custom_id.split(":", 3)
    return parts[3] if parts[0] == "g" and len(parts) == 4 else None


def leads_to(target: str, action_id: str) -> bool:
    return target == action_id or action_id.startswith(target + ":")


class Table:
    """One game in one channel, with its players as simcord members."""

    def __init__(self, env: Any, channel: Any, members: list[Any], game_id: int) -> None:
        self.env = env
        self.channel = channel
        self.members = {str(m.id): m for m in members}
        self.game_id = game_id
        self.table_id: int | None = None  # refreshed by every session() call

    @property
    def bot(self) -> CardBot:
        return self.env.bot

    @classmethod
    async def start(
        cls,
        env: Any,
        kind: str,
        players: int,
        channel_name: str = "games",
        seed: int | None = None,
        **options: Any,
    ) -> Table:
        """A started game; ``seed`` pins its deal (/newgame draws it as secrets.randbits(63))."""
        guild = env.guild if env._guilds else env.create_guild()
        channel = guild.create_text_channel(channel_name)
        names = ["ann", "bea", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo"]
        members = [
            guild.add_member(env.create_user(f"{n}-{channel_name}")) for n in names[:players]
        ]
        return await cls.start_in(env, channel, members, kind, seed, **options)

    @classmethod
    async def start_in(
        cls,
        env: Any,
        channel: Any,
        members: list[Any],
        kind: str,
        seed: int | None = None,
        **options: Any,
    ) -> Table:
        """A game of ``kind`` started in ``channel`` by these members (the first opens the
        lobby and starts it, the others join); ``seed`` pins its deal."""
        if seed is None:
            return await cls._start(env, channel, members, kind, **options)
        draw = secrets.randbits
        secrets.randbits = lambda bits: seed if bits == 63 else draw(bits)  # type: ignore[assignment]
        try:
            return await cls._start(env, channel, members, kind, **options)
        finally:
            secrets.randbits = draw  # type: ignore[assignment]

    @classmethod
    async def _start(
        cls, env: Any, channel: Any, members: list[Any], kind: str, **options: Any
    ) -> Table:
        # No turn timer unless a test asks for one: most tests let virtual time pass freely.
        options.setdefault("turn_timer", 0)
        result = await members[0].slash(channel, f"newgame {kind}", **options)
        assert result.response is not None and not result.ephemeral, result
        lobby = channel.last_message
        for member in members[1:]:
            joined = await member.click(lobby, label="Join")
            assert joined.acknowledged and not joined.ephemeral
        started = await members[0].click(lobby, label="Start")
        assert not started.ephemeral, started.response and started.response.content
        game_id = int(lobby.components[0].children[0].custom_id.split(":")[1])
        return cls(env, channel, members, game_id)

    async def session(self) -> Session:
        session = await self.bot.sessions.get(self.game_id)
        assert session is not None
        self.table_id = session.row.table_message_id
        return session

    async def game(self) -> engine.Game:
        session = await self.session()
        assert session.game is not None
        return session.game

    async def set_state(self, **state: Any) -> None:
        """Put the running game in a chosen position (engine state keys, JSON round-tripped
        as a load from the database would be) and redraw its table and DMs."""
        session = await self.session()
        assert session.game is not None
        data = session.game.to_dict()
        data["state"].update(state)
        session.game = engine.load(json.loads(json.dumps(data)))
        session.shown.table = None
        session.shown.dms.clear()
        await self.bot.presenter.refresh_table(session)
        await self.bot.presenter.update_dms(session)

    def table_message(self) -> discord.Message:
        message_id = self.table_id
        history = self.channel.history()
        if message_id is not None:
            for message in history:
                if message.id == message_id:
                    return message
        # The table has "My hand"; so has a turn reminder, which alone has "Stop reminding me".
        tables = [
            m
            for m in history
            if {ids.hand(self.game_id)} <= {c.custom_id for c in controls(m)}
            and ids.nudges_off(self.game_id) not in {c.custom_id for c in controls(m)}
        ]
        assert tables, "no table message in the channel"
        return tables[-1]

    def dm_message(self, player: str) -> discord.Message | None:
        member = self.members[player]
        mine = [
            m
            for m in member.user.dm_channel.history()
            if m.content and f"game #{self.game_id}" in m.content
        ]
        return mine[-1] if mine else None

    async def some_move(self, via: str = "dm") -> None:
        """The first player who can act plays a card if they can, else their first action."""
        game = await self.game()
        player = next(p for p in game.actors() if game.legal_actions(p))
        legal = game.legal_actions(player)
        plays = [a.id for a in legal if a.id.startswith("play:")]
        await self.act(player, plays[0] if plays else legal[0].id, via=via)

    async def act(self, player: str, action_id: str, via: str = "picker") -> Any:
        """Carry out ``action_id`` for ``player`` through the UI; returns the last result."""
        member = self.members[player]
        before = (await self.session()).version
        clicker = member.user if via in ("dm", "dm-private") else member
        if via == "table":
            table = self.table_message()
            await self.session()
            for control in controls(table):
                if target_of(control.custom_id) == action_id:
                    result = await member.click(table, custom_id=control.custom_id)
                    await self._check_applied(before, result, action_id)
                    return result
            via = "picker"
        if via == "dm":
            message: Any = self.dm_message(player)
            assert message is not None, f"{player} has no DM for this game"
            message = await self.open_dm_moves(player, message, action_id)
            if message.flags.ephemeral:
                via = "dm-private"  # sharing the database, Play opens the moves privately
        else:
            table = self.table_message()
            play = next(c for c in controls(table) if target_of(c.custom_id) == ids.ROOT)
            result = await member.click(table, custom_id=play.custom_id)
            assert result.ephemeral, "the picker is private"
            message = result.response
        for _ in range(6):
            step = self._next_control(message, action_id)
            assert step is not None, f"no control leads to {action_id!r}: {controls(message)}"
            control, value = step
            if control.kind == "button":
                result = await clicker.click(message, custom_id=control.custom_id)
            else:
                values = value if isinstance(value, list) else [value]
                result = await clicker.select(message, values, custom_id=control.custom_id)
            if (await self.session()).version != before:
                await self._check_applied(before, result, action_id)
                return result
            message = result.response or message
            if via == "dm":
                message = self.dm_message(player)
        raise AssertionError(f"{action_id} was never applied")

    async def act_once(self, player: str, action_id: str) -> Any:
        """Open the picker and click through to ``action_id``, returning the answer to the
        click that names it, applied or not (for refusals and failures)."""
        member = self.members[player]
        table = self.table_message()
        play = next(c for c in controls(table) if target_of(c.custom_id) == ids.ROOT)
        message = (await member.click(table, custom_id=play.custom_id)).response
        for _ in range(6):
            step = self._next_control(message, action_id)
            assert step is not None, f"no control leads to {action_id!r}: {controls(message)}"
            control, value = step
            if control.kind == "button":
                result = await member.click(message, custom_id=control.custom_id)
                final = target_of(control.custom_id) == action_id
            else:
                values = value if isinstance(value, list) else [value]
                result = await member.select(message, values, custom_id=control.custom_id)
                final = value == action_id or control.custom_id.startswith("k:")
            if final:
                return result
            message = result.response or message
        raise AssertionError(f"never reached {action_id}")

    async def open_dm_moves(self, player: str, message: Any, action_id: str) -> Any:
        """A DM drawn before its owner's turn shows Play, not the moves: pressed first."""
        if self._next_control(message, action_id) is not None:
            return message
        play = [c for c in controls(message) if target_of(c.custom_id) == ids.ROOT]
        if not play or play[0].disabled:
            return message
        result = await self.members[player].user.click(message, custom_id=play[0].custom_id)
        if result.ephemeral and result.response is not None:
            return result.response  # sharing the database: the moves come privately
        return self.dm_message(player)

    def _next_control(self, message: Any, action_id: str) -> tuple[Control, Any] | None:
        for control in controls(message):
            if control.disabled:
                continue
            if control.kind == "button":
                target = target_of(control.custom_id)
                if target and target != ids.ROOT and leads_to(target, action_id):
                    return control, None
            elif control.custom_id.startswith("k:"):
                pick_id = control.custom_id.split(":", 3)[3].split("~")[0]
                chosen = action_id[len(pick_id) + 1 :].split(".")
                # Several selects may serve one action (a haymaker: one per suit).
                if action_id.startswith(pick_id + ":") and set(chosen) <= set(control.values):
                    return control, chosen
            else:
                for value in control.values:
                    if leads_to(value, action_id):
                        return control, value
        return None

    async def _check_applied(self, before: int, result: Any, action_id: str) -> None:
        """The move is the next one in the log (bots may have moved after it)."""
        moves = await self.bot.store.moves(self.game_id)
        applied = [action for seq, _, action in moves if seq == before + 1]
        assert applied == [action_id], (
            f"{action_id} not applied: {result.response and result.response.content}"
        )

    async def play_random(
        self,
        rng: random.Random,
        max_moves: int = 3000,
        check: Any = None,
        prefer: tuple[str, ...] = ("play", "uno", "color", "accept", "pass"),
    ) -> int:
        """Random legal moves through a mix of table, picker and DM, to the end."""
        moves = waits = 0
        while not (await self.game()).finished:
            assert moves < max_moves, "the game did not end"
            game = await self.game()
            session = await self.session()
            # Members play through the UI; bot seats move by themselves (on their clocks).
            able = [
                p
                for p in game.actors()
                if game.legal_actions(p)
                and p in self.members
                and (s := session.seat(int(p))) is not None
                and not s.is_bot
            ]
            if not able:
                assert session.bots, "nobody can act"
                waits += 1
                assert waits < 50, "the bots never moved"
                await self.env.advance_time(10)  # a bot waiting out an UNO call, say
                continue
            player = rng.choice(able)
            legal = game.legal_actions(player)
            # Mostly purposeful moves (a uniformly random UNO round lasts ~2,000 moves).
            purposeful = [a for a in legal if a.id.split(":")[0] in prefer]
            action = rng.choice(purposeful if purposeful and rng.random() < 0.85 else legal)
            action_id = action.id
            if action.pick is not None:
                action_id = pick_choice(game, player, action, rng)
            session = await self.session()
            seat = session.seat(int(player))
            ways = ["picker", "table"]
            if seat is not None and not seat.dm_closed and self.dm_message(player) is not None:
                ways.append("dm")
            if session.hosted.renderer.is_table_only(action_id):
                ways = ["table"]  # catching someone is only ever on the table
            await self.act(player, action_id, via=rng.choice(ways))
            moves += 1
            if check is not None:
                await check(self)
        return moves

    async def assert_no_secrets(self) -> None:
        """No public message shows a hand, a private note, or the words of one."""
        session = await self.session()
        game = await self.game()
        renderer = session.hosted.renderer
        public = "\n".join(message_text(m) for m in self.public_messages())
        for marker in ("Your hand", "Only you can see", "You drew", "You gave", "gave you"):
            assert marker not in public, f"{marker!r} in public"
        for player in game.players:
            hand = game.view(player)["hand"]
            if len(hand) >= 2:
                assert renderer.hand_text(hand) not in public, f"{player}'s hand in public"
            for note in session.notes(int(player)):
                if note.startswith("You"):
                    assert note not in public, f"a private note in public: {note}"

    def public_messages(self) -> list[discord.Message]:
        return [m for m in self.channel.history() if not m.flags.ephemeral]


def pick_choice(game: engine.Game, player: str, action: engine.Action, rng: random.Random) -> str:
    """A valid choice for a Pick action, found by trying random choices on a copy (within one
    of the game's groups, such as a haymaker's suit, when it has any)."""
    from cogs.hosting import renderer_for

    assert action.pick is not None
    pick = action.pick
    groups = [g for _, g in renderer_for(game.kind).pick_groups(action.id, pick.options)]
    for _ in range(200):
        pool = rng.choice(groups) if groups else pick.options
        hi = min(pick.max, len(pool))
        if hi < pick.min:
            continue
        chosen = rng.sample(pool, rng.randint(pick.min, hi))
        candidate = f"{action.id}:{'.'.join(chosen)}"
        try:
            game.copy().apply(player, candidate)
        except engine.IllegalAction:
            continue
        return candidate
    raise AssertionError(f"no valid choice for {action.id}")


def message_text(message: discord.Message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    parts += [c.label for c in controls(message)]
    return "\n".join(parts)


def private_channel(guild: Any, name: str, *members: Any) -> Any:
    """A channel only ``members`` (and the bot) may see: @everyone is denied View Channel."""
    allowed = discord.PermissionOverwrite(view_channel=True)
    overwrites = {guild.roles["@everyone"]: discord.PermissionOverwrite(view_channel=False)}
    overwrites.update({member: allowed for member in (*members, guild.me)})
    return guild.create_text_channel(name, overwrites=overwrites)


def count_edits(monkeypatch: Any) -> list[int]:
    """The message ids the presenter edits from now on (the edits still happen)."""
    from cogs.presenter import Presenter

    edits: list[int] = []
    edit = Presenter.edit

    async def counted(self: Presenter, channel_id: int, message_id: int, screen: Any) -> None:
        edits.append(message_id)
        await edit(self, channel_id, message_id, screen)

    monkeypatch.setattr(Presenter, "edit", counted)
    return edits


async def set_uno(
    table: Table, hands: list[list[str]], top: str, cur: int = 0, **state: object
) -> None:
    """Test setup: an UNO round in progress with these hands (seat order), ``top`` on the
    pile, ``cur`` to play, then any other ``state`` keys; the table and DMs drawn as they
    are then."""
    uno = {
        "h": [" ".join(h) for h in hands],
        "x": top,
        "c": top[0],
        "t": cur,
        "ph": "play",
        "d": " ".join(["Y9"] * 20),
    }
    await table.set_state(**{**uno, **state})


async def open_picker(table: Table, player: str) -> Any:
    """The table's "Play a card": the player's private picker (an ephemeral message)."""
    message = table.table_message()
    play = next(c for c in controls(message) if target_of(c.custom_id) == ids.ROOT)
    result = await table.members[player].click(message, custom_id=play.custom_id)
    assert result.ephemeral
    return result.response


async def start_named(
    env: Any, kind: str, names: list[str], guild: Any = None, channel_name: str = "", **options
) -> Table:
    """A started game whose members show the display names ``names``."""
    guild = guild or (env.guild if env._guilds else env.create_guild())
    channel = guild.create_text_channel(channel_name or f"{kind}-named")
    members = [
        guild.add_member(env.create_user(f"user{i}-{kind}-{channel.id}", global_name=name))
        for i, name in enumerate(names)
    ]
    options.setdefault("turn_timer", 0)
    opened = await members[0].slash(channel, f"newgame {kind}", **options)
    assert not opened.ephemeral, opened.response and opened.response.content
    lobby = channel.last_message
    for member in members[1:]:
        joined = await member.click(lobby, label="Join")
        assert not joined.ephemeral, joined.response and joined.response.content
    started = await members[0].click(lobby, label="Start")
    assert not started.ephemeral, started.response and started.response.content
    game_id = int(lobby.components[0].children[0].custom_id.split(":")[1])
    return Table(env, channel, members, game_id)


def thread_without_bot(env: Any) -> tuple[Any, Any, Any]:
    """A new server's members ann and bea, and their private thread in a channel where the bot
    may not manage threads; the bot was never added to it. Returns (ann, bea, thread)."""
    guild = env.create_guild()
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    # An ordinary channel; the bot may do everything there but manage threads.
    general = guild.create_text_channel(
        "general",
        overwrites={guild.me: discord.PermissionOverwrite(manage_threads=False)},
    )
    made = env.backend.create_thread(
        general.id, "ann and bea", ann.id, type=ChannelType.PRIVATE_THREAD
    )
    env.backend.add_thread_member(made.id, bea.id)
    return ann, bea, ChannelHandle(env, guild, made)


async def play_to_last_move(table: Table, rng: random.Random, via: str) -> tuple[str, str]:
    """Plays random legal moves (from ``rng``) through ``via`` until the next one would end
    the game; that move, not played: (player, action id)."""
    while True:
        game = await table.game()
        player = next(p for p in game.actors() if game.legal_actions(p))
        action = rng.choice(game.legal_actions(player))
        action_id = pick_choice(game, player, action, rng) if action.pick else action.id
        trial = game.copy()
        trial.apply(player, action_id)
        if trial.finished:
            return player, action_id
        await table.act(player, action_id, via=via)


async def start_with_posts_failing(env: Any) -> tuple[Table, Any, Any]:
    """ann opens UNO (no turn timer) in a new server's #uno and bea joins; then every post in
    the channel fails (500, until cleared) and ann presses Start. Returns the game (a
    ``Table``), the lobby message and Start's answer."""
    guild = env.create_guild()
    channel = guild.create_text_channel("uno")
    ann, bea = (guild.add_member(env.create_user(n)) for n in ("ann", "bea"))
    await ann.slash(channel, "newgame uno", turn_timer=0)
    lobby = channel.last_message
    await bea.click(lobby, label="Join")
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=500, times=None)
    started = await ann.click(lobby, label="Start")
    return Table(env, channel, [ann, bea], game_id=1), lobby, started


def posted_in(env: Any, channel_id: int, since: int, containing: str) -> list[str]:
    """The contents of the messages posted to the channel from request ``since`` on (an
    index into ``env.http_requests``) that contain ``containing``."""
    return [
        r.json.get("content", "")
        for r in env.http_requests[since:]
        if r.method == "POST"
        and r.path == f"/channels/{channel_id}/messages"
        and isinstance(r.json, dict)
        and containing in (r.json.get("content") or "")
    ]


async def open_lobby(env: Any, *others: str) -> tuple[Any, Any, Any, list[Any]]:
    """A new server's #lobby where ann opens UNO (no turn timer); ``others`` are more members
    of the server, by name. Returns the channel, the lobby message, ann and the others."""
    guild = env.create_guild()
    channel = guild.create_text_channel("lobby")
    ann = guild.add_member(env.create_user("ann"))
    members = [guild.add_member(env.create_user(name)) for name in others]
    await ann.slash(channel, "newgame uno", turn_timer=0)
    lobby = channel.last_message
    return channel, lobby, ann, members


async def lobby_cancelled_in_an_incident(
    env: Any, *others: str, times: int | None
) -> tuple[Any, Any, list[Any]]:
    """``open_lobby``, then ann cancels it during a Discord incident: the lobby message's
    edits fail (503, ``times`` times; None: until cleared) and the answer to her click fails.
    A second later: the channel, the lobby message and the other members."""
    channel, lobby, ann, members = await open_lobby(env, *others)
    env.inject_error(
        "PATCH",
        f"/channels/{channel.id}/messages/{lobby.id}",
        status=503,
        message="Service Unavailable",
        times=times,
    )
    answer_fails(env)
    await ann.click(lobby, label="Cancel")
    await env.advance_time(1)
    return channel, lobby, members


def server_with_eve(env: Any) -> tuple[Any, Any, Any, Any, Any]:
    """A new server with #general and its members ann, bea and eve. Returns (guild, general,
    ann, bea, eve)."""
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    bea = guild.add_member(env.create_user("bea"))
    eve = guild.add_member(env.create_user("eve"))
    return guild, general, ann, bea, eve


async def uno_turn_clock(env: Any, turn_timer: int = 60) -> tuple[Table, str, int]:
    """UNO of two (seed 7) with a turn timer: the table, the player whose turn runs and the
    game's version."""
    table = await Table.start(env, "uno", 2, seed=7, turn_timer=turn_timer)
    session = await table.session()
    player = session.hosted.awaited(session.game)[0]
    return table, player, session.version
