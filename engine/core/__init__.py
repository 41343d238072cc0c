"""What every rule family shares: the engine's errors, seeded randomness and events (no rules here)."""
