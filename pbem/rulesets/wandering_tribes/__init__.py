"""Wandering Tribes: the Warmaster map campaign of stacks on square tiles (WM-Wandering Tribes v1.1)."""
