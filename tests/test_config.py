"""Settings: a missing or malformed value stops the bot with a message that says what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import DEFAULT_DATABASE, ConfigError, load_settings


def test_missing_token_explains_how_to_get_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"DISCORD_TOKEN is not set.*\.env\.example"):
        load_settings(env={}, dotenv=tmp_path / ".env")


def test_dotenv_is_read_and_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text('# comment\nDISCORD_TOKEN="from-file"\nDEV_GUILD_ID=123\nLOG_LEVEL=debug\n')
    settings = load_settings(env={}, dotenv=dotenv)
    assert (settings.token, settings.dev_guild_id, settings.log_level) == (
        "from-file",
        123,
        "DEBUG",
    )
    assert settings.database_path == DEFAULT_DATABASE
    assert load_settings(env={"DISCORD_TOKEN": "env"}, dotenv=dotenv).token == "env"


@pytest.mark.parametrize(
    ("name", "value"),
    [("DEV_GUILD_ID", "my-server"), ("LOG_LEVEL", "LOUD"), ("LOBBY_TIMEOUT_MINUTES", "0")],
)
def test_malformed_values_are_named(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_settings(env={"DISCORD_TOKEN": "t", name: value}, dotenv=None)


def test_env_example_documents_every_setting() -> None:
    example = (Path(__file__).resolve().parent.parent / ".env.example").read_text()
    for name in (
        "DISCORD_TOKEN",
        "DATABASE_PATH",
        "DEV_GUILD_ID",
        "LOG_LEVEL",
        "LOBBY_TIMEOUT_MINUTES",
    ):
        assert f"{name}=" in example
