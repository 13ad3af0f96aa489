"""Is the text a question at all? A bare name, a fragment or a statement is not.

The test is general English, checked against MultiTQ dev: a question has an interrogative word
(who, whom, whose, what, which, when, where, why, how) anywhere ("In 2010, who ...", "... visited
whom?"), or opens with an auxiliary ("Did ...", "Was ...") or a request ("Name ...", "List ...").
Of the 27,286 MultiTQ dev questions, 3 fail it, and those 3 are statements ("In the same month,
China sent an appeal to Ma Ying Jeou.").

People also type a search-box query: a noun phrase that asks for the first or last one to do
something ("last country to praise iraq before the ap", "the first one to visit china in 2010"), or
any phrase of three words or more ending in a question mark. Both are questions; a bare name stays
none, with or without a question mark. An ordinal followed by an auxiliary or a past-tense verb
("first did Kuwait sign an agreement with", "last visited China") is not such a noun phrase but a
clause whose subject was cut away: none (the twins of dev shard 0/2 had such fragments answered).
"""

from __future__ import annotations

import re

_INTERROGATIVE = re.compile(r"\b(?:who|whom|whose|what|which|when|where|why|how)\b", re.IGNORECASE)
_EXTREME_QUERY = re.compile(r"^\W*(?:the\s+)?(?:very\s+)?(?:first|last|earliest|latest|most\s+recent)\b", re.IGNORECASE)
# ... unless the ordinal is followed by an auxiliary or a past-tense verb: then it is a clause cut
# out of a question, its subject gone ("first did Kuwait sign an agreement with", "last visited
# China"), not a noun phrase naming what is asked ("last country to praise iraq").
_CUT_CLAUSE = re.compile(
    r"^\W*(?:the\s+)?(?:very\s+)?(?:first|last|earliest|latest|most\s+recent)\s+"
    r"(?:did|does|do|was|were|is|are|would|could|will|can|has|had|have|\w+ed)\b",
    re.IGNORECASE,
)
_OPENING = re.compile(
    r"^\W*(?:did|does|do|is|are|was|were|can|could|will|would|has|have|had|should|shall|may|might"
    r"|name|list|tell|give|find|show)\b",
    re.IGNORECASE,
)


def not_a_question(text: str) -> str | None:
    """Why `text` is no question (a one-line reason), or None when it is one."""
    stripped = text.strip()
    if not stripped:
        return "the text is empty: ask a question"
    words = re.findall(r"\w+", stripped)
    if _INTERROGATIVE.search(stripped) or _OPENING.search(stripped):
        return None
    if len(words) >= 3 and ((_EXTREME_QUERY.search(stripped) and not _CUT_CLAUSE.search(stripped)) or stripped.endswith("?")):
        return None
    kind = "a bare name or fragment" if len(words) <= 3 or not stripped.endswith((".", "!")) else "a statement"
    return f"{stripped!r} is {kind}, not a question: ask who, what, which or when"
