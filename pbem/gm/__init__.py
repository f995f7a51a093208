"""The game master's desk: verbs (mail `GM` lines and `pbem gm`), seats, creating a campaign,
starting from a position, rollbacks.

May import: pbem.intake and everything below it.
"""
