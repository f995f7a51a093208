"""One tick as a short list of named steps (`engine`): mail and forum intake behind the
per-message guard, due stages resolved, pictures, reminders, delivery, campaign problems.

May import: every package but pbem.commands and pbem.cli.
"""
