"""Whole messages: the lobby, the public table, a player's hand and move picker."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cogs import ids
from cogs.render import picker
from cogs.render.kinds import Renderer
from cogs.render.spec import Button, Embed, Row, Screen, button_rows, clip
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
) -> Screen:
    """The lobby: who has joined, the options, Join / Leave / Start / Cancel."""
    seated = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(players)) or "*(nobody)*"
    need = (
        f"{min_players} players"
        if min_players == max_players
        else f"{min_players}-{max_players} players"
    )
    embed = Embed(
        title=f"New game: {title}",
        description=f"Hosted by **{host}** · {need}",
        fields=[(f"Players ({len(players)}/{max_players})", seated, False)],
    )
    if options:
        text = "\n".join(f"{name}: **{_option_text(value)}**" for name, value in options.items())
        embed.fields.append(("Options", clip(text, 1024), False))
    if closed:
        embed.footer = closed
        return Screen(embed=embed)
    embed.footer = "The host starts the game when everyone is in."
    start_ok = len(players) >= min_players
    return Screen(
        embed=embed,
        rows=[
            [
                Button("Join", ids.lobby(game_id, "join"), "success"),
                Button("Leave", ids.lobby(game_id, "leave")),
                Button("Start", ids.lobby(game_id, "start"), "primary", disabled=not start_ok),
                Button("Cancel", ids.lobby(game_id, "cancel"), "danger"),
            ]
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
) -> Screen:
    """The public table. Only public information: built from ``game.view(None)``."""
    view = game.view(None)
    embed = renderer.table_embed(view, names, log, game_id)
    if deadline is not None and not game.finished and status == "active":
        # Discord renders <t:…:R> as a live countdown in every client.
        embed.description += f"\n⏳ Time runs out <t:{int(deadline)}:R>"
    if status == "cancelled":
        embed.footer = f"Game #{game_id} · ended early"
        return Screen(embed=embed)
    if game.finished:
        return Screen(embed=embed)
    content = None
    actors = view.get("actors", [])
    if actors and len(actors) <= 3:
        content = "Waiting for " + ", ".join(f"<@{p}>" for p in actors)
    # Public buttons: the union of the actors' table actions (ones that reveal nothing).
    seen: dict[str, Action] = {}
    for player in actors:
        for action in game.legal_actions(player):
            if renderer.is_table_action(action.id) and action.id not in seen:
                seen[action.id] = action
    buttons = [
        Button(
            clip(renderer.action_label(a.id, a.label, names), 80),
            ids.act(game_id, version, a.id),
            "danger" if a.id.startswith(("catch", "challenge")) else "secondary",
        )
        for a in seen.values()
    ][:20]
    rows: list[Row] = button_rows(buttons, max_rows=4)
    rows.append(
        [
            Button(renderer.play_button(), ids.act(game_id, version, ids.ROOT), "primary"),
            Button("My hand", ids.hand(game_id), "secondary", emoji="🂠"),
        ]
    )
    return Screen(content=content, embed=embed, rows=rows)


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
    playable: bool = True,
) -> Screen:
    """A player's hand with the moves they can make now (ephemeral reply or DM).

    ``playable`` is False once the game was ended early: the hand shows, the buttons go.
    """
    view = game.view(player)
    embed = renderer.hand_embed(view, names, notes, where)
    actions = [] if game.finished or not playable else game.legal_actions(player)
    rows: list[Row] = []
    if actions:
        if prefix != ids.ROOT:
            exact = next((a for a in actions if a.id == prefix and a.pick is not None), None)
            if exact is not None:
                rows = picker.pick_rows(game_id, version, exact, renderer, names)
                rows.append([Button("Back", ids.act(game_id, version, ids.ROOT))])
                return Screen(content=notice, embed=embed, rows=rows)
        choices = picker.options(actions, prefix, renderer, names)
        extra = []
        if prefix != ids.ROOT:
            extra.append(Button("Back", ids.act(game_id, version, ids.ROOT)))
        rows = picker.rows(game_id, version, choices, extra)
        embed.description += "\n\n**Your move:** choose below."
    elif not playable:
        embed.description += "\n\n*This game was ended early.*"
    elif not game.finished:
        embed.description += "\n\n*Nothing for you to do right now.*"
    return Screen(content=notice, embed=embed, rows=rows)


def notice_screen(text: str, names: Mapping[str, str] | None = None) -> Screen:
    return Screen(content=humanize(text, names or {}))
