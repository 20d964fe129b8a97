"""Whole messages: the lobby, the public table, a player's hand and move picker."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cogs import ids
from cogs.render import picker
from cogs.render.kinds import Renderer
from cogs.render.spec import (
    MAX_BUTTON_LABEL,
    MAX_ROWS,
    Button,
    Embed,
    Row,
    Screen,
    button_rows,
    clip,
    clip_label,
)
from cogs.render.text import humanize
from engine import Action, Game


def lobby_screen(
    game_id: int,
    title: str,
    host: str,
    players: list[str],
    min_players: int,
    max_players: int,
    options: Mapping[str, Any],
    closed: str | None = None,
    settings: Mapping[str, str] | None = None,
    bots: int = 0,
    notice: str | None = None,
) -> Screen:
    """The lobby: who has joined, what differs from the defaults, and its buttons.

    ``options``: only the options that differ from their defaults; ``settings``: how the game
    is hosted (turn timer, bot level), already as text.
    """
    seated = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(players)) or "*(nobody)*"
    need = (
        f"{min_players} players"
        if min_players == max_players
        else f"{min_players}-{max_players} players"
    )
    embed = Embed(
        title=f"New game: {title}",
        description=f"Hosted by **{host}** · {need}",
        fields=[(f"Players ({len(players)}/{max_players})", clip(seated, 1024), False)],
    )
    if settings:
        text = " · ".join(f"{name}: **{value}**" for name, value in settings.items())
        embed.fields.append(("Table", clip(text, 1024), False))
    if options:
        text = "\n".join(
            f"{name}: **{clip(_option_text(value), 100)}**" for name, value in options.items()
        )
        embed.fields.append(("Options", clip(text, 1024), False))
    if closed:
        embed.footer = closed
        return Screen(embed=embed)
    embed.footer = "Join, then the host starts the game. The host can fill seats with bots."
    full = len(players) >= max_players
    start_ok = len(players) >= min_players
    return Screen(
        content=notice,
        embed=embed,
        rows=[
            [
                Button("Join", ids.lobby(game_id, "join"), "success", disabled=full),
                Button("Leave", ids.lobby(game_id, "leave")),
                Button("Start", ids.lobby(game_id, "start"), "primary", disabled=not start_ok),
                Button("Cancel", ids.lobby(game_id, "cancel"), "danger"),
            ],
            [
                Button("Add bot", ids.lobby(game_id, "addbot"), emoji="🤖", disabled=full),
                Button("Remove bot", ids.lobby(game_id, "rmbot"), disabled=bots == 0),
                Button("Bot level", ids.lobby(game_id, "level"), emoji="🎚️"),
            ],
        ],
    )


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value) if value != "" else "—"


def table_screen(
    game_id: int,
    version: int,
    game: Game,
    renderer: Renderer,
    names: Mapping[str, str],
    log: list[str],
    status: str = "active",
    deadline: float | None = None,
    waiting: list[str] | None = None,
    away: bool = False,
) -> Screen:
    """The public table. Only public information: built from ``game.view(None)``.

    ``waiting``: whom the game waits for, ready to show (members as mentions, bots by name);
    ``away``: some member's seat is played by a bot, so the table offers "I'm back".
    """
    view = game.view(None)
    if status == "cancelled":
        # Nobody is to move any more: no prompt, no turn marker, no buttons.
        view = {**view, "actors": [], "prompt": None, "current": None, "window": []}
        embed = renderer.table_embed(view, names, log, game_id)
        embed.description = "⏹️ **This game was ended before its end.**\n" + embed.description
        embed.footer = f"Game #{game_id} · ended early"
        return Screen(embed=embed)
    embed = renderer.table_embed(view, names, log, game_id)
    if deadline is not None and not game.finished and status == "active":
        # Discord renders <t:…:R> as a live countdown in every client.
        embed.description += f"\n⏳ Time runs out <t:{int(deadline)}:R>"
    if game.finished:
        return Screen(embed=embed)
    content = None
    if waiting:
        content = "Waiting for " + ", ".join(waiting)
    # Public buttons: the union of the actors' table actions (ones that reveal nothing).
    seen: dict[str, Action] = {}
    for player in view.get("actors", []):
        for action in game.legal_actions(player):
            if renderer.is_table_action(action.id) and action.id not in seen:
                seen[action.id] = action
    buttons = [
        Button(
            clip_label(renderer.table_action_label(a.id, a.label, view, names), MAX_BUTTON_LABEL),
            ids.act(game_id, version, a.id),
            "danger" if a.id.startswith(("catch", "challenge")) else "secondary",
        )
        for a in seen.values()
    ][:20]
    rows: list[Row] = button_rows(buttons, max_rows=4)
    last = [
        Button(renderer.play_button(), ids.act(game_id, version, ids.ROOT), "primary"),
        Button("My hand", ids.hand(game_id), "secondary", emoji="🃏"),
    ]
    if away:
        last.append(Button("I'm back", ids.back(game_id), "success", emoji="🙋"))
    rows.append(last)
    return Screen(content=content, embed=embed, rows=rows)


# Why a game stopped without a result, as its players' hands say it (``GameRow.ended_reason``).
ENDED_WHY = {
    "abandoned": "This game was abandoned: nobody was left playing.",
    "channel_gone": "This game was ended early: its channel is gone.",
    "server_left": "This game was ended early: the bot was removed from its server.",
    # Archived and the bot may not open it again (locked, or its permission taken).
    "thread_locked": "This game was ended early: the bot can no longer post in its thread.",
}


def hand_screen(
    game_id: int,
    version: int,
    game: Game,
    player: str,
    renderer: Renderer,
    names: Mapping[str, str],
    notes: list[str],
    where: str,
    prefix: str = ids.ROOT,
    notice: str | None = None,
    status: str = "active",
    away: bool = False,
    leave: bool = False,
    prompt: bool = True,
    ended: str | None = None,
    dm: bool = False,
    own_prompt: str | None = None,
    moves: bool = True,
) -> Screen:
    """A player's hand with the moves they can make now (ephemeral reply or DM).

    Once the game is over the hand shows and the buttons go. ``away``: a bot plays this seat
    for now, so instead of moves the player is offered "I'm back". ``leave``: offer "Leave
    game" (on the DM, "My hand" and the table's move picker, which asks first). ``prompt``:
    say whose turn it is (left out where the message is not redrawn on every move). ``dm``:
    the DM hand, which is not redrawn when its owner's turn begins: drawn with no move open,
    it offers the table's Play button, which opens the moves then. ``own_prompt``: instead of
    the game's prompt, the player's own part of a simultaneous phase (``Renderer.own_prompt``).
    ``moves``: False for a DM drawn with Play only, though its owner has moves
    (``Renderer.moves_in_dm``).
    """
    view = game.view(player)
    if own_prompt is not None:
        view = {**view, "prompt": f"{player} to {own_prompt}."}
    elif not prompt:
        view = {**view, "prompt": None}
    embed = renderer.hand_embed(view, names, notes, where, reader=player)
    playing = status == "active" and not game.finished
    actions = game.legal_actions(player) if playing and not away and moves else []
    # Moves only ever made on the table (catching someone) stay off the hand.
    actions = [a for a in actions if not renderer.is_table_only(a.id)]
    rows: list[Row] = []
    bottom: list[Button] = []
    if prefix != ids.ROOT and actions:
        bottom.append(Button("Back", ids.act(game_id, version, ids.ROOT)))
    if away and playing:
        bottom.append(Button("I'm back", ids.back(game_id), "success", emoji="🙋"))
    if actions:
        exact = next((a for a in actions if a.id == prefix and a.pick is not None), None)
        if prefix != ids.ROOT and exact is not None:
            rows = picker.pick_rows(game_id, version, exact, renderer, names)
        else:
            choices = picker.options(actions, prefix, renderer, names)
            rows = picker.rows(game_id, version, choices)
            embed.description += "\n\n**Your move:** choose below."
    elif status == "cancelled":
        embed.description += f"\n\n*{ENDED_WHY.get(ended or '', 'This game was ended early.')}*"
    elif not playing:
        embed.description += "\n\n*The game is over.*"
    elif away:
        embed.description += "\n\n*A bot is playing your seat. Press **I'm back** to play again.*"
    elif dm:
        play = renderer.play_button()
        embed.description += f"\n\n*When it's your turn, press **{play}**.*"
        bottom.append(Button(play, ids.act(game_id, version, ids.ROOT), "primary"))
    else:
        embed.description += "\n\n*Nothing for you to do right now.*"
    if leave and playing and not away and prefix == ids.ROOT and len(rows) < MAX_ROWS:
        # The moves take four rows at most (``picker.rows``): the fifth is Leave's.
        bottom.append(Button("Leave game", ids.leave(game_id, "ask"), "danger"))
    if bottom:
        rows.append(bottom)
    return Screen(content=notice, embed=embed, rows=rows)


def notice_screen(text: str, names: Mapping[str, str] | None = None) -> Screen:
    return Screen(content=humanize(text, names or {}))
