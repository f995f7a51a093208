"""Daemon Rift's own player field: the home realm each player starts from."""

from __future__ import annotations

from pbem.kit.players import PlayerField, one_word

PLAYER_FIELDS = {
    "home": PlayerField(
        help="the key of one of the map's home realms ([homes.N] in the map file), e.g. home=3; "
             "by default the players take realms 1, 2, 3... in the order given",
        check=one_word,
        default=lambda seat: str(seat + 1),
    ),
}
