"""Pieces of the load benchmark (bench/load.py): the bot processes, the stored-games database,
the click driver and the statistics. The bot is a black box: it is started as a subprocess
against the fake Discord and only its database is read (read-only) to know whose turn it is."""
