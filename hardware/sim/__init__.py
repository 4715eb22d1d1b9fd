"""The ccTalk bus simulator: its own process (``python -m hardware.sim``), its control channel,
the launcher tests and tools use, and an in-memory link for unit tests. See README.md."""
