"""The package version, in one place (the package root imports it; so may any layer)."""

__version__ = "0.1.0"
