"""A soak: games at once, seeded random messy steps, invariants checked after every step.

Found nothing when it was written (a bug hunt of interleavings); kept as a guard over many
of them at once. A failure prints the steps taken, to be turned into a short test."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from simcord.backend.errors import SetupError

import engine
from cogs import ids, show
from cogs.render.spec import Select
from tests.discord.driver import Table, controls, message_text, pick_choice, target_of
from tests.discord.restarts import graceful_restart

SETUPS = [
    ("uno", 3, {"bots": 1, "turn_timer": 60, "target": 30}),
    ("ihaveit", 3, {}),
    ("warofsuits", 2, {"turn_timer": 45}),
    ("itemcollection", 3, {"bots": 1}),
    ("haymaker", 2, {"turn_timer": 30}),
]


def norm(custom_id: str) -> str:
    parts = custom_id.split(":", 3)
    if parts[0] in ("g", "s", "k") and len(parts) >= 3:
        parts[2] = "V"
    return ":".join(parts)


def screen_ids(screen: Any) -> set[str]:
    out = set()
    for row in screen.rows:
        if isinstance(row, Select):
            out.add(row.custom_id)
        else:
            out |= {b.custom_id for b in row}
    return out


class Chaos:
    def __init__(self, env: Any, make_bot: Any, rng: random.Random) -> None:
        self.env = env
        self.make_bot = make_bot
        self.rng = rng
        self.tables: list[Table] = []
        self.old: list[tuple[Any, Any]] = []  # (message, clicker) seen before
        self.log: list[str] = []
        self.answers: list[tuple[str, Any]] = []
        self.errors_at = 0

    async def setup(self, kinds: list[int] | None = None) -> None:
        for i, (kind, n, opts) in enumerate(SETUPS):
            if kinds is not None and i not in kinds:
                continue
            t = await Table.start(self.env, kind, n, channel_name=f"c{i}", seed=100 + i, **opts)
            self.tables.append(t)
        self.errors_at = len(self.env.errors)

    # -- steps ---------------------------------------------------------------------------
    async def live(self) -> list[Table]:
        out = []
        for t in self.tables:
            row = await self.env.bot.store.get_game(t.game_id)
            if row is not None and row.status == "active":
                out.append(t)
        return out

    def note(self, what: str, result: Any = None) -> None:
        self.log.append(what)
        if result is not None:
            self.answers.append((what, result))

    async def step(self) -> None:
        rng = self.rng
        live = await self.live()
        kind = rng.choices(
            [
                "move",
                "stale",
                "double",
                "time",
                "leave",
                "back",
                "kick",
                "end",
                "restart",
                "hand",
            ],
            [30, 8, 6, 10, 5, 6, 2, 0.5, 2, 3],
        )[0]
        if not live:
            kind = "time"
        t = rng.choice(live) if live else None
        if kind == "move":
            await self.move(t)
        elif kind == "stale" and self.old:
            message, clicker = rng.choice(self.old[-30:])
            ctl = [c for c in controls(message) if c.kind == "button" and not c.disabled]
            if ctl:
                c = rng.choice(ctl)
                self.note(f"stale click {c.custom_id} by {clicker}")
                try:
                    r = await clicker.click(message, custom_id=c.custom_id)
                except SetupError:
                    return
                self.answers.append((f"stale {c.custom_id}", r))
        elif kind == "double":
            await self.double(t)
        elif kind == "time":
            s = rng.choice([1, 5, 20, 31, 61, 200])
            self.note(f"advance {s}")
            await self.env.advance_time(s)
        elif kind == "leave":
            p = rng.choice(list(t.members))
            self.note(f"leave {t.game_id} {p}")
            r = await t.members[p].slash(t.channel, "leave")
            self.answers.append(("leave", r))
            if r.response is not None and controls(r.response):
                r2 = await t.members[p].click(r.response, label="Leave the game")
                self.answers.append(("leave yes", r2))
        elif kind == "back":
            p = rng.choice(list(t.members))
            self.note(f"back {t.game_id} {p}")
            r = await t.members[p].slash(t.channel, "back")
            self.answers.append(("back", r))
        elif kind == "kick":
            host = next(iter(t.members.values()))
            p = rng.choice(list(t.members)[1:])
            self.note(f"kick {t.game_id} {p}")
            r = await host.slash(t.channel, "kick", member=t.members[p])
            self.answers.append(("kick", r))
        elif kind == "end":
            host = next(iter(t.members.values()))
            self.note(f"endgame {t.game_id}")
            r = await host.slash(t.channel, "endgame")
            self.answers.append(("endgame", r))
        elif kind == "restart":
            self.note("restart")
            await graceful_restart(self.env, self.make_bot, down=rng.choice([0, 5]))
        elif kind == "hand":
            p = rng.choice(list(t.members))
            self.note(f"my hand {t.game_id} {p}")
            msg = t.table_message()
            r = await t.members[p].click(msg, custom_id=ids.hand(t.game_id))
            self.answers.append(("hand", r))
            if r.response is not None:
                self.old.append((r.response, t.members[p]))

    async def move(self, t: Table) -> None:
        rng = self.rng
        session = await t.session()
        game = session.game
        able = [
            p
            for p in game.actors()
            if game.legal_actions(p) and p in t.members and not session.seat(int(p)).is_bot
        ]
        if not able:
            self.note(f"nobody able in {t.game_id}")
            return
        player = rng.choice(able)
        legal = game.legal_actions(player)
        purposeful = [a for a in legal if a.id.split(":")[0] in ("play", "uno", "color", "accept")]
        action = rng.choice(purposeful if purposeful and rng.random() < 0.85 else legal)
        aid = action.id if action.pick is None else pick_choice(game, player, action, rng)
        seat = session.seat(int(player))
        ways = ["picker", "table"]
        if not seat.dm_closed and t.dm_message(player) is not None:
            ways.append("dm")
        if session.hosted.renderer.is_table_only(aid):
            ways = ["table"]
        via = rng.choice(ways)
        self.note(f"move {t.game_id} {player} {aid} via {via}")
        # remember the surfaces as they are now, for stale clicks later
        if rng.random() < 0.5:
            # some player opens a picker now and may click it later (stale)
            who = rng.choice(list(t.members))
            tm = t.table_message()
            play = next(c for c in controls(tm) if target_of(c.custom_id) == ids.ROOT)
            r = await t.members[who].click(tm, custom_id=play.custom_id)
            self.answers.append(("open picker", r))
            if r.response is not None:
                self.old.append((r.response, t.members[who]))
        r = await t.act(player, aid, via=via)
        self.answers.append((f"move {aid}", r))

    async def double(self, t: Table) -> None:
        """The same move clicked on two surfaces: the table, then a picker opened before."""
        session = await t.session()
        game = session.game
        msg = t.table_message()
        for c in controls(msg):
            tgt = target_of(c.custom_id)
            if tgt is None or tgt == ids.ROOT:
                continue
            for p in game.actors():
                if p in t.members and any(a.id == tgt for a in game.legal_actions(p)):
                    member = t.members[p]
                    play = next(c for c in controls(msg) if target_of(c.custom_id) == ids.ROOT)
                    opened = await member.click(msg, custom_id=play.custom_id)
                    self.note(f"double {t.game_id} {p} {tgt}")
                    r1 = await member.click(msg, custom_id=c.custom_id)
                    self.answers.append(("double1", r1))
                    picker = opened.response
                    for pc in controls(picker):
                        if target_of(pc.custom_id) == tgt:
                            r2 = await member.click(picker, custom_id=pc.custom_id)
                            self.answers.append(("double2", r2))
                    return

    # -- invariants ----------------------------------------------------------------------
    async def check(self) -> None:
        env = self.env
        bot = env.bot
        await bot.presenter.idle()
        new_errors = env.errors[self.errors_at :]
        assert not new_errors, f"errors: {new_errors!r}"
        for what, r in self.answers:
            text = ""
            if r.response is not None:
                text = message_text(r.response) if hasattr(r.response, "components") else ""
            for f in getattr(r, "followups", []) or []:
                text += message_text(f)
            assert "Something went wrong" not in text, (what, text)
        self.answers.clear()
        for t in self.tables:
            row = await bot.store.get_game(t.game_id)
            posts = [m for m in t.public_messages() if f"game #{t.game_id} (" in (m.content or "")]
            assert len(posts) <= 1, f"game {t.game_id} end posted {len(posts)} times"
            if row is None or row.status != "active":
                continue
            session = await t.session()
            stored = engine.load(json.loads(json.dumps(row.state)))
            assert row.version == session.version
            assert stored.to_dict() == session.game.to_dict(), "memory differs from the store"
            game = session.game
            able = [p for p in game.actors() if game.legal_actions(p)]
            humans = [p for p in able if not session.seat(int(p)).is_bot]
            assert able, f"game {t.game_id}: nobody can act"
            if not humans:
                assert row.wake_at is not None, f"game {t.game_id}: only bots and no clock"
            waiting = {v[1][0].id for v in bot.presenter._waiting.values()}
            if t.game_id in waiting:
                continue  # a failed edit waits for its retry
            table_msg = t.table_message()
            shown = {c.custom_id for c in controls(table_msg)}
            expected = screen_ids(show.table(session))
            assert shown == expected, (
                f"game {t.game_id} table: shown {sorted(shown)} expected {sorted(expected)}"
            )
            want = show.table(session)
            assert (table_msg.content or None) == (want.content or None), (
                f"game {t.game_id} table says {table_msg.content!r}, should {want.content!r}"
            )
            if want.embed is not None:
                got_desc = table_msg.embeds[0].description if table_msg.embeds else None
                got_desc = re.sub(r"<t:\d+:R>", "<t>", got_desc or "")
                want_desc = re.sub(r"<t:\d+:R>", "<t>", want.embed.description or "")
                assert got_desc == want_desc, (
                    f"game {t.game_id} table embed differs:\n{got_desc}\n---\n{want_desc}"
                )
            for p in t.members:
                seat = session.seat(int(p))
                if seat.dm_closed or seat.away == "kicked":
                    continue
                dm = t.dm_message(p)
                if dm is None:
                    continue
                got = {norm(c.custom_id) for c in controls(dm)}
                play = norm(ids.act(t.game_id, 0, ids.ROOT))
                if show.acting(session, int(p)) and play not in got:
                    # Drawn with moves, they are the moves open now (drawn between turns,
                    # it offers Play, which opens them).
                    want = {norm(c) for c in screen_ids(show.hand(session, int(p), dm=True))}
                    assert want == got, f"game {t.game_id}: {p} DM shows {got}, should {want}"
                elif not show.acting(session, int(p)) and seat.away is None:
                    moves = {c for c in got if c.startswith("g:") and c != play}
                    assert not moves, f"game {t.game_id}: {p} DM offers moves not open: {moves}"
                hand = game.view(p)["hand"]
                assert f"({len(hand)} card" in message_text(dm) or not hand, (
                    f"game {t.game_id}: {p} DM does not show {len(hand)} cards"
                )
            await t.assert_no_secrets()


async def test_soak(simcord_env, make_bot, caplog) -> None:
    """Two games at once (UNO with a bot and a turn timer, Item Collection with a bot), 12
    seeded random steps among moves through every surface, stale pickers, a move clicked
    twice, time passing, /leave, /back, /kick, /endgame and a restart; after each: the
    stored game equals the one in memory, someone can act, the table and each DM show the
    game as it is, nothing secret in public, no "Something went wrong", an end posted at
    most once. (Passes: kept as a guard over many interleavings at once.)"""
    chaos = Chaos(simcord_env, make_bot, random.Random(1000))
    await chaos.setup(kinds=[0, 3])
    for i in range(12):
        try:
            await chaos.step()
            await chaos.check()
        except Exception as e:
            errs = [r.getMessage()[-1500:] for r in caplog.records if r.levelno >= 30]
            raise AssertionError(
                f"step {i}: {type(e).__name__} {e}\n"
                + "\n".join(chaos.log)
                + "\nLOGS:\n"
                + "\n".join(errs[-3:])
            ) from e
