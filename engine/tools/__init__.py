"""Tools on top of the engine's public interface: bots, self-play, the text board and `dt-engine`."""
