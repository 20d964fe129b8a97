"""UNO on Discord: the lobby, refusals, closed DMs, restarts, big hands and old tables."""

from __future__ import annotations

import secrets

import discord

import engine
from cogs import ids
from db import StoreUnavailable
from tests.discord.driver import Table, controls, message_text, target_of


async def current_player(table: Table) -> str:
    game = await table.game()
    return next(p for p in game.actors() if game.legal_actions(p))


async def past_first_colour(table: Table) -> None:
    """Deals are random: if the first discard is a wild, its colour is picked first."""
    game = await table.game()
    for player in game.actors():
        colour = next((a.id for a in game.legal_actions(player) if a.id.startswith("color:")), None)
        if colour is not None:
            await table.act(player, colour, via="table")
            return


async def a_move(table: Table, player: str) -> str:
    game = await table.game()
    legal = game.legal_actions(player)
    plays = [a.id for a in legal if a.id.startswith("play:")]
    return plays[0] if plays else legal[0].id


# -- lobby ---------------------------------------------------------------------------------


async def test_lobby_join_leave_start_rules(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("uno")
    ann, bea, cy = (guild.add_member(simcord_env.create_user(n)) for n in ("ann", "bea", "cy"))
    await ann.slash(channel, "newgame uno", target=200, jump_in=True)
    lobby = channel.last_message
    text = message_text(lobby)
    assert "ann" in text and "target: **200**" in text and "jump_in: **on**" in text

    # Start needs two players: the button is disabled, the host alone cannot start.
    start = next(c for c in controls(lobby) if c.label == "Start")
    assert start.disabled

    result = await bea.click(lobby, label="Join")
    assert "bea" in message_text(channel.last_message)
    again = await bea.click(channel.last_message, label="Join")
    assert again.ephemeral and "already in" in again.response.content

    not_host = await bea.click(channel.last_message, label="Start")
    assert not_host.ephemeral and "Only the host" in not_host.response.content

    stranger = await cy.click(channel.last_message, label="Leave")
    assert stranger.ephemeral and "not in this game" in stranger.response.content
    host_leaves = await ann.click(channel.last_message, label="Leave")
    assert host_leaves.ephemeral and "Cancel" in host_leaves.response.content

    result = await bea.click(channel.last_message, label="Leave")
    lobby = channel.last_message
    assert not result.ephemeral and "bea" not in message_text(lobby)

    # One game per channel.
    busy = await cy.slash(channel, "newgame haymaker")
    assert busy.ephemeral and "already has a game" in busy.response.content

    cancelled = await ann.click(lobby, label="Cancel")
    assert not cancelled.ephemeral and "Cancelled by ann" in message_text(channel.last_message)
    late = await bea.click(lobby, label="Join") if controls(channel.last_message) else None
    assert late is None  # no buttons left on a closed lobby
    # The channel is free again.
    fresh = await cy.slash(channel, "newgame haymaker")
    assert not fresh.ephemeral


async def test_lobby_is_full_at_max_players(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("duel")
    ann, bea, cy = (guild.add_member(simcord_env.create_user(n)) for n in ("ann", "bea", "cy"))
    await ann.slash(channel, "newgame haymaker")
    await bea.click(channel.last_message, label="Join")
    lobby = channel.last_message
    join = next(c for c in controls(lobby) if c.label == "Join")
    add_bot = next(c for c in controls(lobby) if c.label == "Add bot")
    assert join.disabled and add_bot.disabled  # full: nobody can press them
    assert cy.id not in [s.user_id for s in await simcord_env.bot.store.seats(1)]


async def test_bad_options_get_a_clear_error(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("uno")
    ann = guild.add_member(simcord_env.create_user("ann"))
    bad = await ann.slash(channel, "newgame uno", custom_wilds=2, custom_rules="1,9")
    assert bad.ephemeral and "custom_rules" in bad.response.content
    # Each game's /newgame offers exactly its own options: Haymaker has no target.
    haymaker = simcord_env.bot.tree.get_command("newgame").get_command("haymaker")
    assert "target" not in [p.name for p in haymaker.parameters]
    assert await simcord_env.bot.store.open_game_in_channel(channel.id) is None


async def test_leave_command_in_a_lobby(simcord_env) -> None:
    """/leave in a lobby: the same refusals as its Leave button; the lobby message is redrawn
    after the game's lock (no Discord call holds up a Join or a Start)."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("uno")
    ann, bea, cy = (guild.add_member(simcord_env.create_user(n)) for n in ("ann", "bea", "cy"))
    await ann.slash(channel, "newgame uno")
    lobby = channel.last_message
    await bea.click(lobby, label="Join")
    stranger = await cy.slash(channel, "leave")
    assert stranger.ephemeral and "not in this game" in stranger.response.content
    host = await ann.slash(channel, "leave")
    assert host.ephemeral and "Cancel" in host.response.content
    left = await bea.slash(channel, "leave")
    assert left.ephemeral and "You left the lobby" in left.response.content
    await simcord_env.bot.presenter.idle()
    lobby = next(m for m in channel.history() if m.id == lobby.id)
    assert "bea" not in message_text(lobby) and "ann" in message_text(lobby)
    session = await simcord_env.bot.sessions.get(1)
    assert [s.user_id for s in session.seats] == [ann.id]


async def test_abandoned_lobby_expires(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("uno")
    ann = guild.add_member(simcord_env.create_user("ann"))
    await ann.slash(channel, "newgame uno")
    await simcord_env.advance_time(34 * 60)  # checked every 3 minutes (a tenth of 30)
    lobby = channel.history()[0]
    assert "expired" in message_text(lobby) and controls(lobby) == []
    assert await simcord_env.bot.store.open_game_in_channel(channel.id) is None


async def test_lobby_expiry_goes_on_after_a_database_error(simcord_env) -> None:
    """Before: one error in the check (a locked or unreachable database) ended discord.py's
    loop for good, and abandoned lobbies held their channels until a restart."""
    guild = simcord_env.create_guild()
    ann = guild.add_member(simcord_env.create_user("ann"))
    channels = [guild.create_text_channel(name) for name in ("one", "two")]
    for channel in channels:
        await ann.slash(channel, "newgame uno")
    store = simcord_env.bot.store
    stale_lobbies, end_game = store.stale_lobbies, store.end_game
    failures = {"stale": 1, "end": 1}

    async def failing_stale(cutoff):  # type: ignore[no-untyped-def]
        if failures["stale"]:
            failures["stale"] -= 1
            raise StoreUnavailable("the database is locked")
        return await stale_lobbies(cutoff)

    async def failing_end(game_id, reason):  # type: ignore[no-untyped-def]
        if failures["end"]:
            failures["end"] -= 1
            raise StoreUnavailable("the database is locked")
        return await end_game(game_id, reason)

    store.stale_lobbies, store.end_game = failing_stale, failing_end
    await simcord_env.advance_time(3 * 60)  # the first check (every 3 minutes) fails
    assert failures["stale"] == 0
    await simcord_env.advance_time(31 * 60)  # the first after the timeout: one lobby fails
    assert failures["end"] == 0
    expired = [c for c in channels if "expired" in message_text(c.history()[0])]
    assert len(expired) == 1
    await simcord_env.advance_time(3 * 60)  # and the one after: the last one too
    for channel in channels:
        assert "expired" in message_text(channel.history()[0])
        assert await store.open_game_in_channel(channel.id) is None


# -- refusals --------------------------------------------------------------------------------


async def test_out_of_turn_non_player_stale_and_double_clicks(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 3)
    guild = table.channel.guild
    outsider = guild.add_member(simcord_env.create_user("zed"))
    session = await table.session()
    version = session.version
    message = table.table_message()

    # A non-player pressing "Play a card" or "My hand" is told so, privately.
    play = next(c for c in controls(message) if target_of(c.custom_id) == ids.ROOT)
    result = await outsider.click(message, custom_id=play.custom_id)
    assert result.ephemeral and "not playing" in result.response.content
    result = await outsider.click(message, custom_id=ids.hand(table.game_id))
    assert result.ephemeral and "not playing" in result.response.content

    # Someone whose turn it is not gets their hand and "nothing to do" (no move buttons).
    player = await current_player(table)
    game = await table.game()
    idle = next(p for p in game.players if p not in game.actors())
    result = await table.members[idle].click(message, custom_id=play.custom_id)
    assert result.ephemeral and "Nothing for you to do" in result.response.embeds[0].description
    assert [c.label for c in controls(result.response)] == ["Leave game"]  # no moves

    # A double click: the player opened the picker twice and clicks the move in both.
    mover = table.members[player]
    first = await mover.click(message, custom_id=play.custom_id)
    second = await mover.click(message, custom_id=play.custom_id)
    legal = {a.id for a in (await table.game()).legal_actions(player)}
    button = next(c for c in controls(first.response) if target_of(c.custom_id) in legal)
    await mover.click(first.response, custom_id=button.custom_id)
    assert (await table.session()).version == version + 1
    state = (await table.game()).to_dict()
    again = await mover.click(second.response, custom_id=button.custom_id)
    assert "out of date" in (again.response.content or "")
    assert (await table.session()).version == version + 1
    assert (await table.game()).to_dict() == state
    # The refused picker now shows the game as it stands, with current buttons.
    assert all(f":{version + 1}:" in c.custom_id for c in controls(again.response))


async def test_a_move_that_is_not_allowed_is_refused_privately(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2)
    await past_first_colour(table)
    session = await table.session()
    player = await current_player(table)
    other = next(p for p in session.names if p != player)
    state = (await table.game()).to_dict()
    # Forge a click on a current-version button the other player may not use.
    member = table.members[other]
    message = table.table_message()
    draw = next(c for c in controls(message) if target_of(c.custom_id) == "draw")
    result = await member.click(message, custom_id=draw.custom_id)
    assert result.ephemeral and "not your turn" in result.response.content.lower()
    assert (await table.game()).to_dict() == state


# -- DMs -------------------------------------------------------------------------------------


async def test_closed_dms_never_stall_the_game(simcord_env, monkeypatch) -> None:
    # A pinned deal (/newgame draws it as secrets.randbits(63)): on some deals the plain moves
    # below end the game or reach an UNO catch before the end of the test.
    draw = secrets.randbits
    monkeypatch.setattr(secrets, "randbits", lambda bits: 1 if bits == 63 else draw(bits))
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("uno")
    ann, bea = (guild.add_member(simcord_env.create_user(n)) for n in ("ann", "bea"))
    dm = bea.user.dm_channel
    simcord_env.inject_error(
        "POST", f"/channels/{dm.id}/messages", status=403, code=50007, times=None
    )
    await ann.slash(channel, "newgame uno", target=50)
    await bea.click(channel.last_message, label="Join")
    await ann.click(channel.last_message, label="Start")
    notices = [m for m in channel.history() if "can't send you direct messages" in m.content]
    assert len(notices) == 1 and bea.mention in notices[0].content
    table = Table(simcord_env, channel, [ann, bea], game_id=1)
    seat = (await table.session()).seat(bea.id)
    assert seat is not None and seat.dm_closed
    # Bea plays through "My hand"; the game goes on and she is not told twice.
    for _ in range(12):
        game = await table.game()
        if game.finished:
            break
        player = await current_player(table)
        await table.act(player, await a_move(table, player), via="picker")
    notices = [m for m in channel.history() if "can't send you direct messages" in m.content]
    assert len(notices) == 1
    hand = await bea.click(table.table_message(), custom_id=ids.hand(table.game_id))
    assert hand.ephemeral and "Your hand" in hand.response.embeds[0].description


async def test_dm_is_edited_in_place_and_playable(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2)
    for _ in range(6):
        player = await current_player(table)
        await table.act(player, await a_move(table, player), via="dm")
    for player in table.members:
        dms = [m for m in table.members[player].user.dm_channel.history()]
        assert len(dms) == 1, "one DM per game, edited in place"
        hand = (await table.game()).view(player)["hand"]
        assert f"({len(hand)} card" in dms[0].embeds[0].description


async def test_a_dm_never_keeps_an_untrue_line_about_whose_turn_it_is(simcord_env) -> None:
    """A DM is not edited when others move, so while it is not their turn it says nothing
    about whose turn it is (before: "Alice to play…" stayed after she played), and a DM
    showing moves is redrawn once they are not its owner's any more. Between turns it
    offers Play, which opens the moves when the turn comes."""
    table = await Table.start(simcord_env, "uno", 3, seed=4)
    await past_first_colour(table)
    for _ in range(8):
        mover = await current_player(table)
        await table.act(mover, await a_move(table, mover), via="table")
        game = await table.game()
        acting = {p for p in game.actors() if game.legal_actions(p)}
        for player in table.members:
            text = message_text(table.dm_message(player))
            assert " to play" not in text, text
            if "Your turn" in text or "**Your move:**" in text:
                assert player in acting, f"{player}'s DM offers moves not open to them: {text}"
            else:
                assert "When it's your turn, press **Play a card**" in text, text


# -- restarts --------------------------------------------------------------------------------


async def test_restart_mid_game_old_buttons_still_work(simcord_env, make_bot) -> None:
    table = await Table.start(simcord_env, "uno", 3)
    for _ in range(3):
        player = await current_player(table)
        await table.act(player, await a_move(table, player))
    before = (await table.game()).to_dict()
    version = (await table.session()).version
    old_table = table.table_message()

    await simcord_env.restart_bot(make_bot())
    assert (await table.game()).to_dict() == before, "the game loads exactly as it was"

    player = await current_player(table)
    play = next(c for c in controls(old_table) if target_of(c.custom_id) == ids.ROOT)
    picker = await table.members[player].click(old_table, custom_id=play.custom_id)
    assert picker.ephemeral and controls(picker.response)
    await table.act(player, await a_move(table, player), via="dm")
    assert (await table.session()).version == version + 1


# -- big hands and old tables ------------------------------------------------------------------


async def test_more_than_25_choices_become_menus(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2, swap_hands=True, custom_wilds=3)
    await past_first_colour(table)
    session = await table.session()
    game = await table.game()
    player = await current_player(table)
    view = game.view()
    # Test setup, not play: a 58-card hand with every coloured card and every kind of wild
    # (UNO's saved state keeps hands under "h" as text): the colour in play, the top
    # card's value in the other colours and six wilds make more than 20 distinct plays.
    hand = [c + v for c in "RYGB" for v in (*"0123456789", "S", "R", "D2")]
    hand += ["W", "W4", "WS", *view["custom_rules"]]
    state = game.to_dict()
    seat = game.players.index(player)
    state["state"]["h"][seat] = " ".join(hand)
    if view["top"].startswith("W"):
        # A wild on top matches only its colour: put a coloured card of that colour on top
        # (the discard pile is "x", top card last) so other colours' same value count too.
        state["state"]["x"] += f" {state['state']['c']}5"
    session.game = engine.load(state)
    legal = session.game.legal_actions(player)
    choices = {":".join(a.id.split(":")[:2]) for a in legal}
    assert len(choices) > 20, sorted(choices)

    message = table.table_message()
    play = next(c for c in controls(message) if target_of(c.custom_id) == ids.ROOT)
    picker = await table.members[player].click(message, custom_id=play.custom_id)
    menus = [c for c in controls(picker.response) if c.kind == "select"]
    assert menus, "more than 20 choices are offered as menus"
    offered = {v for menu in menus for v in menu.values}
    assert offered == choices  # every legal choice is reachable, none is lost
    assert all(len(menu.values) <= 25 for menu in menus)
    # Choosing from a menu works, including a wild's colour step.
    move = next((a.id for a in legal if a.id.startswith("play:W:")), legal[0].id)
    await table.act(player, move, via="picker")
    assert (await table.session()).version == session.version


async def test_old_table_is_reposted(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2)
    first = table.table_message()
    await simcord_env.advance_time(55 * 60)
    player = await current_player(table)
    await table.act(player, await a_move(table, player), via="dm")
    await table.session()
    newest = table.table_message()
    assert newest.id != first.id
    old = next(m for m in table.channel.history() if m.id == first.id)
    assert "moved down" in old.content and controls(old) == []


# -- /endgame, /games, /rules, /hand ------------------------------------------------------------


async def test_endgame_permissions(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2)
    guild = table.channel.guild
    host, other = list(table.members.values())
    refused = await other.slash(table.channel, "endgame")
    assert refused.ephemeral and "Only the host" in refused.response.content
    manager_role = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    manager = guild.add_member(simcord_env.create_user("mod"), roles=[manager_role])
    ended = await manager.slash(table.channel, "endgame")
    assert not ended.ephemeral and "ended by mod" in ended.response.content
    session = await table.session()
    assert session.row.status == "cancelled"
    assert controls(table.table_message()) == []
    for player in table.members:  # the DMs keep the hand but lose their buttons
        dm = table.dm_message(player)
        assert dm is not None and controls(dm) == []
        assert "ended early" in dm.embeds[0].description
    again = await host.slash(table.channel, "endgame")
    assert again.ephemeral and "no game" in again.response.content
    # Like every ended game's post, the notice offers Play again to the game's players.
    notice = next(m for m in table.public_messages() if "ended by mod" in (m.content or ""))
    rematch = await other.click(notice, label="Play again")
    assert not rematch.ephemeral
    row = await table.bot.store.open_game_in_channel(table.channel.id)
    assert row is not None and row.status == "lobby" and row.host_id == other.id


async def test_host_can_end_and_games_rules_hand(simcord_env) -> None:
    table = await Table.start(simcord_env, "uno", 2)
    host = next(iter(table.members.values()))
    listed = await host.slash(table.channel, "games")
    assert listed.ephemeral and "UNO" in listed.response.embeds[0].description
    rules = await host.slash(table.channel, "rules", game="uno")
    assert rules.ephemeral and "Wild Draw Four" in message_text(rules.response.message)
    hand = await host.slash(table.channel, "hand")
    assert hand.ephemeral and "Your hand" in hand.response.embeds[0].description
    ended = await host.slash(table.channel, "endgame")
    assert not ended.ephemeral
    none = await host.slash(table.channel, "hand")
    assert none.ephemeral and "no game" in none.response.content


async def test_games_in_several_channels_at_once(simcord_env) -> None:
    first = await Table.start(simcord_env, "uno", 2, channel_name="one")
    second = await Table.start(simcord_env, "uno", 3, channel_name="two")
    assert first.game_id != second.game_id
    for table in (first, second, first):
        player = await current_player(table)
        await table.act(player, await a_move(table, player))
    assert (await first.session()).version == 2
    assert (await second.session()).version == 1
    member = next(iter(second.members.values()))
    listed = await member.slash(second.channel, "games")
    text = listed.response.embeds[0].description
    assert f"<#{first.channel.id}>" in text and f"<#{second.channel.id}>" in text
