"""What a server owner reads on the real bot.py's output at start: never a secret (the
DATABASE_URL password), no traceback for a mistyped setting, no misleading WARNING on an
ordinary start, and the lines that say what the bot is running on.

Each docstring tells what the owner read before the fix; the assertions are what holds now."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fakediscord import FakeDiscord
from tests.process.harness import bot_py_alone, fake_bot_env, spawn_run_bot

LIMIT = 30.0


def run_bot_py(**env: str) -> tuple[int, str]:
    """bot.py on its own (it stops at the database, before Discord): (exit code, output)."""
    done = bot_py_alone(LIMIT, **{"DATABASE_TIMEOUT_SECONDS": "1", **env})
    return done.returncode, done.stdout + done.stderr


async def start_and_stop(fake: FakeDiscord, tmp_path: Path, **env: str) -> str:
    """The real bot against the fake, until it has logged in; its output."""
    log = tmp_path / "bot.log"
    full = fake_bot_env(tmp_path / "bot.db", **{"DEV_GUILD_ID": str(fake.guild_id), **env})
    with log.open("w") as out:
        proc = await spawn_run_bot(fake, full, out)
        try:
            await fake.wait_connected(timeout=20)
            await fake.wait_commands("newgame", timeout=20)
            for _ in range(100):  # until the start-up lines are out ("logged in as")
                if "logged in as" in log.read_text():
                    break
                await asyncio.sleep(0.05)
        finally:
            proc.kill()
            await proc.wait()
    return log.read_text()


def test_a_database_url_password_with_a_slash_is_not_printed() -> None:
    """A generated PostgreSQL password often holds "/" or "#" (base64, password managers).
    The owner who pastes it unencoded into DATABASE_URL reads, on the console (and in
    journald/docker logs, kept and shared in bug reports): "Database error: Cannot connect
    to PostgreSQL at the DATABASE_URL server: invalid literal for int() with base 10:
    'Zq7'..." -- the start of the password. The message should name the setting (a
    password with / # ? @ must be percent-encoded) and never quote any part of the URL
    after the user name."""
    password = "Zq7wLmS9/kT2xV"  # a typical generated password, with a slash
    code, output = run_bot_py(DATABASE_URL=f"postgresql://cardtable:{password}@127.0.0.1/db")
    assert code != 0, output
    assert "Zq7w" not in output, output


def test_a_database_url_with_a_port_out_of_range_stops_with_a_sentence() -> None:
    """A mistyped port (postgresql://...:54320/ has one digit too many) ends the bot with a
    68-line Python traceback from deep in asyncio (OverflowError: connect(): port must be
    0-65535) and exit code 1, instead of "Database error: ..." naming DATABASE_URL (exit 3,
    or 2 for a malformed setting), as every other bad DATABASE_URL does."""
    code, output = run_bot_py(DATABASE_URL="postgresql://cardtable:pw@127.0.0.1:543200/db")
    assert "Traceback" not in output, output[-1500:]
    assert code == 2, (code, output[-1500:])  # a setting's error (README), not a database down
    assert "DATABASE_URL" in output, output[-1500:]


async def test_an_ordinary_start_logs_no_warning(tmp_path: Path) -> None:
    """Every start prints two WARNINGs from discord.py: "PyNaCl is not installed, voice will
    NOT be supported" and "davey is not installed, voice will NOT be supported". The bot
    never uses voice, so the owner is told of a problem that is not one (and learns to
    ignore warnings). A healthy start should have nothing at WARNING or above (e.g.
    ``discord.VoiceClient.warn_nacl = warn_dave = False`` before the client is made)."""
    async with FakeDiscord() as fake:
        output = await start_and_stop(fake, tmp_path)
    warnings = [line for line in output.splitlines() if " WARNING " in line or " ERROR " in line]
    assert not warnings, "\n".join(warnings)


async def test_the_start_up_lines_say_which_database(tmp_path: Path) -> None:
    """The start-up lines at INFO are discord.py's, "synced 14 slash commands" and "logged
    in as ...": nothing says which database the bot opened (a DATABASE_PATH typo makes a
    fresh empty file, and every game seems lost), nor how many open games it found, nor
    which settings are off their defaults (here CARD_EMOJIS=off). The owner should read
    e.g. "database: /data/cardtable.db (SQLite), 0 open games; CARD_EMOJIS=off"."""
    async with FakeDiscord() as fake:
        output = await start_and_stop(fake, tmp_path)
    assert "logged in as" in output, output  # the start-up went through
    assert str(tmp_path / "bot.db") in output, output
