"""Club night: a strategic round played live at the table (`pbem table`), one player at a time,
each player's round stored as soon as it is played, and a page for the projector (`--serve`).

May import: every package below pbem.commands (pbem.tick to close the round as the tick does).
"""
