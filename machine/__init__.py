"""The cabinet controller: game engine, meters, journal, cabinet loop, display, operator menu."""

__version__ = "0.1.0"
