"""What a session looks like on Discord: the table, a player's hand and DM, as Screen specs.

Pure functions of committed state (no I/O), shared by the click path and the presenter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs import ids
from cogs.clock import now
from cogs.render.screens import hand_screen, table_screen
from cogs.render.spec import Button, Screen, clip
from cogs.render.text import MAX_NAME, safe_name
from cogs.sessions import Session
from cogs.timing import deadline_shown
from db import GameRow

KICKED = "You were removed from this game, so its cards are no longer shown here."

# A server's name by its id, from the bot's cache (installed at start, as card faces are):
# no I/O here. Without it, or for a server it does not know, a DM names the channel alone.
_server_name: Callable[[int], str | None] | None = None


def use_server_names(lookup: Callable[[int], str | None] | None) -> None:
    global _server_name
    _server_name = lookup


def where_dm(row: GameRow) -> str:
    """Where a game is played, for its DMs: "in #channel on Server". The channel mention is
    drawn in a DM to a member of its server; the server's name (up to 100 characters, as
    typed) is clipped like a player's and made inert."""
    place = f"in <#{row.channel_id}>"
    server = _server_name(row.guild_id) if _server_name is not None else None
    return f"{place} on {safe_name(clip(server, MAX_NAME))}" if server else place


def table_link(row: GameRow) -> str:
    """A link to the game's table message (to its channel while it has none)."""
    base = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}"
    return f"{base}/{row.table_message_id}" if row.table_message_id else base


def jump_url(session: Session) -> str:
    return table_link(session.row)


def waiting(session: Session) -> list[str]:
    """Whom the game waits for: members as mentions (an edit pings nobody), bots by name."""
    game = session.game
    if game is None or game.finished or session.row.status != "active":
        return []
    names = session.names
    humans = set(session.humans)
    return [f"<@{p}>" if p in humans else names.get(p, p) for p in session.hosted.awaited(game)]


def shown_at(deadline: float | None) -> float | None:
    """A deadline as Discord's clients must be shown it (``SteadyClock.shown``)."""
    return now.shown(deadline) if deadline is not None else None


def table(session: Session) -> Screen:
    assert session.game is not None
    row = session.row
    away = any(s.human and s.is_bot and s.away != "kicked" for s in session.seats)
    return table_screen(
        row.id,
        row.version,
        session.game,
        session.hosted.renderer,
        session.names,
        session.public_log,
        row.status,
        shown_at(deadline_shown(row.clocks)),
        waiting=waiting(session),
        away=away,
    )


def hand(
    session: Session,
    user_id: int,
    prefix: str = ids.ROOT,
    notice: str | None = None,
    dm: bool = False,
    leave: bool = False,
    idle: bool = False,
) -> Screen:
    """``idle``: a DM drawn with Play only, though its owner has moves (``dm_drawn_key``)."""
    assert session.game is not None
    row = session.row
    renderer = session.hosted.renderer
    where = f"Game #{row.id}"
    if dm:
        # A DM names its game, channel and server (a player may be in several, and a phone
        # shows no link's address); the link is in the text, where Discord renders it (an
        # embed footer would show it raw).
        header = f"Your hand for game #{row.id} ({renderer.title}) {where_dm(row)}"
        if row.ended_reason not in ("channel_gone", "server_left"):  # else a dead link
            header += f" · [table]({jump_url(session)})"
        notice = f"{header}\n{notice}" if notice else header
    else:
        channel = f"Game #{row.id} in <#{row.channel_id}>"
        notice = f"{channel}\n{notice}" if notice else channel
    seat = session.seat(user_id)
    if seat is not None and seat.away == "kicked":
        # No longer a player: the seat's cards (a bot plays them now) are not theirs to see.
        return Screen(content=f"{notice}\n{KICKED}")
    away = bool(seat and seat.human and seat.is_bot)
    # A DM is not edited when others move (``dm_stale``): while it is not its owner's turn, a
    # line saying whose turn it is would soon be untrue, so the DM leaves it out; so does a DM
    # while others act at the same time ("waiting for ann, bea" would go stale), unless the
    # game words the owner's own part (``own_prompt``), true whatever the others do.
    player = str(user_id)
    moving = dm and not idle and acting(session, user_id)
    own = renderer.own_prompt(session.view(player), player) if moving else None
    live = not dm or (moving and (own is not None or not _others_acting(session, user_id)))
    return hand_screen(
        row.id,
        row.version,
        session.game,
        player,
        renderer,
        session.names,
        session.notes(user_id),
        where,
        prefix=prefix,
        notice=notice,
        status=row.status,
        ended=row.ended_reason,
        away=away,
        leave=leave or dm,
        prompt=live,
        dm=dm,
        own_prompt=own,
        moves=not idle,
    )


def acting(session: Session, user_id: int) -> bool:
    """The member has a move to make in their hand now (not only a table button)."""
    game = session.game
    assert game is not None
    seat = session.seat(user_id)
    if session.row.status != "active" or game.finished or (seat is not None and seat.is_bot):
        return False
    renderer = session.hosted.renderer
    return any(not renderer.is_table_only(a.id) for a in game.legal_actions(str(user_id)))


def _others_acting(session: Session, user_id: int) -> bool:
    """Someone else the game waits for has a move to make in their hand now too (a
    simultaneous phase). Only those awaited: a move nobody must make (an UNO jump-in) would
    tell this player that another hand holds the card that allows it."""
    game = session.game
    assert game is not None
    renderer = session.hosted.renderer
    return any(
        any(not renderer.is_table_only(a.id) for a in game.legal_actions(p))
        for p in session.hosted.awaited(game)
        if p != str(user_id)
    )


def dm_key(session: Session, user_id: int) -> tuple[Any, Any]:
    """What a DM drawn now shows, reduced to what changes it: (what it shows at any time,
    the turn whose moves it shows, or None when its owner has no move now)."""
    assert session.game is not None
    seat = session.seat(user_id)
    if seat is not None and seat.away == "kicked":
        return ("kicked",), None  # drawn once, never again (``hand``)
    away = bool(seat and seat.is_bot)
    player = str(user_id)
    view = session.view(player)
    turn: Any = None
    if acting(session, user_id):
        turn = session.version
        since = session.row.log.get("seen", {}).get(player)
        own = session.hosted.renderer.own_prompt(view, player)
        if since is not None and (own is not None or _others_acting(session, user_id)):
            # Others' moves in a simultaneous phase change the version but not this DM: its
            # buttons still count (``Session.unchanged_since``) and it shows no "waiting for",
            # only its owner's part (``own``), which stays true when the others are done too.
            renderer = session.hosted.renderer
            lines = tuple(renderer.private_lines(view, session.names, player))
            turn = ("since", since[1], lines, own)
    quiet = {**view, "prompt": None, **dict.fromkeys(session.hosted.renderer.lasting)}
    always = (
        tuple(view.get("hand", [])),
        tuple(session.notes(user_id)),
        # What the game tells this player alone (I Have It's lead limit): the DM says it,
        # so it is redrawn when that goes too, not only when the hand changes.
        # As drawn between turns: with no prompt (the moves' part is ``turn``'s), and
        # without the lines that stay true once gone (``Renderer.lasting``).
        tuple(session.hosted.renderer.private_lines(quiet, session.names, player)),
        session.row.status,
        away,
    )
    return always, turn


def dm_drawn_key(session: Session, user_id: int) -> tuple[Any, Any]:
    """``dm_key`` of the DM the bot draws on its own now (not a click's answer): with Play
    only, not the moves, when the game says those belong on the table (``moves_in_dm``)."""
    key = dm_key(session, user_id)
    if key[1] is not None:
        player = str(user_id)
        if not session.hosted.renderer.moves_in_dm(session.view(player), player):
            return key[0], None
    return key


def dm_stale(shown: Any, key: tuple[Any, Any]) -> bool:
    """Whether a DM drawn with key ``shown`` must be drawn again now (``key``: ``dm_key``).

    Not when its owner's turn begins: that would be one more call to Discord at every move,
    and an edit notifies nobody. A DM drawn between turns offers **Play**, which opens the
    moves (the click's own answer draws them). It is drawn again when what it shows at any
    time changes, and when the moves it shows are no longer the ones open to its owner."""
    if not isinstance(shown, tuple) or len(shown) != 2:
        return True
    if shown[1] is None:
        return bool(shown[0] != key[0])
    return bool(shown != key)


def nudge_screen(session: Session, users: list[int], ping: bool = True) -> Screen:
    """The turn reminder: who is awaited, a link to the table, "My hand" (the hand and its
    moves, as on the table: the one way to play for a member whose DMs are closed, should
    the table be gone), and a button to stop them."""
    row = session.row
    who = ", ".join(f"<@{u}>" for u in users)
    return Screen(
        content=f"{who}, your turn in {session.hosted.title} #{row.id}: "
        f"[to the table]({table_link(row)})",
        rows=[
            [
                Button("My hand", ids.hand(row.id), "secondary", emoji="🃏"),
                Button("Stop reminding me", ids.nudges_off(row.id), emoji="🔕"),
            ]
        ],
        ping=users if ping else [],
    )
