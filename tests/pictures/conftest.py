"""The loopback Discourse of the forum tests serves the picture uploads too."""

from tests.forum.conftest import discourse

__all__ = ["discourse"]
