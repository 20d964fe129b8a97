"""Settings a server owner gets wrong: each must stop the bot with a clear ConfigError naming
the setting, never a traceback, and the documented Docker set-up must keep the games on the
volume. Each test reproduces a bug (review)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from config import ConfigError, load_settings

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DATABASE_POOL_MAX", "²"),  # str.isdigit() is True, int() refuses it
        ("LOBBY_TIMEOUT_MINUTES", "³"),
        ("DEV_GUILD_ID", "¹²³"),
        ("SHARD_COUNT", "²"),
    ],
)
def test_a_digit_int_cannot_read_is_a_config_error(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_settings(env={"DISCORD_TOKEN": "t", name: value}, dotenv=None)


def test_a_dotenv_not_in_utf8_is_a_config_error(tmp_path: Path) -> None:
    """A .env saved by an editor in Latin-1 / Windows-1252 (an accented comment): the bot
    dies with UnicodeDecodeError and a traceback, naming neither the file nor the fix."""
    dotenv = tmp_path / ".env"
    dotenv.write_bytes("# Réglages du bot\nDISCORD_TOKEN=abc\n".encode("cp1252"))
    with pytest.raises(ConfigError, match=r"\.env"):
        load_settings(env={}, dotenv=dotenv)


def docker_env_file(path: Path) -> dict[str, str]:
    """What `docker run --env-file` passes: every KEY=VALUE line as is (no quote handling)."""
    values = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            values[key.strip()] = value
    return values


def test_the_readme_docker_run_keeps_the_database_on_the_volume() -> None:
    """README: `cp .env.example .env`, set the token, then
    `docker run --env-file .env -v cardtable-data:/data cardtable`; "The database lives on
    the /data volume". But .env.example sets DATABASE_PATH=data/cardtable.db, and --env-file
    overrides the image's ENV DATABASE_PATH=/data/cardtable.db: the bot (user `bot`) then
    tries to create /app/data, which it may not (exit 3), or the games live outside the volume
    and are lost with the container."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    image = dict(re.findall(r"(\w+)=(\S+)", dockerfile.split("ENV", 1)[1].split("\n\n")[0]))
    assert image["DATABASE_PATH"] == "/data/cardtable.db"
    env = {**image, **docker_env_file(ROOT / ".env.example"), "DISCORD_TOKEN": "t"}
    settings = load_settings(env=env, dotenv=None)
    assert settings.database.startswith("/data/"), settings.database


@pytest.mark.parametrize("url", ["sqlite:///", "sqlite:///data/"])
def test_a_sqlite_url_without_a_file_names_database_url(url: str) -> None:
    """Before: "DATABASE_PATH  is a folder", naming a setting that was not set."""
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        load_settings(env={"DISCORD_TOKEN": "t", "DATABASE_URL": url}, dotenv=None)


@pytest.mark.parametrize(
    "token",
    [
        "abc.def\x08ghi",  # a control character pasted with it
        "Bot abc.def.ghi",  # the "Bot " of the Authorization header
        '"abc.def.ghi',  # a quote left at one end
        "abc.déf.ghi",  # no token holds a letter outside ASCII
    ],
)
def test_a_token_with_a_character_no_token_has_is_a_config_error(token: str) -> None:
    """Before: a DISCORD_TOKEN holding a control character ended in aiohttp's traceback at
    login (exit 1), and one with a space or quote was sent to Discord and refused as wrong.
    Now it is a sentence naming DISCORD_TOKEN (exit 2), and the token is not printed."""
    with pytest.raises(ConfigError, match="DISCORD_TOKEN") as caught:
        load_settings(env={"DISCORD_TOKEN": token}, dotenv=None)
    assert "abc" not in str(caught.value)


def test_a_dev_guild_id_no_server_can_have_is_refused_at_start() -> None:
    """An owner pastes two ids run together into DEV_GUILD_ID. Before, any run of digits
    passed, Discord answered the sync with a 400, and the owner got a traceback (exit 1).
    Now an id no server can have (not 1 to 2**64-1) is a ConfigError naming DEV_GUILD_ID."""
    pasted_twice = "1456074443980800016145607444398080001"
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        load_settings(env={"DISCORD_TOKEN": "abc.def", "DEV_GUILD_ID": pasted_twice}, dotenv=None)


def test_a_dotenv_saved_with_a_byte_order_mark_still_gives_the_token(tmp_path: Path) -> None:
    """A .env saved as "UTF-8 with BOM" (older Notepad) with DISCORD_TOKEN on its first line.
    Before, the mark stayed in the first key and the bot said "DISCORD_TOKEN is not set":
    untrue. Now the mark is not part of the key."""
    dotenv = tmp_path / ".env"
    dotenv.write_bytes("DISCORD_TOKEN=abc.def-ghi\nLOG_LEVEL=INFO\n".encode("utf-8-sig"))
    settings = load_settings(env={}, dotenv=dotenv)
    assert settings.token == "abc.def-ghi"
