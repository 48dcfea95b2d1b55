"""Cyberpunk RED (seed 001): the turn and its actions.  See README.md in this folder."""
