"""Casual Use of Powers (seed 002, *Casual Use of Powers*): when it is refused, and why.

The checks run from the most fundamental rule to the most particular, so the rule that
refuses is the one the text would name first:

1. What may be used Casually at all: "a Power or ability that he uses as an attack
   (defenses, movement, and other Powers can't be used Casually)".  This is asked before
   anything about the Power's duration, so a Casual defence is refused by this rule, not
   as a constant Power that is "turned on and off".
2. Never at a character: "he should never allow a character to Casually use a Power to
   attack or harm another character".  The text's "never" is not the GM's discretion, so
   ``gm_allows`` does not lift it.  Escaping a Grab is not harming the grabber: Casual
   Use with ``escape`` at the character holding the Grab is allowed.
3. "A Power can only be used Casually against an unresisting target (such as a door or
   wall) or to escape from a Grab, Entangle, or the like": ``escape`` is honoured only
   when the GM has set the character ``grabbed`` or ``entangled`` (a Grab's holder is a
   character, so a Casual escape at a token needs ``grabbed``).
4. "At the GM's option": the table's ``casual_use``.
5. "Inability to use a Power Casually is typically a -0 Limitation": ``casual: false``.
6. Concentration, Gestures or Extra Time: "typically a character cannot use it
   Casually" (``gm_allows`` lifts it, the text's "typically").
7. "Once per Segment, and ... a single Power in a Segment", "unless the GM permits
   otherwise" (``gm_allows``).

The half-effect limit needs the amount asked and is checked with it
(:func:`.rules.use_power`).
"""

from __future__ import annotations

from .sheet import Power, modifier_key

#: Limitations that keep a Power from Casual Use (seed 002 names these three).
CASUAL_BARS = ("concentration", "gestures", "extratime")
#: The conditions a Casual escape needs (the GM sets them; the Hero vocabulary has them).
HELD = ("grabbed", "entangled")


def casual_refusal(
    power: Power,
    *,
    casual_used: str,
    target_is_token: bool,
    escape: bool,
    gm_allows: bool,
    allowed: bool,
    conditions: tuple[str, ...],
) -> str | None:
    """Why ``power`` cannot be used Casually now (None: it can).  ``casual_used`` is the
    Power already used Casually this Segment (``""``: none); ``allowed`` the table's
    ``casual_use``; ``conditions`` the character's."""
    if power.kind != "attack":
        return (
            f"{power.name} is a {power.kind} Power: defences, movement and other Powers "
            "can't be used Casually (only attacks and STR)"
        )
    if target_is_token and not escape:
        return (
            "the GM should never allow a character to Casually use a Power to attack or "
            "harm another character: name an object, or escape a Grab"
        )
    if escape:
        held = [c for c in HELD if c in conditions]
        if not held:
            return "a Casual escape needs a Grab or Entangle: the GM sets grabbed or entangled"
        if target_is_token and "grabbed" not in held:
            return "a Casual escape at a character is from his Grab: the GM sets grabbed"
    if not allowed:
        return "Casual Use is at the GM's option, and not one of this table's options"
    if not power.casual:
        return f"{power.name} cannot be used Casually (a -0 Limitation)"
    bar = next((m.name for m in power.limitations if modifier_key(m.name) in CASUAL_BARS), None)
    if bar is not None and not gm_allows:
        return f"{power.name} has {bar}: it is not used Casually unless the GM allows"
    if casual_used and not gm_allows:
        return f"already used {casual_used} Casually this Segment (a Phase at this table)"
    return None
