"""Imports every game's bot module so each registers itself."""

from engine.bots import haymaker, ihaveit, itemcollection, uno, warofsuits  # noqa: F401
