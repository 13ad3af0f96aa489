"""Is the text a question ARI can answer? A bare name, a fragment, a statement or a yes/no question is not.

The policy is general English: text asks something when it names what it asks for, and ARI answers
who, what, which and when. It is a question when it has

- an interrogative word anywhere ("In 2010, who ...", "... visited whom?");
- a request for the answer, bare or in a polite yes/no frame ("Name ...", "List ...", "Could you
  tell me the month ..."), or a wish to know it ("I'd like to know the month ...", "I wonder ...");
- a definite description of what is asked, as typed in a search box: a noun phrase headed by an
  ordinal or superlative ("last country to praise iraq before the ap", "the first one to visit
  china in 2010", "the last time X visited Y") names one thing, its referent is the answer. An
  ordinal followed by an auxiliary or a past-tense verb ("first did Kuwait sign an agreement
  with", "last visited China") is not such a noun phrase but a clause whose subject was cut away;
  so is a noun phrase whose relative clause holds the ordinal ("the award that was awarded to X
  for the first time");
- a yes/no form that asks about an indefinite ("Did anyone visit Iran in 2010?", "china
  investigated anyone after may 2012?"): the answer it invites is the one the indefinite stands for.

Anything else abstains, with the kind named: a yes/no question ("Did France visit Iran in 2010?",
"Iran visited China?"; an auxiliary opening or a question mark, no interrogative word) asks
whether, and an entity or a time would answer a question the user did not ask; a bare name or a
fragment ("Iran", "visited Iran in 2010"); a statement (a clause ending in "." or "!").

How it was chosen: the forms are textbook English; on the 13,579 MultiTQ dev questions of the
learning split (shard 0/2), 13,572 have an interrogative word, 6 are "Could you tell me the exact
month ..." requests, and 1 is a declarative with a question mark ("China was rejected in the same
month by the Indian foreign minister?"), which now abstains as a yes/no question.
"""

from __future__ import annotations

import re

INTERROGATIVE = re.compile(r"\b(?:who|whom|whose|what|which|when|where|why|how)\b", re.IGNORECASE)
_EXTREME = r"(?:first|last|earliest|latest|most\s+recent)"
_EXTREME_QUERY = re.compile(rf"^\W*(?:the\s+)?(?:very\s+)?{_EXTREME}\b", re.IGNORECASE)
_EXTREME_WORD = re.compile(rf"\b{_EXTREME}\b", re.IGNORECASE)
# ... unless the ordinal is followed by an auxiliary or a past-tense verb: then it is a clause cut
# out of a question, its subject gone ("first did Kuwait sign an agreement with", "last visited
# China"), not a noun phrase naming what is asked ("last country to praise iraq").
_CUT_CLAUSE = re.compile(
    rf"^\W*(?:the\s+)?(?:very\s+)?{_EXTREME}\s+"
    r"(?:did|does|do|was|were|is|are|would|could|will|can|has|had|have|\w+ed)\b",
    re.IGNORECASE,
)
# ... and a noun phrase whose relative clause holds the ordinal: "The award that was awarded to X
# for the first time", "the team which X last played for" name one thing as well.
_DESCRIBED = re.compile(rf"^\W*the\s+\w+\s+(?:that|which|who|whom)\b.*\b{_EXTREME}\b", re.IGNORECASE)
_AUXILIARY = r"did|does|do|is|are|was|were|can|could|will|would|has|have|had|should|shall|may|might"
REQUEST_VERBS = ("name", "list", "tell", "give", "find", "show", "identify")  # a request for the answer: "List all ..."
_REQUEST_VERB = "|".join(REQUEST_VERBS)
# "Name ...", "Please list ...", "Could you tell me ...", "Can you name ..."
_REQUEST = re.compile(
    rf"^\W*(?:(?:{_AUXILIARY})\s+you\s+)?(?:please\s+)?(?:{_REQUEST_VERB})\b"
    # an indirect question after a verb of knowing: "I'd like to know the month ...", "I want to know the year ..."
    r"|^\W*i\s*(?:'d|would)\s+(?:like|love)\s+to\s+know\b|^\W*i\s+(?:want|need|wish)\s+to\s+know\b|^\W*i\s+wonder\b|^\W*let\s+me\s+know\b"
    r"|^\W*(?:do|does)\s+(?:you|anyone|anybody)\s+know\s+(?:the|which|what|who|whom|when)\b",
    re.IGNORECASE,
)
_YES_NO_OPENING = re.compile(rf"^\W*(?:{_AUXILIARY})\b", re.IGNORECASE)
_INDEFINITE = re.compile(r"\b(?:anyone|anybody|someone|somebody|any|some)\b", re.IGNORECASE)
_ASK = "ask who, what, which or when"


def not_a_question(text: str) -> str | None:
    """Why `text` is no question ARI answers (a one-line reason), or None when it is one."""
    stripped = text.strip()
    if not stripped:
        return "the text is empty: ask a question"
    words = re.findall(r"\w+", stripped)
    if INTERROGATIVE.search(stripped) or _REQUEST.search(stripped):
        return None
    if len(words) >= 3 and _EXTREME_QUERY.search(stripped) and not _CUT_CLAUSE.search(stripped):
        return None  # a definite description: "last country to praise iraq before the ap"
    if _DESCRIBED.search(stripped):
        return None  # "the award that was awarded to X for the first time"
    opening = bool(_YES_NO_OPENING.search(stripped))
    if len(words) >= 3 and (opening or stripped.endswith("?")):
        if _INDEFINITE.search(stripped):
            return None  # "Did anyone visit Iran?": asks who
        if not opening and _EXTREME_WORD.search(stripped) and not _CUT_CLAUSE.search(stripped):
            return None  # "after south sudan first country kuwait was optimistic about?"
        return f"{stripped!r} is a yes/no question, which ARI does not answer: {_ASK}"
    kind = "a bare name or fragment" if len(words) <= 3 or not stripped.endswith((".", "!")) else "a statement"
    return f"{stripped!r} is {kind}, not a question: {_ASK}"
