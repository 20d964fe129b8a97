"""The playground leaves out .env's database settings (config.load_settings(playground=True))."""

from __future__ import annotations

import pytest

import bot


def test_a_stale_database_timeout_in_env_does_not_stop_the_playground(
    tmp_path, monkeypatch, capsys
) -> None:
    """A production .env with DATABASE_TIMEOUT_SECONDS=5s (a typo the real bot refuses).
    Before, the playground refused it too, though it uses its own SQLite file. Now the
    database settings are not read."""
    monkeypatch.chdir(tmp_path)
    for key in (
        "DATABASE_PATH",
        "DATABASE_URL",
        "DISCORD_TOKEN",
        "DATABASE_TIMEOUT_SECONDS",
        "CLOCK_POLL_SECONDS",
    ):
        monkeypatch.delenv(key, raising=False)
    (tmp_path / ".env").write_text(
        "DATABASE_URL=postgresql://cards@db-host/cards\nDATABASE_TIMEOUT_SECONDS=5s\n"
    )
    from cogs import playground as module

    started: list[str] = []

    async def fake_run(settings, game, open_page):  # stop as soon as it would start
        started.append(game)

    monkeypatch.setattr(module, "run", fake_run)
    try:
        bot.main(["--playground", "--no-browser"])
    except SystemExit as stop:
        pytest.fail(f"refused (exit {stop.code}): {capsys.readouterr().err.strip()}")
    assert started == ["uno"]
