"""pbem: the referee and dice room for play-by-email map campaigns."""

__version__ = "0.1.0"
