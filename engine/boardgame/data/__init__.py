"""Base-set data files (loaded by engine/boardgame/catalogue.py)."""
