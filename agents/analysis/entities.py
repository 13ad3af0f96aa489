"""Entity linking: spans of a question -> ranked KG entities, or an explicit "nothing close".

Candidate mentions, longest good match first: exact n-gram matches of names and aliases
(`agents.analysis.aliases`); sector roles of a qualifier ("a Malaysian judge"); for name-like spans
left over, names containing the span's words, spelt almost alike, or near in embedding space and
spelt alike. A span none of these links closely is returned with no candidates: never a guess.
"""

from __future__ import annotations

import calendar
import dataclasses
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np
from rapidfuzz import fuzz, process

from agents.analysis.aliases import (
    FIRST_NAME,
    LEARNED,
    LEARNED_TABLES,
    NAME_WORD_TABLES,
    NAME_WORDS,
    SURNAME,
    UN_BODY,
    fuller_name,
    is_title,
    shortens,
)
from agents.analysis.cues import CUE_WORDS
from agents.analysis.demonyms import CAPITALS, COUNTRIES
from agents.analysis.grammar import is_agent_noun, verb_of_agent
from agents.analysis.names import (
    PREFIXES,
    NameTables,
    Token,
    accepts_case,
    build_name_tables,
    closed_key,
    key_prefixes,
    ngram_key,
    tokenize,
)
from agents.analysis.question_form import REQUEST_VERBS
from agents.analysis.sectors import ROLE_WORDS, content_words, role_scores, role_vocabulary
from agents.analysis.times import read_times
from agents.analysis.types import EntityMention
from ari.base.config import LinkingConfig
from ari.base.embedding import Embedder, VectorCache, english_words
from ari.base.text import overlap_score, stem, word_key
from ari.base.vector_index import VectorIndex
from tkg_store.name_vectors import name_vectors, text_vectors
from tkg_store.saved import saved
from tkg_store.store import TKGStore, normalize_name

_WORDS = NAME_WORD_TABLES  # data/name_words.json: what each table holds, and why
_PHRASE_BREAK = _WORDS["phrase_break"] | frozenset("?,;:()")
# A name may begin with a month or a function word ("March 23 Movement"), but a span of nothing but calendar,
# function and request-framing words names no party.
_CALENDAR = frozenset(name.lower() for name in (*calendar.month_name[1:], *calendar.day_name))
_NOT_ALONE = (
    _CALENDAR | _WORDS["not_names"] | _WORDS["determiners"]
    | _WORDS["quantifiers"] | _WORDS["name_connectors"] | _PHRASE_BREAK | frozenset(REQUEST_VERBS) | _WORDS["framing_words"]
)


# words that make what follows a name and a comma a clause, a list or a time, no description of the name (`_one_party`)
_CLAUSE_WORDS = (_WORDS["phrase_break"] | CUE_WORDS | _CALENDAR | {"and", "or", "but", "nor"}) - {"of", "in", "on", "at", "for", "from", "the", "a", "an", "to", "with", "by"}
_KIND_RANK = {kind: k for k, kind in enumerate(("exact", "role", "alias", "qualifier", "fuzzy"))}  # how closely a kind names

_RoleRequest = tuple[int, int, str | None, tuple[list[str], bool]]  # (start, end, role phrase, (qualifiers, attributive))
KNOWN_ENGLISH = _NOT_ALONE | _WORDS["frequent_english"] | CUE_WORDS  # the words the linker reads as English (`chat_spellings.Vocabulary`)


@dataclass
class _Candidate:
    start: int  # token index
    end: int
    entities: list[tuple[str, float]]
    kind: str  # exact | alias | role | qualifier | fuzzy | unlinked | part (read in the mention that took its span: a title, a description)
    why: str = ""  # how the span was read (alias rule, role phrase...), for the trace
    confirm: bool = False  # weak evidence of a name: kept only where the KG links it to another mention
    needs_partner: bool = False  # ... and dropped where the question has no other mention to confirm it

    @property
    def score(self) -> float:
        return self.entities[0][1] if self.entities else 0.0


class EntityLinker:
    """Links entity mentions of questions against one store. Build once per store; reuse for every question."""

    def __init__(
        self, store: TKGStore, embedder: Embedder | None = None, config: LinkingConfig = LinkingConfig(), fuzzy: bool = True,
        names: dict[str, str] | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.config = config
        self.fuzzy = fuzzy
        data = linker_tables(store)
        self.tables = NameTables(**data["tables"])
        self._name_prefixes: set[str] = data["name_prefixes"]
        self._qualifier_prefixes: set[str] = data["qualifier_prefixes"]
        # names learned from labelled questions (`memory.names`): read first where the KG has no such name
        if learned := {normalize_name(n): e for n, e in (names or {}).items() if e in self.tables.fact_count and normalize_name(n) not in self.tables.by_key}:
            aliases = {**self.tables.aliases, **{k: [(e, LEARNED), *(a for a in self.tables.aliases.get(k, []) if a[0] != e)] for k, e in learned.items()}}
            self.tables = dataclasses.replace(self.tables, aliases=aliases, max_tokens=max(self.tables.max_tokens, *(len(k.split()) for k in learned)))
            self._name_prefixes = self._name_prefixes | key_prefixes(learned)
        self._role_lists: dict[str, list[tuple[str, frozenset[str], int]]] = data["role_lists"]
        self._role_entity = {q: {role: e for role, e in roles} for q, roles in self.tables.roles.items()}
        self._capitals = frozenset(normalize_name(city) for cities in CAPITALS.values() for city in cities)
        self._role_vocabulary: frozenset[str] = data["role_vocabulary"]
        # a role word's first six letters: an act word that begins so names the sector that does it
        self._role_prefixes = frozenset(w[:6] for w in self._role_vocabulary if len(w) >= 6)
        role_texts: list[str] = data["role_texts"]
        # words the KG's role names put before another word ("rights" of "Human Rights
        # Activist", "affairs"): the only plural nouns that modify the noun after them (`_verb_after_plural`)
        self._modifier_words = frozenset(data["modifier_words"])
        self._head_words = frozenset(data["head_words"])
        self.name_words: list[str] = data["name_words"]
        relation_words = {w for r in store.relation_names() for w in normalize_name(store.relation_text(r)).split()}
        self._relation_keys = frozenset(word_key(w) for w in relation_words if len(w) >= 4)
        # a name's phrase words: role words, the lower-case names' ("member of the Riksdag"), not relations' ("the position of")
        self._noun_words = (self._role_vocabulary | set(data["lower_name_words"])) - relation_words - KNOWN_ENGLISH
        # words capitalised only because they open the sentence: the KG's relation and role words, and English words no person
        # of the KG is named with ("Title of the award ...")
        self._opening_words = self.tables.common_words | (english_words(embedder.name) - set(data["person_words"]) if embedder else set())
        self._role_matrix: np.ndarray | None = None
        self._entity_index: VectorIndex | None = None
        self._entity_rows: list[str] = []
        self._vectors = VectorCache(embedder, 200_000)  # role phrases and left-over names
        self._fuzzy_keys: list[str] | None = None
        if embedder is not None:
            # role names are names too, thousands in a large KG: the int8 encoder, as entity names
            self._role_matrix = text_vectors(store, embedder, "roles", role_texts, int8=True) if role_texts else None
            vectors = name_vectors(store, embedder)
            self._entity_rows = vectors.entities
            self._entity_index = VectorIndex(vectors.entity_matrix)

    # -- public -----------------------------------------------------------------------------
    def link(self, question: str, time_spans: list[tuple[int, int]] | None = None) -> list[EntityMention]:
        """Mentions of one question; `time_spans` (character spans of its dates) are found when not given."""
        return self.link_batch([question], None if time_spans is None else [time_spans])[0]

    def link_batch(
        self, questions: list[str], time_spans: list[list[tuple[int, int]]] | None = None
    ) -> list[list[EntityMention]]:
        """Mentions of each question in order of appearance; embedding calls are batched over all questions."""
        if time_spans is None:
            time_spans = [[t.span for t in read_times(q).found] for q in questions]
        tokenised = [self._two_names_split(tokenize(q)) for q in questions]
        # tokens inside time expressions: never part of an entity name
        blocked = [{k for k, t in enumerate(toks) for a, b in spans if t.start < b and a < t.end} for toks, spans in zip(tokenised, time_spans)]
        exact = [self._exact(q, t, b) for q, t, b in zip(questions, tokenised, blocked)]
        role_requests = [self._role_phrases(q, t, b) for q, t, b in zip(questions, tokenised, blocked)]
        self._vectors.add([r[2] for requests in role_requests for r in requests if r[2] and self._needs_vector(r)])
        results: list[list[EntityMention]] = []
        pending: list[tuple[list[_Candidate], list[tuple[_Candidate, str]]]] = []  # per question: (chosen, (run, its text))
        for n, (question, toks) in enumerate(zip(questions, tokenised)):
            chosen = _select(exact[n] + self._score_roles(role_requests[n], toks))
            spans = []
            # a word opening the sentence ("Conventional military force was used ..."): never read as a name, as cue words are not
            for s in (s for s in _uncovered_name_runs(toks, chosen, blocked[n]) if not (_opens_sentence(toks, s, alone=True) and toks[s[0]].key in self._opening_words)):
                style, owner = self._formal_style(question, toks, s, chosen)
                if owner is not None:  # the style is part of the name it belongs to: read (and masked) as one
                    owner.start, owner.end = min(owner.start, s[0]), max(owner.end, s[1])
                spans += [] if style else [s]
            pending.append((chosen, [(_Candidate(a, b, [], "unlinked"), question[toks[a].start : toks[b - 1].end]) for a, b in spans]))
            for run, text in pending[-1][1]:
                run.entities = [] if self._a_country(text) else self._contained(text) or self._fuller(text) or self._fuzzy(text)
        # embeddings only for left-over names that no entity name contains
        self._vectors.add([text for _, runs in pending for run, text in runs if not run.entities and not self._a_country(text)])
        for n, (chosen, texts) in enumerate(pending):
            toks = tokenised[n]
            for run, text in texts:
                run.entities = run.entities or ([] if self._a_country(text) else self._nearest(text))
                run.kind = "fuzzy" if run.entities else "unlinked"
            runs = [r for r, _ in texts if r.entities or not _opens_sentence(toks, (r.start, r.end))]
            runs += self._lower_case_typos(questions[n], toks, chosen + runs, blocked[n])
            mentions = self._whole_phrases(questions[n], toks, sorted(chosen + runs, key=lambda c: c.start), blocked[n])
            for before, after in zip(mentions, mentions[1:]):
                if after.kind == "alias" and after.end - after.start == 1 and before.end == after.start and toks[after.start].text.islower():
                    after.confirm = True  # "china said ...": a lower-case word right after a name is its verb, unless the KG says otherwise
            self._one_party(toks, mentions)
            _short_forms(questions[n], toks, mentions)
            mentions = self._confirmed([  # a span of `_NOT_ALONE` words names no party; a part is read in the mention it joined
                c for c in mentions if c.kind != "part" and not all(t.key in _NOT_ALONE or not t.key or t.key == "'s" for t in toks[c.start : c.end])
            ])
            results.append([_mention(questions[n], toks, c, self.config.max_candidates) for c in mentions])
        return results

    def _one_party(self, tokens: list[Token], mentions: list[_Candidate]) -> None:
        """(role: names people use) A title before a person's name ("Kremlin foreign policy aide Yuri Ushakov":
        a role or unknown name, and words of roles or titles), and a name and a description of it set off by commas or
        brackets ("Ban Ki-moon, the UN Secretary-General,", "the UN children's agency, UNICEF?", "Damascus (the Syrian
        government)"), name one party: the person, else the mention the KG names most
        closely (a description of a role before a capital or a name's other words). A list ("China, the US and Russia") or
        a clause ("After Iraq, the IMF asked whom?", "China, Laos having done so") is no description: it holds "and", "or",
        a question or cue word, a word of an act or a participle."""
        def plain(k: int) -> bool:
            word = tokens[k]  # a capitalised word is part of a name ("the Central Military Commission"), no act; a number a time
            verb = word.text.islower() and (word_key(word.key) in self._relation_keys or word.key.endswith(("ing", "ed")))  # "having"
            return word.key.replace(" ", "").isalpha() and word.key not in _CLAUSE_WORDS and not verb
        starts = {c.start for c in mentions}
        for first in (c for c in mentions if c.kind != "part"):  # the name's own lower-case words before the comma, no other name's
            comma = next((k for k in range(first.end, min(len(tokens), first.end + 4)) if not plain(k) or not tokens[k].text.islower() or k in starts), None)
            person = next((c for c in mentions if c.start == comma and c.entities and c.entities[0][0] in self.tables.people), None)
            titled = person is not None and all(self._in_vocabulary(tokens[k]) or is_title(tokens[k].key) for k in range(first.end, person.start))
            if person is not None and first.kind in ("role", "unlinked") and titled:
                person.start, first.kind = first.start, "part"  # a role or unknown name, and title words, before a person's name
                continue  # are the person's title ("Iraqi PM Nouri al-Maliki", "Kremlin foreign policy aide Yuri Ushakov")
            if comma is None or tokens[comma].text not in {",", "("}:
                continue
            close = next((k for k in range(comma + 1, min(len(tokens), comma + 14)) if not plain(k)), None)
            party = [c for c in mentions if close is not None and first.start <= c.start and c.end <= close and c.kind != "part"]
            if close is None or tokens[close].text not in {",", ";", ":", "?", ".", "!", ")"} or len(party) < 2:
                continue
            best = min(party, key=lambda c: (_KIND_RANK.get(c.kind, 9), -c.score, c.start))
            for other in (c for c in party if c is not best):
                other.kind = "part"
            best.start, best.end = first.start, close + (tokens[close].text == ")")

    def _a_country(self, text: str) -> bool:
        """A country, its people or its capital, alone ("Hong Kong", "Malaysian") or before words of role names
        ("Japanese PM"), where no role of it was read closely enough: one of the many names that hold it
        ("Archbishop (Hong Kong)", "Governor (Japan)") would be a guess, so none is."""
        words = normalize_name(text).split()
        return any(" ".join(words[:k]) in self.tables.qualifier_keys and all(content_words(w) <= self._role_vocabulary for w in words[k:])
                   for k in range(1, len(words) + 1))

    def _lower_case_typos(self, question: str, tokens: list[Token], found: list[_Candidate], blocked: set[int]) -> list[_Candidate]:
        """(role: names people use) In an all-lower-case question, a long word no source explained and
        no vocabulary holds may be a misspelt name ("musharaf"): the names spelt almost alike (`_fuzzy`),
        kept only where the KG links them to another name of the question (or it has no other)."""
        if not self.fuzzy or any(c.isupper() for c in question):
            return []
        covered = set(blocked) | {k for c in found for k in range(c.start, c.end)}
        words = [(k, t.text) for k, t in enumerate(tokens) if k not in covered and len(t.key) >= 6 and t.text.isalpha() and not self._general_word(t.key)]
        near = [(k, self._fuzzy(word)) for k, word in words]
        return [_Candidate(k, k + 1, entities, "fuzzy", why="closest names (lower case)", confirm=True) for k, entities in near if entities]

    def _general_word(self, word: str) -> bool:
        """A word of the KG's relation or role vocabulary, a cue or a frequent English word: no name."""
        return (
            word in self.tables.common_words or word in _WORDS["frequent_english"] or word in CUE_WORDS or word in _WORDS["not_names"]
            or word_key(word) in self._relation_keys or (bool(content_words(word)) and content_words(word) <= self._role_vocabulary)
        )

    def _confirmed(self, mentions: list[_Candidate]) -> list[_Candidate]:
        """Mentions read from weak evidence (`_Candidate.confirm`) kept only with the candidates that have
        facts with another mention's best two; a question with no other mention keeps them as they are,
        except those that need one (`_Candidate.needs_partner`)."""
        partners = [name for c in mentions if not c.confirm for name, _ in c.entities[:2]]
        for c in (c for c in mentions if c.confirm and partners):
            c.entities = [(n, s) for n, s in c.entities if any(self.store.relations_between(n, p) for p in partners)]
            c.why += "; confirmed: it has facts with the question's other names"
        # none left: "which country said ...": no fact links Khan_Said to the question's others
        return [c for c in mentions if not c.confirm or (c.entities if partners else not c.needs_partner)]

    def _formal_style(self, question: str, tokens: list[Token], span: tuple[int, int], chosen: list[_Candidate]) -> tuple[bool, _Candidate | None]:
        """(role: names people use) Whether a capitalised run no source explained is the formal style of a
        name linked beside it ("Yehudi Menuhin, Baron Menuhin", "Sir Reginald Carey "Rex" Harrison", "Her
        Majesty's Principal Secretary of State for ..."), and that mention (None: none linked yet)."""
        start, end = span
        words = [t.key for t in tokens[start:end]]
        if " ".join(words) in _WORDS["crown_styles"]:
            crown = end < len(tokens) and tokens[end].key == "'s"
            return crown, next((c for c in chosen if c.start == end + 1), None) if crown else None
        person = {c.start: c for c in chosen if any(name in self.tables.people for name, _ in c.entities)}
        before = next((c for c in chosen if c.end == start - 1 and c.start in person), None)
        if before is not None and tokens[start - 1].text == "," and words[0] in _WORDS["peerages"]:
            return True, before
        between = question[tokens[end - 1].end : tokens[end].start].strip() if end in person else None
        owner = person[end] if between in {'"', "“", "'", "‘"} or (words[0] in _WORDS["formal_honorifics"] and between == "") else None
        return owner is not None, owner

    def _fuller(self, text: str) -> list[tuple[str, float]]:
        """People whose name `text` writes in full or with initials ("Ian Richard Kyle Paisley" -> Ian
        Paisley, "E.H. Land" -> Edwin H. Land: `aliases.fuller_name`)."""
        written = normalize_name(text).split()
        rows = self.tables.postings.get(written[-1], set()) if written else set()
        names = sorted(
            self.tables.entities[row] for row in rows
            if self.tables.entities[row] in self.tables.people and fuller_name(written, list(self.tables.entity_tokens[row]))
        )
        return [(name, 0.9) for name in names[: self.config.max_candidates]]

    def _two_names_split(self, tokens: list[Token]) -> list[Token]:
        """(role: a pair of parties) "Iran-Iraq", "China–Japan": a hyphenated word whose halves are each
        a KG name and whose whole begins none names two parties (talks, a border, a war between them)."""
        split: list[Token] = []
        for t in tokens:
            halves = re.split(r"[-‐‑–—]", t.text)
            keys = [normalize_name(h) for h in halves]
            if len(halves) == 2 and t.key not in self._name_prefixes and all(k in self.tables.by_key or k in self.tables.aliases for k in keys):
                cut = t.start + len(halves[0])
                split += [Token(halves[0], t.start, cut, keys[0]), Token(halves[1], cut + 1, t.end, keys[1])]
            else:
                split.append(t)
        return split

    # -- exact names ------------------------------------------------------------------------
    def _exact(self, text: str, tokens: list[Token], blocked: set[int]) -> list[_Candidate]:
        found = []
        for i in range(len(tokens)):
            for j in _span_ends(tokens, i, blocked, min(self.tables.max_tokens, 12)):
                closed = closed_key(tokens, i, j)  # the span as written, closed up, in the KG's spelling: the first that begins a name
                key = next((k for k in (ngram_key(text, tokens, i, j), closed, spelling_variant(closed)) if k in self._name_prefixes), None)
                if key is None:
                    if tokens[j - 1].key in PREFIXES:
                        continue  # "non aligned ...": the prefix closes onto the next word
                    break
                if not (names := self.tables.by_key.get(key)):
                    if (alias := self._alias(text, tokens, i, j, key, blocked)) is not None:
                        found.append(alias)
                    continue
                surface = text[tokens[i].start : tokens[j - 1].end]
                if surface.islower() and j - i == 1 and len(surface) < 4:
                    continue  # "us", "un": pronouns and particles, not names
                if not accepts_case(self.tables, key, surface) or self._common_noun_in_name(tokens, i, j, names, surface):
                    continue
                score = 1.0 if any(self.store.display(n) == surface for n in names) else 0.97
                start = self._title_start(tokens, i, blocked) if any(n in self.tables.people for n in names) else i
                found.append(_Candidate(start, j, [(name, score) for name in names], "exact"))
        return found

    def _common_noun_in_name(self, tokens: list[Token], i: int, j: int, names: list[str], surface: str) -> bool:
        """A capitalised common noun (the KG writes it in lower case, as Wikidata labels classes: "minister")
        inside a longer capitalised name ("Prime Minister of Quebec"): part of that name, not a mention of its own."""
        after = j + (j < len(tokens) and tokens[j].key in _WORDS["name_connectors"])
        after += after > j and after < len(tokens) and tokens[after].key == "the"
        inside = (i > 0 and _name_like(tokens, i - 1) and not _sentence_start(tokens, i - 1)) or (j < after < len(tokens) and _name_like(tokens, after))
        return inside and not surface.islower() and all(self.store.display(n)[:1].islower() for n in names)

    def _alias(self, text: str, tokens: list[Token], i: int, j: int, key: str, blocked: set[int]) -> _Candidate | None:
        """A surname, first-and-last name or acronym (agents.analysis.aliases), in any case. A one-word
        lower-case alias must be no word of general English ("meet" is no surname); two or three
        lower-case letters are an acronym only after "the" ("the eu")."""
        entries = self.tables.aliases.get(key)
        after_article = i > 0 and tokens[i - 1].key == "the"
        if not entries and i > 0 and is_title(tokens[i - 1].key) and (titled := self.tables.title_surnames.get(key)):
            # "pres banda", "fm bishop": after a title a role word is a surname, if the KG confirms it
            ranked = [(name, 0.85) for name, _ in titled[: self.config.max_candidates]]
            return _Candidate(self._title_start(tokens, i, blocked), j, ranked, "alias", why=f"surname after a title of {titled[0][0]}", confirm=True)
        if not entries:
            return None
        if entries[0][1] == UN_BODY and not after_article:
            return None  # "the Security Council" alone, not "National Security Council"
        surface = text[tokens[i].start : tokens[j - 1].end]
        confirm = needs_partner = False
        if j < len(tokens) and _name_like(tokens, j) and tokens[j].key not in CUE_WORDS:
            return None  # "Keng" of "Keng Yaik": the capitalised run is one name, read as a whole
        if i > 0 and _name_like(tokens, i - 1) and tokens[i - 1].key not in self.tables.common_words and not is_title(tokens[i - 1].key):
            return None  # "Yaik" of "Keng Yaik" (but "Chancellor Merkel", "Gov. Lingle": a title is no name)
        if surface.islower() and i > 0 and tokens[i - 1].key in _WORDS["quantifiers"]:
            return None  # "at some point", "every time": a quantifier heads a common noun, never a name
        if j - i == 1:
            word = tokens[i].key
            general = (
                word in self.tables.common_words or word in _WORDS["not_names"] or word in _PHRASE_BREAK or word in CUE_WORDS
                or word in _WORDS["frequent_english"] or (is_title(word) and j < len(tokens) and tokens[j].key in self._name_prefixes)
            )  # a title before a KG name ("king juan carlos") is part of it, not a surname ("did king visit")
            if surface.isupper() and len(surface) >= 2:
                pass  # "EU", "NATO": written as an acronym
            elif surface[:1].isupper():
                if general and (i == 0 or _sentence_start(tokens, i)):
                    return None  # "Prior to ...", "Following ...": capitalised because first
            elif general or (len(word) < 4 and not after_article and (len(word) < 3 or entries[0][1] != SURNAME)):
                return None
            elif entries[0][1] == SURNAME and i > 0 and tokens[i - 1].key in _WORDS["determiners"] | _WORDS["noun_openers"]:
                return None  # "the prize", "the last award": a lower-case noun after an article or ordinal is no surname
            elif len(word) == 3 and not after_article:
                # a short lower-case surname ("gul", "bak") is a name only where the KG links it to
                # another name of the question: otherwise it may be any short word
                confirm = needs_partner = True
            else:
                # lower case is weak evidence where the word may be something else: a first name that is
                # also a word, or a word in a verb's place ("which country said ...": no "Said")
                confirm = entries[0][1] == FIRST_NAME or _verb_slot(tokens, i)
        score = 0.9 if surface[:1].isupper() else 0.85
        ranked = [(name, score) for name, _ in entries[:self.config.max_candidates]]
        why = f"{entries[0][1]} of {entries[0][0]}"
        start = self._title_start(tokens, i, blocked) if entries[0][0] in self.tables.people else i
        return _Candidate(start, j, ranked, "alias", why=why, confirm=confirm, needs_partner=needs_partner)

    def _title_start(self, tokens: list[Token], i: int, blocked: set[int]) -> int:
        """(role: names people use) Where a person's name starts when titles stand before it ("thai pm
        abhisit", "the foreign minister lavrov"): the title, its role words and its country are part of
        the name (no sector of their own); without a title the name starts at `i`."""
        k = i - 1
        while k >= 0 and k not in blocked and is_title(tokens[k].key):
            k -= 1
        if k == i - 1:  # "djibouti's guelleh", "unesco's matsuura": the possessive says whose the person is, no party of its own
            possessive = k >= 1 and k not in blocked and tokens[k].key == "'s"
            return owner if possessive and (owner := self._qualifier_ending_at(tokens, k, names=True)) < k else i
        while k >= 0 and k not in blocked and tokens[k].key != "'s":
            if self._in_vocabulary(tokens[k]):
                k -= 1
            elif (country := self._qualifier_ending_at(tokens, k + 1)) < k + 1:
                k = country - 1
            else:
                break
        if k >= 1 and tokens[k].key == "'s" and (country := self._qualifier_ending_at(tokens, k)) < k:
            k = country - 1  # "iran's president ahmadinejad"
        return k + 1

    def _qualifier_ending_at(self, tokens: list[Token], end: int, names: bool = False) -> int:
        """Start of the longest country name or adjective ("south korean"), or with `names` any KG name,
        ending before token `end`; `end` if none."""
        for start in range(max(0, end - 4), end):
            key = ngram_key("", tokens, start, end)
            if key in self.tables.qualifier_keys or names and key in self.tables.by_key:
                return start
        return end

    # -- role of a qualifier ----------------------------------------------------------------
    def _qualifier_mentions(self, text: str, tokens: list[Token], blocked: set[int]) -> list[tuple[int, int, list[str], bool]]:
        """(start, end, qualifiers, is_adjective) for each qualifier name, alias or demonym in the text."""
        found = []
        for i in range(len(tokens)):
            for j in _span_ends(tokens, i, blocked, 8):
                key = ngram_key(text, tokens, i, j)
                if key not in self._qualifier_prefixes:
                    break
                if not (qualifiers := self.tables.qualifier_keys.get(key)):
                    continue
                surface = text[tokens[i].start : tokens[j - 1].end]
                after_article = i > 0 and tokens[i - 1].key == "the"  # "the eu", "the us": never a pronoun
                # "us officials", "uk's envoy": before a role word or a possessive, no pronoun either
                modifier = j < len(tokens) and (tokens[j].key == "'s" or self._in_vocabulary(tokens[j]))
                if not (after_article or modifier) and (not accepts_case(self.tables, key, surface) or (surface.islower() and len(surface) < 4)):
                    continue
                found.append((i, j, qualifiers, key in self.tables.adjective_keys))
        return found

    def _is_an_act(self, word: str, doer: bool = False) -> bool:
        """(role: organisation names) A noun of a relation's act that names no sector role: "the visit of
        Malaysia", "the visit from the UAE" are Malaysia's and the UAE's own visits, not some sector of them
        (Tourist (Malaysia)). With `doer`, an agent noun (-or, -er, -ic, -ist) of a relation's verb instead:
        "visitors" (Make a visit), "critics" (Criticize or denounce); "lawmakers" is a role."""
        if content_words(word) <= self._role_vocabulary or is_agent_noun(word) != doer:
            return False
        return word_key(verb_of_agent(word) if doer else word) in self._relation_keys

    def _act_after(self, tokens: list[Token], first: int) -> bool:
        """(an owner before its act) Whether the noun phrase from `first` names an act: one to three words
        of the KG's relation names, the first naming no sector role, two or more ("conventional forces")
        or one that no sector role word follows ("visit from"; not "internal affairs")."""
        if first >= len(tokens) or not self._is_an_act(tokens[first].key):
            return False
        if tokens[first].key[:6] in self._role_prefixes:
            return False  # "the Thai protests": protesters (Protester (Thailand)) do them, a sector
        k = first
        while k < len(tokens) and k - first < 3 and tokens[k].key and word_key(tokens[k].key) in self._relation_keys:
            k += 1
        return k - first >= 2 or k == len(tokens) or not self._in_vocabulary(tokens[k])

    def _in_vocabulary(self, token: Token) -> bool:
        return bool(token.key) and (content_words(token.text) <= self._role_vocabulary) and bool(content_words(token.text))

    def _role_run(self, tokens: list[Token], origin: int, step: int, blocked: set[int]) -> int:
        """The edge of the longest run of role words from token `origin`: forward (`step` 1) its end
        ("Ministry of National Defence and Security"), backward (-1) its start ("member of the
        Legislative Council"). Commas and names inside the phrase (`_inner_word`) are not counted as its words."""
        reach = k = origin
        inner = 0
        stops = _PHRASE_BREAK if step > 0 else _PHRASE_BREAK | _WORDS["determiners"]
        while 0 <= k < len(tokens) and abs(k - origin) - inner < self.config.max_role_words and k not in blocked:
            if (step > 0 or k != origin) and self._inner_word(tokens, k):
                k, inner = k + step, inner + (tokens[k].text == ",")
                continue
            if tokens[k].key in stops:
                break
            following = tokens[k + 1].key if k + 1 < len(tokens) else ""
            if step > 0 and k != origin and word_key(tokens[k].key) in self._relation_keys and following in _WORDS["object_prepositions"]:
                # a word of a relation's name ("appeal", "force") right before the preposition of its object ("appeal to",
                # "cooperation with") is the verb or act: "a taiwanese party member appeal to china"
                break
            if step > 0 and k != origin and self._verb_after_plural(tokens, k):
                break  # "taliban militants attack kabul": the verb after a plural noun
            if self._in_vocabulary(tokens[k]):
                reach = k = k + step
            elif tokens[k].key in _WORDS["role_glue"] or tokens[k].text == "/":
                k += step
            else:
                break
        return reach + (step < 0)

    def _inner_word(self, tokens: list[Token], k: int) -> bool:
        """(role lists) A token inside a role phrase that is neither a role word nor glue: a comma after a
        role word in a list ("the Ministry of Finance, Economy, Trade and Industry of Japan"), or a
        capitalised word between glue words or commas ("the Ministry of Law and Justice of India")."""
        if k == 0 or k + 1 >= len(tokens):
            return False
        before, token, after = tokens[k - 1], tokens[k], tokens[k + 1]
        if token.text == ",":
            return self._in_vocabulary(before) and (self._in_vocabulary(after) or self._inner_name(tokens, k + 1))
        return self._inner_name(tokens, k)

    def _inner_name(self, tokens: list[Token], k: int) -> bool:
        if k + 1 >= len(tokens):
            return False
        token, around = tokens[k], (tokens[k - 1], tokens[k + 1])
        if not token.text[:1].isupper() or self._in_vocabulary(token) or token.key in _PHRASE_BREAK or token.key in _WORDS["not_names"]:
            return False
        return all((t.key in _WORDS["role_glue"] and t.key != "the") or t.text == "," for t in around)

    def _verb_after_plural(self, tokens: list[Token], k: int) -> bool:
        """A plural noun ends a role phrase: a noun before another noun stays singular in English
        ("militant attacks"), so the word after "militants" is the verb; except plurals the KG's role
        names use before another word ("human rights activist") or before their head ("affairs ministry")."""
        before, word = tokens[k - 1].key, tokens[k].key
        return (
            len(before) > 3 and before.endswith("s") and not before.endswith("ss")
            and before not in self._modifier_words and self._in_vocabulary(tokens[k - 1])
            and word not in self._head_words and word.removesuffix("s") not in self._head_words
        )

    def _role_phrases(self, text: str, tokens: list[Token], blocked: set[int]) -> list[_RoleRequest]:
        """Candidate (mention start, mention end, role phrase or None for the bare country, (qualifiers,
        attributive)) around each qualifier."""
        requests: list[_RoleRequest] = []
        for i, j, qualifiers, adjective in self._qualifier_mentions(text, tokens, blocked):
            if ngram_key("", tokens, i, j) in self.tables.nation_keys:  # "zambians appeal to": a noun modifies nothing
                requests.append((i, j, None, (qualifiers, True)))
                continue
            possessive = j < len(tokens) and tokens[j].key == "'s"
            first = j + 1 if possessive else j
            attributive = adjective or possessive
            found = False
            modifies = False  # a demonym with its noun after it: "the visit of the Iranian admiral"
            # forward: "the Japanese Ministry of Finance", "Japan's finance ministry", "the US envoy"
            end = self._role_run(tokens, first, 1, blocked)
            if end > first:
                requests.append((i, end, text[tokens[first].start : tokens[end - 1].end], (qualifiers, attributive)))
                found = True
                modifies = adjective
            elif attributive and self._act_after(tokens, first):
                # (an owner before its act) "Kuwait's visit from ...", "Iraqi conventional forces":
                # the country's own act, no sector of it (Tourist (Kuwait)): the country itself
                if adjective:
                    requests.append((i, j, "", (qualifiers, True)))
            elif attributive:
                # an unknown noun after a demonym ("the Myanmar migrants"): let embeddings judge one or two words
                for width in (1, 2):
                    last = first + width - 1
                    if last >= len(tokens) or last in blocked or not tokens[last].key:
                        break
                    if tokens[last].key in _PHRASE_BREAK or tokens[last].key in _WORDS["not_names"]:
                        break
                    event = last + 1 < len(tokens) and tokens[last + 1].key in _WORDS["event_object"] and self._is_an_act(tokens[last].key)
                    if possessive and (self._is_an_act(tokens[last].key, doer=True) or event):
                        # "Kenya's visitors", "Iraq's critics", "Malaysia's visit to South Korea": Kenya's own act or those
                        # acting on it, no sector of it ("Thailand's protests" may still be its protesters)
                        break
                    requests.append((i, last + 1, text[tokens[first].start : tokens[last].end], (qualifiers, True)))
                    modifies = adjective
            # backward: "the government of Guinea-Bissau", "the citizens of Belgium"; an unknown noun before
            # "of" only where no noun follows a demonym ("the visit of the Iranian admiral": no Iranian visit)
            k = i - 1
            if k >= 0 and tokens[k].key in _WORDS["determiners"]:
                k -= 1
            if not adjective and i >= 1 and tokens[i - 1].text[:1].isupper() and self._in_vocabulary(tokens[i - 1]):
                # (role before its country) "the Member of Legislative of Govt Iran": a role
                # written right before the country's name, as the KG's "Role (Country)" reads
                start = self._role_run(tokens, i - 1, -1, blocked)
                requests.append((start, j, text[tokens[start].start : tokens[i - 1].end], (qualifiers, True)))
                found = True
            elif k >= 1 and tokens[k].key in _WORDS["linkers"]:
                start = self._role_run(tokens, k - 1, -1, blocked)
                if start <= k - 1:
                    requests.append((start, j, text[tokens[start].start : tokens[k - 1].end], (qualifiers, True)))
                    found = True
                elif tokens[k - 1].key and tokens[k - 1].key not in _PHRASE_BREAK | _WORDS["not_names"] and not modifies and not self._is_an_act(tokens[k - 1].key):
                    # "the assassin of China": one unknown noun, judged by embeddings
                    requests.append((k - 1, j, tokens[k - 1].text, (qualifiers, True)))
            if not found:
                requests.append((i, j, None, (qualifiers, adjective and self._names_a_people(tokens, i, j, blocked))))
        return requests

    def _names_a_people(self, tokens: list[Token], i: int, j: int, blocked: set[int]) -> bool:
        """(role: names people use) Whether a demonym stands as a noun ("the Cambodians", "after the
        Chinese, who ..."): a plural one always, an adjective one where no noun follows it (the end, a
        time, punctuation, a function or cue word)."""
        if ngram_key("", tokens, i, j) in self.tables.nation_keys or j >= len(tokens) or j in blocked or not tokens[j].key:
            return True
        return tokens[j].key in _PHRASE_BREAK or tokens[j].key in _WORDS["not_names"] or tokens[j].key in CUE_WORDS

    def _score_roles(self, requests: list[_RoleRequest], tokens: list[Token]) -> list[_Candidate]:
        best: dict[tuple[int, int], _Candidate] = {}
        for start, end, phrase, (qualifiers, attributive) in requests:
            own = [self.tables.qualifier_entity[q] for q in qualifiers if q in self.tables.qualifier_entity]
            if phrase == "":  # the qualifier itself, written as its adjective (see `_role_phrases`)
                if own:
                    best.setdefault((start, end), _Candidate(start, end, [(e, 0.9) for e in own], "qualifier", why="a demonym before an act: its country"))
                continue
            if phrase is None:
                if own and attributive:
                    nation = start > 0 and tokens[start - 1].key == "the"
                    best.setdefault((start, end), self._people(start, end, qualifiers, own, nation))
                if own:
                    continue  # the exact match of the country's own entity covers it
                if ngram_key("", tokens, start, end) in self._capitals:
                    # a capital stands for its government ("Berlin said"): that role where the KG has one, no other
                    government = [self._role_entity[q]["Government"] for q in qualifiers if "Government" in self._role_entity.get(q, {})]
                    if len(government) == 1:
                        best.setdefault((start, end), _Candidate(start, end, [(government[0], 0.85)], "qualifier", why="a capital for its government"))
                    continue
                # a country that is no entity itself ("the UK" in ICEWS): its most active roles
                ranked = sorted((e for q in qualifiers for _, e in self.tables.roles.get(q, [])), key=lambda e: -self.tables.fact_count.get(e, 0))
                top = [(e, 0.5) for e in ranked[: self.config.max_candidates]]
                if attributive and not (start > 0 and tokens[start - 1].key == "the"):  # "Singaporeans": its citizens first
                    citizens = self._people(start, end, qualifiers, [], False).entities
                    top = (citizens + [(e, s) for e, s in top if e not in dict(citizens)])[: self.config.max_candidates]
                if top:
                    best.setdefault((start, end), _Candidate(start, end, top, "qualifier"))
                continue
            vector = self._vectors.get(phrase)
            lists = [(q, self._role_lists.get(q, [])) for q in qualifiers]  # each qualifier's roles, scored against the phrase
            scored = [(self._role_entity[q][role], s) for q, roles in lists for (role, _, _), s in zip(roles, role_scores(phrase, roles, vector, self._role_matrix))]
            scored.sort(key=lambda pair: (-pair[1], -self.tables.fact_count.get(pair[0], 0)))
            floor = self.config.role_floor if attributive else self.config.role_floor + 0.15
            if not scored or scored[0][1] < floor:
                continue
            top = [(e, round(s, 4)) for e, s in scored[:self.config.max_candidates] if s >= 0.3]
            top += [(e, 0.3) for e in own if e not in dict(top)]
            candidate = _Candidate(start, end, top, "role")
            if (start, end) not in best or candidate.score > best[(start, end)].score:
                best[(start, end)] = candidate
        return list(best.values())

    def _people(self, start: int, end: int, qualifiers: list[str], own: list[str], nation: bool) -> _Candidate:
        """A demonym standing as a noun: with "the" the nation ("the Saudis", "the Chinese"), without it
        its citizens ("Singaporeans") first; the other reading second."""
        citizens = [self._role_entity[q]["Citizen"] for q in qualifiers if "Citizen" in self._role_entity.get(q, {})]
        first, second = (own, citizens) if nation else (citizens or own, own if citizens else [])
        ranked = [(e, 0.9) for e in first] + [(e, 0.85) for e in second if e not in first]
        why = "a people's name for its nation" if nation else "a people's name for its citizens"
        return _Candidate(start, end, ranked[: self.config.max_candidates], "role", why=why)

    # -- fallbacks for left-over names ------------------------------------------------------
    def _needs_vector(self, request: _RoleRequest) -> bool:
        """Embed a role phrase only where word overlap is inconclusive and the phrase is attributive."""
        _, _, phrase, (qualifiers, attributive) = request
        if not phrase or len(phrase.split()) > 5 or self.embedder is None:
            return False
        words = content_words(phrase)
        scores = (overlap_score(words, role_words) for q in qualifiers for _, role_words, _ in self._role_lists.get(q, []))
        return max(scores, default=0.0) < 0.99

    def _contained(self, text: str) -> list[tuple[str, float]]:
        """Entities whose name contains every word of `text` ("Keng Yaik" -> Lim Keng Yaik)."""
        scores: dict[str, float] = {}
        key_words = [w for w in normalize_name(text).split() if w not in _WORDS["name_connectors"]]
        if key_words:
            rows = set.intersection(*(self.tables.postings.get(word, set()) for word in key_words))
            for row in sorted(rows)[:200]:
                tokens = self.tables.entity_tokens[row]
                ratio = len(set(key_words)) / max(len(set(tokens)), 1)
                name = self.tables.entities[row]
                scores[name] = max(scores.get(name, 0.0), 0.55 + 0.4 * ratio)
        ranked = sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))
        return [(name, round(score, 4)) for name, score in ranked[:self.config.max_candidates]]

    def _fuzzy(self, text: str) -> list[tuple[str, float]]:
        """Names and aliases spelt almost like `text` ("Merkle", "Musharaf"): rapidfuzz's edit-distance
        ratio of at least `LinkingConfig.fuzzy_floor`, for names of five letters or more."""
        key = normalize_name(text)
        if not self.fuzzy or len(key) < 5:
            return []
        if self._fuzzy_keys is None:
            self._fuzzy_keys = sorted(set(self.tables.by_key) | set(self.tables.aliases))
        found = process.extract(key, self._fuzzy_keys, scorer=fuzz.ratio, score_cutoff=self.config.fuzzy_floor, limit=self.config.max_candidates)
        scores: dict[str, float] = {}
        for match, score, _ in found:
            names = self.tables.by_key.get(match) or [name for name, _ in self.tables.aliases.get(match, [])]
            for name in names[:self.config.max_candidates]:
                scores[name] = max(scores.get(name, 0.0), 0.9 * score / 100)
        ranked = sorted(scores.items(), key=lambda pair: (-pair[1], -self.tables.fact_count.get(pair[0], 0), pair[0]))
        return [(name, round(score, 4)) for name, score in ranked[:self.config.max_candidates]]

    def _near(self, text: str) -> list[tuple[str, np.floating]]:
        """(entity, cosine) of the names whose embeddings are nearest `text`'s (embedded already), nearest first."""
        if (vector := self._vectors.get(text)) is None or self._entity_index is None:
            return []
        sims, ids = self._entity_index.search(vector[None, :], self.config.max_candidates)
        return [(self._entity_rows[row], sim) for sim, row in zip(sims[0], ids[0]) if row >= 0]

    def _nearest(self, text: str) -> list[tuple[str, float]]:
        """Entities whose name embedding is close to the span's (cosine above `LinkingConfig.embedding_floor`)."""
        scores: dict[str, float] = {}
        for name, sim in self._near(text) if text.split() else []:
            if sim >= self.config.embedding_floor and self._spelt_like(text, name):
                scores[name] = max(scores.get(name, 0.0), float(sim) * 0.9)
        ranked = sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))
        return [(name, round(score, 4)) for name, score in ranked[:self.config.max_candidates]]

    def _whole_phrases(self, question: str, tokens: list[Token], mentions: list[_Candidate], blocked: set[int]) -> list[_Candidate]:
        """Pieces of one name the KG writes otherwise ("President" + "Italian Republic" for President of Italy, "Quebec" +
        "Prime Minister" for Premier of Quebec), joined by "of (the)", "for", "at", capitalised or the KG's common-noun
        words: read as the whole phrase where its embedding is close to one name, clearly nearest, sharing a word."""
        def inside(k: int, glue: bool) -> bool:  # a word a name's phrase may hold
            word = tokens[k] if 0 <= k < len(tokens) and k not in blocked else None
            return word is not None and (glue and word.key in _PHRASE_GLUE or _name_like(tokens, k) or word.text.islower() and word.key in self._noun_words)

        def reach(k: int, step: int) -> int:  # the farthest phrase word from k on, glue crossed only towards one
            edge = k
            while k + step not in taken and inside(k + step, glue=True):
                k += step
                edge = k if inside(k, glue=False) else edge
            return edge

        groups: list[list[_Candidate]] = []
        for mention in mentions:
            joined = groups and all(inside(k, glue=True) for k in range(groups[-1][-1].end, mention.start))
            groups[-1:] = [groups[-1] + [mention]] if joined else [*groups[-1:], [mention]]
        taken, out = {k for c in mentions for k in range(c.start, c.end)}, []
        for group in groups:
            start, end, one = reach(group[0].start, -1), reach(group[-1].end - 1, 1) + 1, group[0]
            # one mention alone is read again only where the phrase grew, or it is weak and of the KG's vocabulary ("Quebec
            # Prime Minister"; a person's name sharing a surname is another person), its first candidates do not tie (the
            # facts choose among the many countries' "Ministry of Health") and it is no country's sector role ("Chile's navy")
            weak = one.score < WEAK and one.kind not in ("role", "qualifier") and not (len(one.entities) > 1 and one.entities[0][1] == one.entities[1][1])
            vocabulary = any(t.key in self._noun_words for t in tokens[start:end])
            if len(group) > 1 or vocabulary and (weak or (start, end) != (one.start, one.end)):
                found = self._phrase_names(question[tokens[start].start : tokens[end - 1].end])
                # names side by side ("peru chile") are two parties where the phrase reads as one while another is exact
                tops = [c.entities[0][0] for c in group if c.entities]
                if found and not (found[0][0] in tops and any(c.kind == "exact" and c.score >= WEAK and c.entities[0][0] != found[0][0] for c in group)):
                    out.append(_Candidate(start, end, found, "fuzzy", why="the whole phrase's nearest name"))
                    continue
            out += group
        return out

    def _phrase_names(self, text: str) -> list[tuple[str, float]]:
        """The names (namesakes together) nearest `text`, at least `WHOLE_PHRASE_FLOOR`, nearer than any other name by
        `WHOLE_PHRASE_MARGIN` and sharing a word with it; none otherwise."""
        self._vectors.add([text])
        ranked = [(name, float(v), self.store.display(name)) for name, v in self._near(text)]
        if not ranked or ranked[0][1] < WHOLE_PHRASE_FLOOR:
            return []
        own = normalize_name(ranked[0][2]).split()
        other = next((v for _, v, display in ranked if display != ranked[0][2]), 0.0)
        shared = any(w in own or len(w) >= 4 and any(_alike(w, o) for o in own) for w in normalize_name(text).split() if len(w) >= 3 and w not in _PHRASE_GLUE)
        return [(n, round(v * 0.9, 4)) for n, v, display in ranked if display == ranked[0][2]] if shared and ranked[0][1] - other >= WHOLE_PHRASE_MARGIN else []

    def _spelt_like(self, text: str, name: str) -> bool:
        """(made-up names) Whether more words of `text` (a short one exactly) are spelt like some word
        of `name` than are proper words spelt like none: an embedding neighbour nobody spells alike is
        another name ("Tomisel Ruto" is not William Ruto); a transliteration or derived word is alike
        ("Mohammed VI", "the Laotian officials"), and a paraphrase keeps most words."""
        own = normalize_name(self.store.display(name)).split()
        acronyms = {w for w in text.split() if w.isupper()}  # "ISIL": an acronym is not spelt like its expansion
        alike = unlike = 0
        for word in normalize_name(text).split():
            if word in _WORDS["name_connectors"] or word.upper() in acronyms:
                continue
            # a short word ("Abe") is alike only as written: a letter changed makes another name; a country's
            # word ("chinese") is alike where the name holds the country, else the name is another country's
            countries = [f" {normalize_name(q)} " for q in self.tables.qualifier_keys.get(word, [])]
            if word in own or len(word) >= 4 and any(_alike(word, other) for other in own) or any(c in f" {' '.join(own)} " for c in countries):
                alike += 1
            elif countries:
                return False  # "Japanese Red Cross" is not the Norwegian one
            elif word not in self.tables.common_words:  # a vocabulary word may be paraphrased
                unlike += 1
        return alike > unlike or alike == unlike == 0


NAME_WORD_LIKENESS = 70  # see EntityLinker._spelt_like

# British spellings and the adjective of a "-ment" noun, where the KG's names are in American English
# with the noun attributive: "international governmental organisations" is International_Government_Organizations
_SPELLINGS = ((re.compile(r"isation(s?)\b"), r"ization\1"), (re.compile(r"\b(\w{4,}ment)al\b"), r"\1"))


def _alike(word: str, other: str) -> bool:
    """Two spellings of one name's word: a transliteration (rapidfuzz ratio `NAME_WORD_LIKENESS`: Mohammed
    / Muhammad 75, against under 50 between made-up names and their embedding neighbours), or a word
    derived from the other's stem ("laotian" from "laos")."""
    if fuzz.ratio(word, other) >= NAME_WORD_LIKENESS:
        return True
    root = stem(other)
    return len(root) >= 3 and word.startswith(root)


def spelling_variant(key: str) -> str:
    """`key` (a normalised name) in the KG's spelling: "-isation" as "-ization", "governmental" as
    "government". Tried only where the key as written starts no name."""
    for pattern, replacement in _SPELLINGS:
        key = pattern.sub(replacement, key)
    return key


def _mention(question: str, tokens: list[Token], candidate: _Candidate, limit: int) -> EntityMention:
    start, end = tokens[candidate.start].start, tokens[candidate.end - 1].end
    if question[start:end].count("(") > question[start:end].count(")") and question[end : end + 1] == ")":
        end += 1  # "Citizen (Belgium)": the closing parenthesis belongs to the name
    why = candidate.why or {"exact": "exact name", "role": "sector role of a country", "qualifier": "country's most active sectors",
                            "fuzzy": "closest names"}.get(candidate.kind, "")
    return EntityMention(question[start:end], (start, end), candidate.entities[:limit], why)


def _short_forms(question: str, tokens: list[Token], mentions: list[_Candidate]) -> None:
    """(role: names people use) English gives a name in full once and then shortens it: a person's surname, or initials,
    some dropped ("Angela Merkel ... before Merkel", "the Office of the UN High Commissioner for Refugees ... the
    OHCR"). A one-word mention that names nothing exactly and shortens exactly one fuller mention of the same question
    names that party, not another the word also fits."""
    def text(c: _Candidate) -> str:
        return question[tokens[c.start].start : tokens[c.end - 1].end]
    fuller = [c for c in mentions if c.kind in ("exact", "alias") and c.entities and c.end - c.start > 1]
    for short in (c for c in mentions if c.end - c.start == 1 and c.kind in ("alias", "fuzzy", "unlinked")):
        word = text(short)
        named = {c.entities[0][0] for c in fuller if shortens(word, text(c))}  # a fuller mention is never the one-word one
        if len(named) == 1:
            short.entities, short.kind = [(named.pop(), 1.0)], "alias"
            short.why = f"a short form of {short.entities[0][0]}, named in full in the question"


def _span_ends(tokens: list[Token], start: int, blocked: set[int], longest: int) -> Iterator[int]:
    """The ends of the spans of at most `longest` tokens from `start` that may name something: none holds a time's token
    (`blocked`), and none starts or ends on punctuation or a possessive."""
    if start in blocked or not tokens[start].key or tokens[start].key == "'s":
        return
    for end in range(start + 1, min(len(tokens), start + longest) + 1):
        if end - 1 in blocked:
            return
        if tokens[end - 1].key and tokens[end - 1].key != "'s":
            yield end


def _select(candidates: list[_Candidate]) -> list[_Candidate]:
    """Non-overlapping mentions, longest good match first (a role phrase beats the country inside it)."""
    ranked = sorted(candidates, key=lambda c: (-(c.end - c.start), -c.score, c.start))
    chosen: list[_Candidate] = []
    for candidate in ranked:
        if all(candidate.end <= c.start or c.end <= candidate.start for c in chosen):
            chosen.append(candidate)
    return chosen


WHOLE_PHRASE_FLOOR, WHOLE_PHRASE_MARGIN, WEAK = 0.8, 0.05, 0.8  # see EntityLinker._phrase_names
_PHRASE_GLUE = frozenset({"of", "the", "for", "at"})


def _uncovered_name_runs(tokens: list[Token], chosen: list[_Candidate], blocked: set[int]) -> list[tuple[int, int]]:
    """Capitalised token runs ("Keng Yaik", "the Mainland Affairs Council") no other source explained."""
    covered = set(blocked) | {k for c in chosen for k in range(c.start, c.end)}
    starts = {c.start for c in chosen}
    runs = []
    k = 0
    while k < len(tokens):
        if k in covered or not _name_like(tokens, k):
            k += 1
            continue
        end = k + 1
        while end < len(tokens) and end not in covered and not _sentence_start(tokens, end):  # a name ends with its sentence
            if _name_like(tokens, end):
                end += 1
            elif (tokens[end].key in _WORDS["name_connectors"] and end + 1 < len(tokens) and end + 1 not in covered
                  and _name_like(tokens, end + 1)):
                end += 2
            else:
                break
        if not _heads_a_name(tokens, k, end, starts):
            runs.append((k, end))
        k = end
    return runs


def _heads_a_name(tokens: list[Token], start: int, end: int, starts: set[int]) -> bool:
    """(role: organisation names) Whether a one-word capitalised run heads the proper name a linked
    mention completes, right after it ("the Party Chairman of Vietnam") or after "of (the)" ("the
    Member of the Judiciary of United States"): no second mention. A longer run is a name itself."""
    after = end + (end < len(tokens) and tokens[end].key == "of")
    after += after > end and after < len(tokens) and tokens[after].key == "the"
    return end - start == 1 and after in starts

def _opens_sentence(tokens: list[Token], span: tuple[int, int], alone: bool = False) -> bool:
    """One capitalised word that opens the sentence before a lower-case word ("Negative comments about
    ...", "Formal agreements were ..."), or opens the text as a label before a colon ("Fact-check: ..."):
    its capital says nothing about it being a name. `alone`: or is a sentence or clause of its own ("Thanks!",
    "Interesting.", "Also, ..."): for a word of everyday English, an aside of the asker's."""
    start, end = span
    return end - start == 1 and _sentence_start(tokens, start) and (
        end < len(tokens) and (tokens[end].key != "" and tokens[end].text[:1].islower() or start == 0 and tokens[end].text == ":")
        or alone and (end == len(tokens) or tokens[end].text in {",", ";", ":", "!", "?"} or _sentence_start(tokens, end))
    )


def _name_like(tokens: list[Token], k: int) -> bool:
    token = tokens[k]
    head, _, rest = token.text.partition("-")
    joined_particle = head in _WORDS["name_connectors"] and rest[:1].isupper()  # "al-Maliki", "el-Tayeb"
    if not token.key or token.key == "'s" or not (token.text[:1].isupper() or joined_particle):
        return False
    if (token.key in CUE_WORDS or token.key in _WORDS["opening_prepositions"] or token.key in REQUEST_VERBS) and (k == 0 or _sentence_start(tokens, k)):
        return False  # "Prior to 3 May 2008, ...", "Against which country ...", "List all ...": capitalised because it opens the sentence
    word, _, clitic = token.key.partition(" ")  # "I'm" is "i m": the pronoun with a contraction's ending
    return token.key not in _WORDS["not_names"] and not (word in _WORDS["contracted"] and clitic in _WORDS["clitics"])


def _verb_slot(tokens: list[Token], k: int) -> bool:
    """Whether token k stands where a wh-question with a wh-subject puts its verb: "who said",
    "which country said", "who first said" (a name there would need "did": "who did Said praise")."""
    j = k - 1
    while j >= 0 and tokens[j].key in _WORDS["verb_adverbs"]:
        j -= 1
    if j < 0:
        return False
    if tokens[j].key == "who":
        return True
    noun = tokens[j].text.isalpha() and tokens[j].text.islower() and tokens[j].key not in _PHRASE_BREAK | _WORDS["not_names"]
    return j >= 1 and tokens[j - 1].key in _WORDS["wh_subjects"] and noun  # "which country said", not "what did merkel"


def _sentence_start(tokens: list[Token], k: int) -> bool:
    """Whether token k opens a sentence or clause (first, after , ; : ? ! or an opening bracket, or after a word of five
    letters or more that ends a sentence with its full stop: "Interesting. Then who ...", not "Jan.", "Prof." or "U.S.")."""
    before = tokens[k - 1].text if k else ""
    return k == 0 or before in {",", ";", ":", "(", "?", "!"} or before.endswith(".") and "." not in before[:-1] and len(before) > 5


def linker_tables(store: TKGStore) -> dict:
    """What the linker looks names up in (plain containers only), built from the store once and then
    read back (tkg_store.saved): building it costs a cold `ari ask` more than answering does."""
    return saved(store, "linker-tables", lambda: _build_linker_tables(store), _LINKER_SOURCES)


def _build_linker_tables(store: TKGStore) -> dict:
    tables = build_name_tables(store)
    role_lists: dict[str, list[tuple[str, frozenset[str], int]]] = {}
    role_texts: dict[str, int] = {}
    for qualifier, roles in tables.roles.items():
        role_lists[qualifier] = [(role, content_words(role), role_texts.setdefault(role, len(role_texts))) for role, _ in roles]
    return {
        "tables": {f.name: getattr(tables, f.name) for f in dataclasses.fields(tables)},
        "name_prefixes": key_prefixes(tables.by_key) | key_prefixes(tables.aliases),
        "qualifier_prefixes": key_prefixes(tables.qualifier_keys),
        "role_lists": role_lists,
        "role_vocabulary": role_vocabulary(role_texts),
        "role_texts": list(role_texts),
        # read from every role name: kept with the tables rather than recomputed by each process
        "modifier_words": sorted({w for text in role_texts for w in normalize_name(text).split()[:-1]}),
        "head_words": sorted({normalize_name(text).rsplit(" ", 1)[-1] for text in role_texts if text.strip()}),
        # the words of every name and alias: a typing slip is read back to one (`chat_spellings.Vocabulary`)
        "name_words": sorted({w for key in (*tables.by_key, *tables.aliases) for w in key.lower().split()}),
        # the words of the names written in lower case (common nouns, as Wikidata labels classes) and of persons' names
        "lower_name_words": sorted({w for name in set(tables.entities) if name[:1].islower() for w in normalize_name(store.display(name)).split()}),
        "person_words": sorted({w for name in tables.people for w in normalize_name(store.display(name)).split()}),
    }


# The code and data that decide the tables' contents: an edit of any of these files rebuilds them.
_LINKER_SOURCES: tuple[ModuleType | Path, ...] = (
    *(sys.modules[f.__module__] for f in (_build_linker_tables, build_name_tables, content_words, normalize_name)),
    *(sys.modules[name] for name in ("agents.analysis.aliases", "agents.analysis.demonyms")),
    *LEARNED_TABLES, COUNTRIES, NAME_WORDS, ROLE_WORDS,
)
