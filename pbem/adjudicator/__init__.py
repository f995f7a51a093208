"""The simultaneous-order adjudicator shared by Daemon Rift and Diplomacy."""

from pbem.adjudicator.resolver import Resolver

__all__ = ["Resolver"]
