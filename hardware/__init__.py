"""Serial transports, device drivers and their simulators. Knows nothing of the game."""
