"""Dungeon Twister Prison (PR- rules): its data (rooms 37-40, characters, objects) and its rule modules.

Importing this package registers its data package with the catalogue loader.
"""

from ..boardgame import catalogue

catalogue.register_data("dungeon_twister.engine.prison.data")
