"""The shared vocabulary of the grammar rules (`agents.analysis.grammar`, `agents.analysis.clauses`):
patterns for a masked question's parties, question words, auxiliaries, adverbs and pro-verbs, the small
helpers that put a moved phrase back into a clause, and the word tables of data/grammar_words.json."""

from __future__ import annotations

import re

from agents.analysis.cues import CUE_HEAD
from agents.analysis.words import english, word_tables

GRAMMAR_WORDS = word_tables("grammar_words")

_ENT = r"(?:(?:the|a|an)\s+)?\{E\d+\}"  # "a {E1}": sector roles are named with either article ("a Thai MP")
_WH = r"who|whom|which\s+[a-z]+|what\s+[a-z]+"
_BE_PASSIVE = r"was|were|is|are|has\s+been|have\s+been|had\s+been"  # the auxiliaries of a be-passive
_BE = _BE_PASSIVE + r"|got|gets|get"
_ADVERB = r"(?:(?:first|last|initially|originally|finally|ever|also|most\s+recently|recently|previously|[a-z]+ly)\s+)*"
_POST_ADVERB = r"(?:\s+(?:first|last|initially|finally|most\s+recently|recently))?"  # "was rejected first by"
_CUE = CUE_HEAD
_RECEIVE = r"receive|received|receives|receiving|get|got|gets|accept|accepted|welcome|welcomed|draw|drew|drawn|draws|face|faced|faces|earn|earned|earns|attract|attracted|attracts"
# "do the same", "did so", "did too", "do likewise": a pro-verb standing for an earlier verb phrase
# ("did it want to ...": "it" is then the subject of a do-question, not the object of a pro-verb)
_PROVERB = english(
    r"\b(?:do|did|does|done|doing)\s+(?:the\s+same(?:\s+thing)?|so|it|likewise|that|this|too|as\s+well|also)\b"
    r"(?!\s+(?!(?:too|again|also|as|in|on|at|during|before|after|with|to|for|about|against|first|last|then)\b)[a-z])"
    # "did it also criticise": an adverb and then a verb make "did" the auxiliary, not a pro-verb
    r"(?!\s+(?:too|again|also|first|last|then)\s+(?!(?:as|in|on|at|during|before|after|with|to|for|about|against)\b)[a-z])"
    r"|\b(?:also|too)\s+did\b|\bfollow(?:ed|s|ing)?\s+suit\b"
    # "who was the first to want the same?": a verb of wanting with "the same" and nothing after it
    r"|\b(?:want|wants|wanted|wish|wishes|wished|intend|intends|intended)\s+(?:to\s+do\s+)?the\s+same\b(?!\s+[a-z])"
    # "who had made the last one (before him)": an act's noun said again as "one", its ordinal kept
    r"|\b(?:[a-z]+ed|made|make|makes|gave|give|gives|sent|send|sends|sign|signs|held|hold|holds)\s+(?:the\s+|a\s+|an\s+)?(?:(?P<ord>first|last|next|latest|earliest)\s+)?one\b(?!\s+(?:of|to|with|about|against|from|for)\b)"
    # "who else announced the same intention / made the same appeal": an object "the same N" (no
    # period word) names the clause's own act again
    r"|\b(?:[a-z]+ed|made|gave|sent|took)\s+the\s+same\s+(?!(?:day|date|week|month|year|time|period|calendar)\b)[a-z]+\b",
)
_AGENT_SUFFIX = r"[a-z]{3,}(?:or|er|ic|ist)s?"  # the noun of one who does something: visitor(s), critic(s)
_AUX = r"(?:(?:had|has|have|did|does|do|would|was|were|first|last|also|already|once)\s+)*"
# the irregular past tenses of the verbs people use for the KG's acts (a regular one ends in "ed")
_IRREGULAR_PAST = r"went|sent|made|gave|met|took|held|spoke|sought|said|told|paid"
_NOT_PARTICIPLES = frozenset({"been", "being", "the", "a", "an", "first", "last"})
_PLACEHOLDER = re.compile(r"\{E(\d+)\}")
_NOT_GERUNDS = frozenset({"being", "having", "during", "following", "preceding", "according", "including", "nothing", "something", "anything", "king", "thing", "spring", "evening", "morning", "beijing", "wing"})


# the templates say "first" and "last": each other way of saying an ordinal, in their word
_ORDINAL_OF = {"earliest": "first", "latest": "last", "most recent": "last", "most recently": "last", "recent": "last", "final": "last"}


def _ordinal(words: str | None) -> str:
    """An ordinal adverb as the templates say it ("most recent" -> "last"); "only" says none."""
    word = " ".join((words or "").split()).lower()
    return "" if word == "only" else _ORDINAL_OF.get(word, word)


def _who(wh: str) -> str:
    return "who" if wh.lower() in ("who", "whom") else wh


def _object(subject: str) -> str:
    """A moved subject loses its sentence-initial capital ("The {E1} was ..." -> "... the {E1}")."""
    for article in ("The ", "An ", "A "):
        if subject.startswith(article):
            return article.lower() + subject[len(article) :]
    return subject


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _adverbs(text: str | None) -> str:
    return f"{text.strip()} " if text and text.strip() else ""


def _passive_adverbs(m: re.Match[str]) -> str:
    """The adverbs of a passive, before and after its participle ("was first rejected by", "was rejected first by")."""
    return _adverbs(" ".join(part for part in (m.group("adv"), m.groupdict().get("post")) if part and part.strip()))


def _spliced(m: re.Match[str], replacement: str = "") -> str:
    """The text `m` was found in, with what it matched put back as `replacement` (every rule's last step)."""
    return m.string[: m.start()] + replacement + m.string[m.end() :]
