"""Classic Diplomacy: the standard map, orders, and DATC-compliant adjudication.

Pure functions a campaign ruleset wraps: each takes the board, the units and the
submitted orders (power, text) and returns a `PhaseResult`.
"""

from pbem.rulesets.diplomacy.adjustments import adjudicate_adjustments, civil_disorder
from pbem.rulesets.diplomacy.board import Board, load_board, standard_board
from pbem.rulesets.diplomacy.movement import adjudicate_movement
from pbem.rulesets.diplomacy.orders import Order
from pbem.rulesets.diplomacy.position import (
    Position,
    adjudicate,
    load_position,
    position_from_data,
)
from pbem.rulesets.diplomacy.results import DislodgedUnit, OrderResult, PhaseResult
from pbem.rulesets.diplomacy.retreats import adjudicate_retreats
from pbem.rulesets.diplomacy.units import Unit

__all__ = [
    "Board", "DislodgedUnit", "Order", "OrderResult", "PhaseResult", "Position", "Unit",
    "adjudicate", "adjudicate_adjustments", "adjudicate_movement", "adjudicate_retreats",
    "civil_disorder", "load_board", "load_position", "position_from_data", "standard_board",
]
