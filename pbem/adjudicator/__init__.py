"""Moved to `pbem.kit.resolver`; this package re-exports it for the rule systems that still import
it from here, and goes once every rule system imports from the kit."""

from pbem.kit.resolver import Resolver

__all__ = ["Resolver"]
