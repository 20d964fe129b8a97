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
        "CARD_EMOJIS",
        "BOT_PAUSE_SECONDS",
        "UNO_GRACE_SECONDS",
        "NUDGE_AFTER_SECONDS",
        "DATABASE_URL",
        "DATABASE_TIMEOUT_SECONDS",
        "DATABASE_POOL_MIN",
        "DATABASE_POOL_MAX",
        "SHARD_COUNT",
        "SHARD_IDS",
        "CLOCK_POLL_SECONDS",
        "REST_PER_SECOND",
    ):
        assert f"{name}=" in example


def settings(**env: str):  # type: ignore[no-untyped-def]
    return load_settings(env={"DISCORD_TOKEN": "t", **env}, dotenv=None)


def test_database_url_picks_the_backend_and_wins_over_the_path() -> None:
    pg = "postgresql://bot:secret@db.internal:5432/cards"
    assert (settings(DATABASE_URL=pg).database_url, settings(DATABASE_URL=pg).database) == (pg, pg)
    local = settings(DATABASE_PATH="a.db", DATABASE_URL="sqlite:///data/b.db")
    assert (local.database_url, local.database_path, local.database) == (
        "",
        "data/b.db",
        "data/b.db",
    )
    assert settings(DATABASE_URL="c.db").database == "c.db"
    with pytest.raises(ConfigError, match=r"DATABASE_URL must start with postgresql://"):
        settings(DATABASE_URL="mysql://x/y")


def test_pool_and_shard_settings_are_checked() -> None:
    s = settings(DATABASE_POOL_MIN="2", DATABASE_POOL_MAX="4", SHARD_COUNT="4", SHARD_IDS="3,1")
    assert (s.database_pool_min, s.database_pool_max) == (2, 4)
    assert (s.shard_count, s.shard_ids) == (4, (1, 3))
    assert (settings().shard_count, settings().shard_ids) == (None, None)
    assert settings(SHARD_COUNT="2").shard_ids is None  # this process runs every shard
    assert settings(CLOCK_POLL_SECONDS="0.5").clock_poll == 0.5
    for env, named in [
        ({"DATABASE_POOL_MIN": "5", "DATABASE_POOL_MAX": "2"}, "DATABASE_POOL_MIN"),
        ({"DATABASE_POOL_MAX": "99999"}, "DATABASE_POOL_MAX"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS must be numbers from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "SHARD_IDS must be shard numbers"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"CLOCK_POLL_SECONDS": "0"}, "CLOCK_POLL_SECONDS"),
    ]:
        with pytest.raises(ConfigError, match=named):
            settings(**env)


def test_the_rest_budget_is_discords_global_limit_shared_by_the_processes() -> None:
    assert settings().rest_budget() == 50  # one process: all of it
    assert settings(SHARD_COUNT="4").rest_budget() == 50  # this process runs every shard
    assert settings(SHARD_COUNT="4", SHARD_IDS="1,3").rest_budget() == 25
    assert settings(REST_PER_SECOND="120").rest_budget() == 120  # a raised limit
    assert settings(REST_PER_SECOND="0", SHARD_COUNT="4", SHARD_IDS="0").rest_budget() == 0
    for value in ("fast", "-1", "0.01", "inf", "nan"):
        with pytest.raises(ConfigError, match="REST_PER_SECOND"):
            settings(REST_PER_SECOND=value)
