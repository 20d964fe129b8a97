"""Helpers the card games' Discord tests share: a table dealt from a fixed seed, its texts,
and the check that no public message gives a secret card away."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterable, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from engine.cards import label
from tests.discord.driver import Table, controls, message_text, open_picker


async def start_with_lobby_seed(
    env: Any, monkeypatch: pytest.MonkeyPatch, kind: str, players: int, seed: int
) -> Table:
    """A ``kind`` table of ``players`` whose lobby draws ``seed`` for every random number."""
    # The bot loaded its lobby cog as an extension: patch that module object.
    lobby = sys.modules["cogs.lobby"]
    monkeypatch.setattr(lobby, "secrets", SimpleNamespace(randbits=lambda bits: seed))
    return await Table.start(env, kind, players)


async def start_with_deal_seed(
    env: Any, monkeypatch: pytest.MonkeyPatch, kind: str, players: int, seed: int
) -> Table:
    """A ``kind`` table of ``players`` dealt from ``seed`` (for the rest of the test)."""
    draw = secrets.randbits
    # /newgame draws the deal's seed as secrets.randbits(63); other draws stay random.
    monkeypatch.setattr(secrets, "randbits", lambda bits: seed if bits == 63 else draw(bits))
    return await Table.start(env, kind, players)


async def hand(table: Table, player: str) -> list[str]:
    return list((await table.game()).view(player)["hand"])


def table_text(table: Table) -> str:
    return message_text(table.table_message())


def table_buttons(table: Table) -> list[str]:
    return [c.label for c in controls(table.table_message())]


def dm_text(table: Table, player: str) -> str:
    message = table.dm_message(player)
    assert message is not None, "every player has a DM hand"
    return message_text(message)


def bot_messages(table: Table) -> list[Any]:
    return [m for m in table.public_messages() if m.author.id == table.bot.user.id]


async def picker_labels(table: Table, player: str) -> list[str]:
    """What ``player`` is offered in the private picker the table's first button opens."""
    return [c.label for c in controls(await open_picker(table, player))]


def assert_cards_unshown(
    messages: Iterable[Any], hidden: Iterable[str], private: Sequence[str], id_end: str = ""
) -> None:
    """No message shows a ``private`` phrase or names a ``hidden`` card, and none has a
    control whose custom id ends with ``id_end`` and a hidden card."""
    hidden = list(hidden)
    for message in messages:
        text = message_text(message)
        for secret in private:
            assert secret not in text, f"{secret!r} in public: {text}"
        for card in hidden:
            assert label(card) not in text, f"{label(card)} is secret but shown in public"
        for control in controls(message):
            assert not any(control.custom_id.endswith(f"{id_end}{card}") for card in hidden)
