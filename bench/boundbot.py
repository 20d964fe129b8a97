"""The floor plus what issue #8 makes every applied move cost: a bound no bot can beat.

    python tests/fakediscord/run_bot.py <fake_base_url> --module bench.boundbot

The do-nothing bot (`bench/nullbot.py`), plus, for each click the harness marks as an
applied move, the work the issue itself requires of any bot:
- the move stored durably before the answer: an UPDATE of the game's row and an INSERT into
  its log, committed in SQLite with WAL and `synchronous=FULL`, in one trip to a writer
  thread (as the real bot's backend does);
- the table brought up to date: one message edit after the answer (`@original`, the clicked
  message, a stand-in of the same kind of call as a table edit), unless the move was made on
  the table itself (its answer then is the table's edit).

Nothing else: no rules, no rendering (the answer is a deferred update, the edit's text a
copy), no DMs, no reminders. Whatever this bot measures against the floor is the part of the
real bot's gap that the targets leave no room for.

The harness says which clicks are moves: before each replay it writes the replayed messages'
ids to `BOUND_MARKS` (JSON: {message id: "move" | "table"}) and sends SIGUSR1; the bot loads
them and writes their number to `BOUND_MARKS` + ".ok".
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import discord

from bench.nullbot import AnyItem, NullBot

log = logging.getLogger("boundbot")

STATE = "x" * 3000  # about a live game's stored state


class BoundItem(AnyItem, template=r"(?s:.+)"):
    """Whatever was clicked: if it was an applied move, store it durably first; answer with a
    deferred update; then one edit for the table. (The template and parsing: the floor's.)"""

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, BoundBot)
        message = interaction.message
        mark = bot.marks.get(message.id) if message is not None else None
        if mark is not None:
            await bot.store(message.id if message is not None else 0)
        await interaction.response.defer()
        if mark == "move" and message is not None:
            await interaction.edit_original_response(content=message.content or "table")


class BoundBot(NullBot):
    def __init__(self, db_path: str, marks_path: str) -> None:
        super().__init__()
        self.db_path = db_path
        self.marks_path = Path(marks_path)
        self.marks: dict[int, str] = {}
        self.writer = ThreadPoolExecutor(1, thread_name_prefix="writer")
        self.db: sqlite3.Connection | None = None
        self.moves = 0

    async def setup_hook(self) -> None:
        self.add_dynamic_items(BoundItem)
        await asyncio.get_running_loop().run_in_executor(self.writer, self._open)
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, self.load_marks)

    def _open(self) -> None:
        db = sqlite3.connect(self.db_path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA wal_autocheckpoint=0")  # the real bot checkpoints off the path
        db.execute("CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, n INTEGER, state)")
        db.execute("CREATE TABLE IF NOT EXISTS moves (id INTEGER PRIMARY KEY, game, move)")
        db.execute("INSERT OR IGNORE INTO games VALUES (1, 0, ?)", (STATE,))
        self.db = db

    def load_marks(self) -> None:
        self.marks = {int(k): v for k, v in json.loads(self.marks_path.read_text()).items()}
        Path(f"{self.marks_path}.ok").write_text(str(len(self.marks)))

    async def store(self, key: int) -> None:
        self.moves += 1
        move = f"move {key} {self.moves}"
        await asyncio.get_running_loop().run_in_executor(self.writer, self._store, move)

    def _store(self, move: str) -> None:
        assert self.db is not None
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("UPDATE games SET n = n + 1, state = ? WHERE id = 1", (STATE,))
        self.db.execute("INSERT INTO moves (game, move) VALUES (1, ?)", (move,))
        self.db.execute("COMMIT")


def main() -> None:
    level = getattr(logging, os.environ.get("LOG_LEVEL", "INFO").upper(), logging.INFO)
    bot = BoundBot(os.environ["DATABASE_PATH"], os.environ["BOUND_MARKS"])
    bot.run(os.environ["DISCORD_TOKEN"], log_level=level, root_logger=True)


if __name__ == "__main__":
    main()
