"""Stats, ratings and history per server: /stats, /leaderboard, /history, /replay, /privacy."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs import components, ids
from cogs.hosting import GAMES
from cogs.ratings import MIN_GAMES, shown
from cogs.render.spec import Button, Embed, Row, Screen, clip, whole_lines
from cogs.render.text import named, safe_name
from cogs.replies import in_guild, reply
from cogs.sessions import forfeit_winners
from cogs.show import table_link
from cogs.visibility import UNCHECKED, Sight
from db import GameRow
from db.rows import StatRow

if TYPE_CHECKING:
    from bot import CardBot

GAME_CHOICES = [app_commands.Choice(name=h.title, value=kind) for kind, h in GAMES.items()]
COLOR = 0x5865F2


def percent(won: int, played: int) -> str:
    """Rounded, but 0% and 100% only when true (199 wins in 200 games is 99%, not 100%)."""
    if not played:
        return "—"
    share = round(100 * won / played)
    if 0 < won < played:
        share = min(max(share, 1), 99)
    return f"{share}%"


def streak_text(streak: int) -> str:
    if streak > 0:
        return f"{streak} win{'s' if streak > 1 else ''} in a row"
    if streak < 0:
        return f"{-streak} loss{'es' if streak < -1 else ''} in a row"
    return "none"


HISTORY_SHOWN = 10  # games /history lists
HISTORY_LOOK = 50  # games looked at per page for them (some may be in hidden channels)
HISTORY_PAGES = 10  # pages at most: the server's last 500 finished games


class Stats(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        components.handle("p", self.on_replay_step)

    # -- /stats ----------------------------------------------------------------------------
    @app_commands.command(name="stats", description="A member's games, wins, rating and streaks.")
    @app_commands.describe(member="Whose stats (default: yours)", game="Only this game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    @in_guild()
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.Member | discord.User | None = None,  # a User: they left the server
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        who = member or interaction.user
        name = named(who.display_name, who.name)
        rows = await self.bot.store.member_stats(interaction.guild_id, who.id)
        if game is not None:
            rows = [r for r in rows if r.kind == game.value]
        if not rows:
            where = f" of {GAMES[game.value].title}" if game else ""
            await reply(interaction, f"{name} hasn't finished a game{where} on this server yet.")
            return
        played = sum(r.played for r in rows)
        won = sum(r.won for r in rows)
        lines = [f"**{played}** played · **{won}** won ({percent(won, played)})"]
        if game is None:  # of one game's rows, that game would always be "the favourite"
            favourite = max(rows, key=lambda r: (r.played, r.won))
            title = GAMES[favourite.kind].title
            lines.append(f"Favourite game: {title} ({favourite.played} played)")
        embed = Embed(title=f"📊 {name} on this server", description="\n".join(lines), color=COLOR)
        hidden = await self.bot.store.is_hidden(who.id)
        for row in rows:
            embed.fields.append(
                (GAMES[row.kind].title, await self._game_line(interaction, row, hidden), False)
            )
        await reply(interaction, embed=components.to_embed(embed))

    async def _game_line(
        self, interaction: discord.Interaction, row: StatRow, hidden: bool = False
    ) -> str:
        """One game's record; ``hidden``: the member left the boards, so no place on them."""
        assert interaction.guild_id is not None
        parts = [
            f"{row.played} played, {row.won} won ({percent(row.won, row.played)})",
            f"streak: {streak_text(row.streak)} (best {row.best_streak})",
        ]
        if row.ordinal is None:
            parts.append("not rated yet (rated games need two members)")
        elif hidden:  # never ranked: no promise of a place
            parts.append(f"rating **{shown(row.ordinal)}** (hidden from leaderboards)")
        elif row.rated < MIN_GAMES:
            parts.append(
                f"rating {shown(row.ordinal)}, ranked after {MIN_GAMES} rated games "
                f"({row.rated} so far)"
            )
        else:
            place = await self.bot.store.rank(
                interaction.guild_id, row.kind, row.ordinal, MIN_GAMES
            )
            parts.append(f"rating **{shown(row.ordinal)}** (#{place} here)")
        return "\n".join(parts)

    # -- /leaderboard ----------------------------------------------------------------------
    @app_commands.command(name="leaderboard", description="This server's best players by rating.")
    @app_commands.describe(game="Which game (default: every game's top five)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    @in_guild()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        assert interaction.guild_id is not None
        kinds = [game.value] if game else list(GAMES)
        size = 10 if game else 5
        embed = Embed(
            title="🏆 Leaderboard" + (f": {GAMES[game.value].title}" if game else ""),
            description=(
                f"Ranked by a cautious skill estimate (it rises as you win, and as the bot "
                f"grows sure of you). Members need {MIN_GAMES} rated games to appear."
            ),
            color=COLOR,
        )
        shown_any = False
        for kind in kinds:
            text = await self._board(interaction, kind, size)
            if text:
                shown_any = True
                embed.fields.append((GAMES[kind].title, clip(text, 1024), False))
        if not shown_any:
            await reply(
                interaction,
                "Nobody is ranked here yet: play a few games with friends (bots are not rated).",
            )
            return
        await reply(interaction, embed=components.to_embed(embed))

    async def _board(self, interaction: discord.Interaction, kind: str, size: int) -> str:
        assert interaction.guild_id is not None
        store = self.bot.store
        top = await store.leaderboard(interaction.guild_id, kind, MIN_GAMES, size)
        if not top:
            return ""
        # Equal ratings share a place (1, 2, 2, 4), the place /stats and the "You" line give.
        lines, place, last = [], 0, None
        for i, r in enumerate(top, start=1):
            if r.ordinal != last:
                place, last = i, r.ordinal
            lines.append(
                f"{place}. <@{r.user_id}> — **{shown(r.ordinal)}** ({r.won}/{r.played} won)"
            )
        me = interaction.user.id
        if all(r.user_id != me for r in top):
            mine = next(
                (r for r in await store.member_stats(interaction.guild_id, me) if r.kind == kind),
                None,
            )
            if mine is not None and mine.ordinal is not None and mine.rated >= MIN_GAMES:
                if await store.is_hidden(me):
                    lines.append("You: hidden from leaderboards (`/privacy`).")
                else:
                    place = await store.rank(interaction.guild_id, kind, mine.ordinal, MIN_GAMES)
                    lines.append(f"…\n{place}. You — **{shown(mine.ordinal)}**")
        return "\n".join(lines)

    # -- /history ----------------------------------------------------------------------------
    async def _visible_history(
        self, interaction: discord.Interaction
    ) -> tuple[list[GameRow], int, bool, bool]:
        """The newest finished games the member may see (at most HISTORY_SHOWN), how many
        were looked at, whether older ones were left unlooked, and whether some channel
        could not be checked (no lookups left). Paged: a busy private channel's games must
        not hide a member's own channel's older ones."""
        assert interaction.guild_id is not None
        sight = Sight(interaction)  # each channel decided once for all pages
        rows: list[GameRow] = []
        looked = 0
        last: GameRow | None = None
        for _ in range(HISTORY_PAGES):
            found = await self.bot.store.history(
                interaction.guild_id, limit=HISTORY_LOOK, before=last
            )
            looked += len(found)
            for row in found:
                if await sight.may_see(row.channel_id):
                    rows.append(row)
                    if len(rows) == HISTORY_SHOWN:
                        return rows, looked, False, sight.undecided
            if len(found) < HISTORY_LOOK:
                return rows, looked, False, sight.undecided
            last = found[-1]
        return rows, looked, True, sight.undecided

    @app_commands.command(name="history", description="This server's last finished games.")
    @app_commands.guild_only()
    @in_guild()
    async def history(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        # Only games whose table this member could see (a private channel's stay private).
        rows, looked, more, unchecked = await self._visible_history(interaction)
        # Channels left unchecked (each deleted or archived one costs Discord a lookup, and a
        # command may ask so many): said, never passed off as games the member may not see.
        skipped = UNCHECKED
        if not rows:
            # The same words whether none finished or none is in a channel the member can
            # read: true either way, and it tells nothing of private channels.
            text = "No finished game on this server that you can see yet."
            if more:
                text = f"None of this server's last {looked} finished games is one you can see."
            if unchecked:
                text = f"None of the finished games I could check is one you can see. {skipped}"
            await reply(interaction, text)
            return
        lines = []
        for row in rows:
            seats = await self.bot.store.seats(row.id)
            # A member whose seat a bot played at the end is marked, as in the end post.
            names = {
                str(s.user_id): safe_name(s.name) + (" 🤖" if s.human and s.is_bot else "")
                for s in seats
            }
            game = engine.load(row.state) if row.state else None
            outcome = game.outcome if game is not None else None
            if outcome is None:
                continue
            result = (
                "🏆 " + " and ".join(names.get(w, w) for w in outcome.winners)
                if outcome.winners
                else "🤝 a draw"
            )
            if game is not None and (forfeit := forfeit_winners(game, seats)):
                # As the end post and the stats: who stayed won it when a leaver's bot did.
                result += " · 🏳️ " + " and ".join(names[w] for w in forfeit) + " by forfeit"
            when = f"<t:{int(row.finished_at)}:R>" if row.finished_at else ""
            lines.append(
                f"**#{row.id} {GAMES[row.kind].title}** — {result} · {len(seats)} players "
                f"· {when} · [table]({table_link(row)}) · `/replay game:{row.id}`"
            )
        if unchecked:
            lines.append(f"-# {skipped}")
        embed = Embed(
            title="📜 Last games here", description=whole_lines(lines, 4000, "older games")
        )
        await reply(interaction, embed=components.to_embed(embed))

    # -- /privacy ----------------------------------------------------------------------------
    @app_commands.command(name="privacy", description="Show or hide yourself on leaderboards.")
    @app_commands.describe(hide="True: leave me off every leaderboard; False: list me again")
    async def privacy(self, interaction: discord.Interaction, hide: bool) -> None:
        await self.bot.store.set_hidden(interaction.user.id, hide)
        await reply(
            interaction,
            "You're hidden from leaderboards (your games still count)."
            if hide
            else "You're listed on leaderboards again.",
        )

    # -- /replay -------------------------------------------------------------------------------
    @app_commands.command(name="replay", description="Step through a finished game, move by move.")
    @app_commands.describe(game="The game's number (see /history)")
    @app_commands.guild_only()
    @in_guild()
    async def replay(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1]
    ) -> None:
        screen, problem = await self.replay_screen(interaction, game, 0)
        if screen is None:
            await reply(interaction, problem or "I can't replay that game.")
            return
        await components.answer_private(interaction, screen)

    async def on_replay_step(
        self, interaction: discord.Interaction, parsed: ids.Parsed, values: list[str]
    ) -> None:
        step = int(parsed.rest) if parsed.rest.isdigit() else 0
        # Pressed on the replay itself (Discord's copy of the message holds this game's
        # replay buttons): the member was let see it when it opened. Not looked up again
        # at each step (a REST call each, for a game in an archived thread).
        shown = interaction.message is not None and _replay_of(interaction.message, parsed.game)
        screen, problem = await self.replay_screen(interaction, parsed.game, step, shown)
        if screen is None:
            await reply(interaction, problem or "I can't replay that game.")
            return
        await components.answer_update(interaction, screen)

    async def replay_screen(
        self, interaction: discord.Interaction, game_id: int, step: int, shown: bool = False
    ) -> tuple[Screen | None, str | None]:
        row = await self.bot.store.get_game(game_id)
        seats = await self.bot.store.seats(game_id) if row is not None else []
        sight = Sight(interaction)
        own = any(s.user_id == interaction.user.id and s.away != "kicked" for s in seats)
        here = row is not None and row.guild_id == interaction.guild_id
        # A game in a channel the bot knows the member reads is shown, lookups or not.
        readable = here and row is not None and sight.known(row.channel_id) is True
        if not (shown or own or readable):
            if not sight.can_look():
                # No lookup possible (spent, or the server known by its id alone): the same
                # words whether or not there is such a game, so nothing of hidden games leaks.
                return None, UNCHECKED_GAME
            sight.reserve()
        if (
            row is None
            or row.guild_id != interaction.guild_id
            or not (
                shown
                # Its own players saw it all, even once its channel is deleted or closed
                # (not a member removed from it: they did not see what came after).
                or own
                or await sight.may_see(row.channel_id)
            )
        ):
            if sight.undecided:
                # Discord failing, or the member's lookups spent (/history just before):
                # unchecked, not "no such game" (which /history may have just listed).
                return None, UNCHECKED_GAME
            # The same words for a game in a channel the member cannot see: not even whether
            # there was one.
            return None, "There's no such game on this server."
        sight.release()  # shown: what was set aside and not needed goes back
        if row.status == "cancelled":
            return None, "That game was ended before it finished: there is nothing to replay."
        if row.status != "finished":
            return None, "Only finished games can be replayed (no peeking at a running one)."
        moves = await self.bot.store.moves(game_id)
        notes = await self.bot.store.move_notes(game_id)
        return replay_screen(row, seats, moves, step, notes), None


UNCHECKED_GAME = "I couldn't check that game's channel just now. Try again in a minute."


def _replay_of(message: discord.Message, game_id: int) -> bool:
    """The message holds the replay buttons of this game."""
    for row in message.components:
        for child in getattr(row, "children", []):
            parsed = ids.parse(getattr(child, "custom_id", None) or "")
            if parsed is not None and parsed.prefix == "p" and parsed.game == game_id:
                return True
    return False


def replay_screen(
    row: GameRow,
    seats: list,
    moves: list[tuple[int, int, str]],
    step: int,
    notes: dict[int, dict[str, list[str]]] | None = None,
) -> Screen:
    """The table as everyone saw it after ``step`` moves, rebuilt by replaying the move log:
    the public view and the public lines of that move (with the bot's own, such as a
    timeout, stored with it), nothing private."""
    hosted = GAMES[row.kind]
    names = {str(s.user_id): safe_name(s.name) for s in seats}
    players = [str(s.user_id) for s in seats]
    game = engine.new_game(row.kind, players, row.seed, row.options)
    step = max(0, min(step, len(moves)))
    said: list[str] = [f"The game begins with {len(players)} players."]
    for seq, user, action in moves[:step]:
        added = (notes or {}).get(seq, {})
        said = [
            *added.get("before", []),
            *(e.public for e in game.apply(str(user), action) if e.public),
            *added.get("after", []),
        ]
    embed = hosted.renderer.table_embed(game.view(None), names, said, row.id)
    embed.title = f"🎞️ Replay of game #{row.id} — {hosted.title}"
    embed.footer = f"Move {step} of {len(moves)}"
    last = len(moves)
    # A word on each button: a screen reader reads a bare arrow by its emoji name ("play
    # button"), which does not say which way it steps.
    rows: list[Row] = [
        [
            Button("First", ids.replay(row.id, 0, 0), emoji="⏮️", disabled=step == 0),
            Button("Back", ids.replay(row.id, max(0, step - 1), 1), emoji="◀️", disabled=step == 0),
            Button(
                "Next",
                ids.replay(row.id, min(last, step + 1), 2),
                emoji="▶️",
                disabled=step == last,
            ),
            Button("Last", ids.replay(row.id, last, 3), emoji="⏭️", disabled=step == last),
        ]
    ]
    return Screen(embed=embed, rows=rows)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Stats(bot))
