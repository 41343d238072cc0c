"""Prison data files (loaded by engine/boardgame/catalogue.py)."""
