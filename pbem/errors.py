"""Errors that end a command with a message instead of a traceback."""


class UserError(Exception):
    """A problem the person at the keyboard can fix (bad path, unknown campaign...)."""
