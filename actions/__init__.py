"""Typed action templates, their exact temporal semantics, candidate enumeration, filtering, parsing.

Modules: items (Item), semantics (the rules), context (ActionContext), templates (the actions),
enumerate (Algorithm 1), filtering (top-K), cues (word signals for filtering), parse (decider replies).
Import from the modules themselves; this package imports nothing so `actions.items` stays cheap.
"""
