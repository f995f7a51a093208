"""The command line's commands, one module each (`add_arguments`, `run`); `pbem.cli` dispatches.

May import: every package but pbem.cli. Heavy imports wait inside `run`.
"""
