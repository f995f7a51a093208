"""The stage now open: its record in state.toml (`record`), opening, deadlines and due checks,
dice commitment, history snapshots and the keys of its mail (`turns`).

May import: pbem.pictures, pbem.forum, pbem.rulesets and everything below them.
"""
