"""What colour-blind, screen-reader and phone players read: words beside every emoji, labels
cut only where Discord cuts them, the newest log line kept, and DMs that say where they play.

Each docstring tells what players saw before the fix; the assertions are what they see now."""

from __future__ import annotations

import re

import pytest

from cogs import ids
from tests.discord.driver import Table, controls, start_named, target_of
from tests.discord.test_stats import finished_game

# What players read: the same on either database, so drawn on one (the suite's habit).
pytestmark = pytest.mark.parametrize("database", ["sqlite"], indirect=True)

FACE = re.compile(r"<a?:\w+:\d+>")


# -- /replay: buttons that are only symbols ---------------------------------------------------


async def test_replay_step_buttons_have_words(simcord_env) -> None:
    """/replay's four step buttons are labelled only "⏮", "◀", "▶" and "⏭". A screen reader
    announces them by their emoji names ("last track button", "reverse button", "play
    button", "next track button"), which do not say "first move", "previous move", "next
    move", "last move"; a player who cannot see the arrows cannot tell them apart. Each
    button should carry a word ("First", "Back", "Next", "Last"), with or without its
    arrow."""
    guild = simcord_env.guild if simcord_env._guilds else simcord_env.create_guild()
    channel = guild.create_text_channel("history")
    ann = guild.add_member(simcord_env.create_user("ann"))
    bea = guild.add_member(simcord_env.create_user("bea"))
    game_id = await finished_game(simcord_env.bot, guild.id, channel.id, ann.id, bea.id)
    replay = await ann.slash(channel, "replay", game=game_id)
    assert replay.ephemeral and replay.response.embeds, replay.response.content
    buttons = [c for c in controls(replay.response) if c.kind == "button"]
    assert len(buttons) == 4, buttons
    wordless = [b.label for b in buttons if not re.search(r"[A-Za-z]", b.label)]
    assert not wordless, f"replay buttons with no word on them: {wordless}"


# -- DMs: which server, which channel ------------------------------------------------------------


async def test_dm_hand_names_its_server_and_channel(simcord_env) -> None:
    """A member plays UNO in two servers at once. Each DM hand says only "Your hand for game
    #1 (UNO) · table" and "Game #1": nothing says which server or channel the game is in (the
    link is masked as "table", and on a phone there is no hover to see where it goes), so
    the player cannot tell which of their two UNO hands belongs to which table without
    opening the link. The DM should name the server and the channel (a channel mention or
    its name), as the ephemeral "My hand" does with "Game #1 in #channel"."""
    env = simcord_env
    alpha = env.create_guild("Alpha Cafe")
    beta = env.create_guild("Beta Lounge")
    both = env.create_user("sam")
    tables = []
    for guild, other, room in ((alpha, "ann", "uno-alpha"), (beta, "bea", "uno-beta")):
        channel = guild.create_text_channel(room)
        sam = guild.add_member(both)
        rival = guild.add_member(env.create_user(f"{other}-{room}"))
        opened = await sam.slash(channel, "newgame uno", turn_timer=0)
        assert not opened.ephemeral, opened.response and opened.response.content
        lobby = channel.last_message
        await rival.click(lobby, label="Join")
        started = await sam.click(lobby, label="Start")
        assert not started.ephemeral
        game_id = int(lobby.components[0].children[0].custom_id.split(":")[1])
        tables.append((Table(env, channel, [sam, rival], game_id), guild, channel))
    for table, guild, channel in tables:
        dm = table.dm_message(str(both.id))
        assert dm is not None, "no DM hand"
        shown = "\n".join(
            [dm.content or ""]
            + [f"{e.title}\n{e.description}\n{e.footer.text or ''}" for e in dm.embeds]
        )
        assert f"in <#{channel.id}> on {guild.name}" in shown, shown


# -- button labels cut although they fit --------------------------------------------------------


async def test_swap_hands_buttons_keep_opponents_apart(simcord_env) -> None:
    """UNO with Swap Hands: two opponents have 32-character names made of markdown
    characters, differing only at the end ("_*_*…_*Al" and "_*_*…_*Bo"). After choosing the
    Wild Swap Hands and a colour, the buttons to pick whom to swap with are cut at 80
    characters *with the escaping backslashes counted* (64 characters per name), so both
    read "🌈 Wild Swap Hands → 🟥 Red ⇄ _*_*_*_*_*_*_*_*_*_*_*_*_\\…": the same label, with
    a stray backslash, and the player cannot tell whom each swaps with. Unescaped, each label
    (60 characters) fits in 80 whole: it should be shown whole."""
    names = ["ann", "_*" * 15 + "Al", "_*" * 15 + "Bo"]
    table = await start_named(simcord_env, "uno", names, swap_hands=True)
    game = await table.game()
    ann = game.players[0]
    await table.set_state(h=["WS R3 R4", "G1 G2 G3", "B1 B2 B3"], x="R7", c="R", t=0, ph="play")
    member = table.members[ann]
    play = next(c for c in controls(table.table_message()) if target_of(c.custom_id) == ids.ROOT)
    picker = await member.click(table.table_message(), custom_id=play.custom_id)
    message = picker.response
    for step in ("play:WS", "play:WS:R"):
        control = next(c for c in controls(message) if target_of(c.custom_id) == step)
        message = (await member.click(message, custom_id=control.custom_id)).response
    labels = [
        c.label
        for c in controls(message)
        if (t := target_of(c.custom_id)) and t.startswith("play:WS:R:")
    ]
    assert len(labels) == 2, controls(message)
    assert len(set(labels)) == 2, f"both opponents' buttons read the same: {labels}"
    assert not any(label.endswith("\\…") for label in labels), labels


async def test_ihaveit_decline_button_keeps_its_count(simcord_env) -> None:
    """I Have It: the leader is called "_*_*_*_*_*_*_*_*_*_*_*_*_*_*_*_*" (32 characters). The
    public Decline button then reads "Decline (let _*_*_*_*_*_*_*_*_*_*_*_*_*_*_*_* t…": cut
    at 80 characters with the escaping backslashes counted, so it no longer says how many
    cards the decliner gives away. Unescaped the label is 58 characters and fits: it should
    read "Decline (let _*…_* take 1 card)" whole."""
    names = ["_*" * 16, "*_" * 16, "~|" * 16]  # whoever leads has such a name
    table = await start_named(simcord_env, "ihaveit", names)
    await table.some_move(via="picker")
    decline = [c.label for c in controls(table.table_message()) if c.label.startswith("Decline")]
    assert decline, controls(table.table_message())
    assert decline[0].endswith("card)") or decline[0].endswith("cards)"), decline[0]


# -- the table's Recent field loses its newest line ---------------------------------------------


async def test_recent_moves_keep_the_newest_line(simcord_env) -> None:
    """Item Collection with four players whose 32-character names are full of markdown
    characters (each 64 characters once escaped). After a round's reveal the table's
    "Recent" field (six lines) is over 1,024 characters and is cut at its end: the newest
    line, the one that says what just happened ("Round 2: …"), is the one lost, shown as a
    bare "…", while older lines stay. The newest lines should be kept and the oldest dropped
    (as A War of Suits' table already does)."""
    names = ["_*" * 16, "*_" * 16, "~|" * 16, "|~" * 16]
    table = await start_named(simcord_env, "itemcollection", names)
    for _ in range(40):
        game = await table.game()
        view = game.view()
        if view.get("revealed"):
            break
        player = next(p for p in game.actors() if game.legal_actions(p))
        legal = [a.id for a in game.legal_actions(player)]
        choice = next(
            (a for a in legal if a.split(":")[0] in ("ready", "keep")),
            next((a for a in legal if a == "claim:none"), None)
            or next((a for a in legal if a.startswith("place:")), legal[0]),
        )
        await table.act(player, choice, via="table" if choice == "ready" else "picker")
    else:  # pragma: no cover
        raise AssertionError("no reveal in 40 moves")
    session = await table.session()
    embed = table.table_message().embeds[0]
    recent = next(f.value for f in embed.fields if f.name == "Recent")
    newest = session.public_log[-1]
    assert newest.startswith("Round 2:"), newest  # what just happened: a new round
    assert "Round 2:" in recent.splitlines()[-1], recent[-300:]


# -- card faces: runs of emoji with no word --------------------------------------------------


@pytest.mark.parametrize("kind,players", [("ihaveit", 3), ("warofsuits", 2)])
async def test_hand_has_no_line_of_faces_alone(simcord_env, faces_on, kind, players) -> None:
    """With card faces on, the DM hand of I Have It and A War of Suits starts with a line
    made only of custom emoji (one per card, ten in I Have It). A screen reader reads each
    by its emoji name, ":std_10H_v1: :std_QS_v1: …", a run of codes with no word before
    the cards are said in words on the next line. The faces should not stand alone on a
    line of codes (put them beside the words of each card, or give them names that say the
    card), as UNO and Haymaker put words on the same line as their faces."""
    table = await Table.start(simcord_env, kind, players, seed=6)
    game = await table.game()
    player = game.players[0]
    dm = table.dm_message(player)
    assert dm is not None
    lines = dm.embeds[0].description.splitlines()
    alone = [line for line in lines if FACE.search(line) and not FACE.sub("", line).strip()]
    assert not alone, f"a line of faces with no word: {alone[0][:120]}"
