"""Relation linking: rank the KG relations that connect a question's entities by fit to its wording.

Two signals. A lexicon learned from questions with known answers (the relations through which a short program over the
linked entities reaches a gold answer are credited with the masked n-grams), read back as a naive-Bayes posterior;
function-word n-grams count FUNCTION_GRAM_WEIGHT, so a sentence's scaffolding cannot outvote the word that names the
act. And the verb phrase's embedding similarity to each relation's texts (`tkg_store.relation_texts`), weighted by the
share of its words the lexicon never saw, so an unseen wording still reaches the relation whose act it names. The
weights were chosen on the learning split (dev shard 0/2). An unsure reading makes the judge abstain, naming the
words, rather than guess (`RelationLinker.unsure`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

import numpy as np

from agents.analysis.grammar_words import GRAMMAR_WORDS
from agents.analysis.polarity import contradicts
from agents.analysis.query import CONSTRAINT_WORDS
from agents.analysis.sectors import content_words
from agents.analysis.synonyms import GENERAL_SYNONYMS, SynonymMap, carries_no_act, content_word, plainer_words, said_phrases
from ari.base.calibration import Calibration, clearly_elsewhere, kind_unclear, reading_signals
from ari.base.config import JudgeConfig, LinkingConfig
from ari.base.embedding import Embedder, VectorCache
from ari.base.text import overlap_score, share_a_word, word_key, word_keys
from tkg_store.relation_lexicon import RelationLexicon
from tkg_store.relation_texts import RelationTexts, read_relation_texts, relation_text_vectors
from tkg_store.store import TKGStore

FUNCTION_GRAM_WEIGHT = 0.3  # an n-gram without a content word, relative to one with
VERB_PHRASE_WEIGHT = 10.0  # cosine(verb phrase, relation text) added to log P(relation | n-grams) ...
KNOWN_SHARE = 0.3  # ... times the share of its words the lexicon never saw, and at least this share
_PLACEHOLDER = re.compile(r"\{[ET]\d+\}")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def predicate_ngrams(masked: str, longest: int = 3) -> list[str]:
    """Word n-grams of a masked question; placeholders become boundaries so no n-gram spans an entity."""
    grams: list[str] = []
    for piece in _PLACEHOLDER.split(masked.lower()):
        words = _WORD.findall(piece)
        for n in range(1, longest + 1):
            grams += [" ".join(words[k : k + n]) for k in range(len(words) - n + 1)]
    return grams


def predicate_text(masked: str) -> str:
    """The masked question without placeholders: the text embedded to compare with relation names."""
    return " ".join(_PLACEHOLDER.sub(" ", masked).split())


def verb_phrase(masked: str, shortest: int = 4) -> str:
    """The question's content words (of `shortest` letters or more) in order, without entities, times,
    question and cue words ("Who made threats against {E1} after {T1}?" -> "made threats"): what names the act."""
    return " ".join(w for w in _WORD.findall(_PLACEHOLDER.sub(" ", masked).lower()) if content_word(w, shortest))


def capitalised_words(question: str) -> frozenset[str]:
    """The words of the question's capitalised tokens after its first, as `verb_phrase` spells them:
    parts of names ("Médecins Sans Frontières", "DGMO"), which name no act."""
    return frozenset(w for token in question.split()[1:] if token[:1].isupper() for w in _WORD.findall(token.lower()))


def bundled_lexicon_path(name: str = "multitq") -> Path:
    """The lexicon shipped with ARI for a dataset (learned on its dev questions)."""
    return Path(__file__).parent / "data" / f"{name}_relation_lexicon.json"


UNRECORDED_COSINE = 0.20  # see RelationLinker.unrecorded_predicate
CALIBRATION = Calibration.load(Path(__file__).parent / "data" / "relation_calibration.json")  # see RelationLinker.doubted
AGREEING_SHARE = 0.9  # a relation the words agree with replaces a contradicted first one as close to them (cosine; else score)


class RelationLinker:
    """Ranks a store's relations for questions, restricted to relations connecting the linked entities."""

    def __init__(
        self,
        store: TKGStore,
        embedder: Embedder | None = None,
        lexicon: RelationLexicon | None = None,
        config: LinkingConfig = LinkingConfig(),
        judge: JudgeConfig = JudgeConfig(),
        synonyms: SynonymMap | None = None,
        texts: RelationTexts | None = None,
    ) -> None:
        self.store = store
        self.lexicon = lexicon
        self.config = config
        self.judge = judge
        self.synonyms = synonyms
        self.all_relations = sorted(store.relation_names())
        self.texts = texts if texts is not None else read_relation_texts(store, None)
        self._row = {r: i for i, r in enumerate(self.all_relations)}
        self._relation_vectors = relation_text_vectors(store, embedder, self.texts) if embedder and self.all_relations else None
        self._posterior_of: tuple = (None, None, False)  # the last question's (masked, posterior, names a relation)
        self._verb_top_of: tuple[str | None, str | None] = (None, None)  # the last question's verb phrase's first relation
        self._text_vectors = VectorCache(embedder, 65536)  # verb phrase -> its embedding (`vectors_of`)

    def grams(self, masked: str) -> list[str]:
        """The question's n-grams, plus, for each word or two-word phrasal verb the lexicon never saw, the known word
        closest to it (agents.analysis.synonyms: "slammed" also counts as "criticised", "turned down" as "rejected")."""
        grams = predicate_ngrams(masked)
        if self.synonyms is None or self.lexicon is None:
            return grams
        counts = self.lexicon.counts
        found = [self.synonyms(g) for g in grams if " " not in g and g not in counts and content_word(g, 3)]  # "ink" (a deal), "vow"
        found += [self.synonyms.phrase(g) for g in grams if g.count(" ") == 1 and g not in counts]
        return grams + [w for w in found if w is not None]

    def vectors_of(self, texts: list[str]) -> list[np.ndarray | None]:
        """Embeddings of `vector_text`s for `rank` (None: no embedder, or an empty text), each distinct
        text embedded once per linker: template questions share a few hundred verb phrases."""
        self._text_vectors.add(texts)
        return [self._text_vectors.get(t) for t in texts]

    def unrecorded_predicate(self, masked: str) -> str | None:
        """The words of a verb phrase that names no relation of the KG ("born"), or None: no word (nor phrase: "went to") is known
        to the lexicon or its `synonyms`, and the predicate is no closer to any relation's texts (name and
        description, as `rank` reads them: "bankrolled" is near "Give money to someone" though far from
        every name) than `UNRECORDED_COSINE`, which sits below the learning split's predicates and unseen
        verbs of recorded events but idioms the model misreads (`benchmarks/unrecorded_floor.py`)."""
        if self.lexicon is None or self._relation_vectors is None:
            return None
        words = [w for w in verb_phrase(masked).split() if content_word(w)]
        counts = self.lexicon.counts
        if not words or said_phrases(masked) or any(w in counts or (self.synonyms is not None and self.synonyms(w) is not None) for w in words):
            return None
        (vector,) = self.vectors_of([predicate_text(masked)])
        return " ".join(words) if vector is not None and float(self._relation_vectors.similarities(vector).max()) < UNRECORDED_COSINE else None

    def vector_text(self, masked: str) -> str:
        """The text embedded to compare with relation names: the verb phrase beside a lexicon (the lexicon reads the rest
        of the sentence), with WordNet's plainer words for a verb neither the lexicon, the thesaurus nor a relation's name
        knows (`plainer_words`: "haggled with (bargain, ...)"), when no other word names the act (the KG's own word,
        "occupied", says more than WordNet's commonest sense of "number" beside it), the whole predicate without one."""
        if self.lexicon is None:
            return predicate_text(masked)
        phrase = verb_phrase(masked)
        words = phrase.split()
        content = [i for i, w in enumerate(words) if content_word(w)]
        if any(self._known(words[i], inflected=False) for i in content):
            return phrase
        plainer = [p for i in content for p in plainer_words(" ".join(words[i : i + 2])) or plainer_words(words[i])]
        return f"{phrase} ({', '.join(dict.fromkeys(plainer))})" if plainer else phrase

    def connected(self, mentions: list[list[str]]) -> list[str]:
        """The relations the question may ask about: those linking its mentions' candidates (`TKGStore.relations_linking`,
        the first `LinkingConfig.relation_candidates_per_mention` of each)."""
        return self.store.relations_linking(mentions, self.config.relation_candidates_per_mention)

    def unlinked_relation(self, masked: str, linking: set[str]) -> str | None:
        """The relation the question clearly asks about (KG-wide posterior, or word overlap without a
        lexicon, at least `asked_confidence`, and a shared content word) when none of `linking` can be
        it; None when one may be (shares a word, or gets `link_share` of the probability: naive Bayes is
        overconfident, and "hosted the visit" must not rule out Make_a_visit) or the evidence is weak."""
        words = content_words(predicate_text(masked))
        if self._names_one_of(words, linking):
            return None  # checked first: it settles most questions without the posterior
        if self.lexicon is not None:
            asked = self.lexicon.posterior(self.grams(masked), self.all_relations)
        else:
            asked = {r: overlap_score(words, self._relation_words[r]) for r in self.all_relations}
        if not asked:
            return None
        relation, confidence = max(asked.items(), key=lambda pair: (pair[1], pair[0]))
        if confidence < self.judge.asked_confidence or not share_a_word(words, self._relation_words.get(relation, frozenset())):
            return None
        if any(asked.get(r, 0.0) >= self.judge.link_share * confidence for r in linking):
            return None
        return relation

    def plausible(self, masked: str, family: set[str]) -> bool | None:
        """Whether the question may ask about one of `family` (a relation and its mirrors). True: one shares a content
        word with the predicate, gets `link_share` of the best KG-wide posterior, or is the verb phrase's first relation.
        False: none, and the wording names another relation. None: the wording names no relation: the KG-wide posterior
        alone is too overconfident to rule it out (it put Investigate first for "condemned"), so the caller decides."""
        words = content_words(predicate_text(masked))
        if self._names_one_of(words, family):
            return True
        if self._posterior_of[0] != masked:
            posterior = self.lexicon.posterior(predicate_ngrams(masked), self.all_relations) if self.lexicon else None
            named = self._names_one_of(words, self.all_relations)
            self._posterior_of = (masked, posterior, named)
        _, asked, named = self._posterior_of
        if asked and any(asked.get(r, 0.0) >= self.judge.link_share * max(asked.values()) for r in family):
            return True
        if self._verb_phrase_asks(masked, family):
            return True
        return False if named else None

    def _verb_phrase_asks(self, masked: str, family: set[str]) -> bool:
        """Whether the lexicon, reading the verb phrase alone, puts one of `family` first. The whole
        wording's posterior also reads the question frame, and a frame the learning split seldom
        used ("On what date did X commend Y?") can outweigh the verb itself ("commend": Praise_or_endorse).
        Only the verb phrase's most probable relation counts: one word's posterior is broad."""
        if self._verb_top_of[0] != masked:
            phrase = verb_phrase(masked)
            posterior = self.lexicon.posterior(predicate_ngrams(phrase), self.all_relations) if self.lexicon and phrase else None
            self._verb_top_of = (masked, max(posterior, key=posterior.__getitem__) if posterior else None)
        return self._verb_top_of[1] in family

    @cached_property
    def _relation_words(self) -> dict[str, frozenset[str]]:
        return {r: content_words(self.store.relation_text(r)) for r in self.all_relations}

    @cached_property
    def relation_keys(self) -> dict[str, frozenset[str]]:
        """Each relation's word keys (`word_keys` of its text's content words), computed once."""
        return {r: word_keys(words) for r, words in self._relation_words.items()}

    @cached_property
    def _named_keys(self) -> frozenset[str]:
        """The word keys of every relation's text."""
        return frozenset().union(*self.relation_keys.values())

    def _known(self, word: str, inflected: bool = True) -> bool:
        """Whether the reading knows a word of the verb phrase: a word of the lexicon or the thesaurus, or of a relation's
        text, itself or by its synonym; with `inflected`, also another form of a lexicon word (`SynonymMap.listed`), which
        the lexicon reads through it (`grams`), though the phrase's embedding still gains from plainer words (`vector_text`)."""
        counts = self.lexicon.counts if self.lexicon is not None else {}
        if word in counts or word in GENERAL_SYNONYMS or word_key(GENERAL_SYNONYMS.get(word, word)) in self._named_keys:
            return True
        return inflected and self.synonyms is not None and self.synonyms.listed(word)

    def _names_one_of(self, words: frozenset[str], relations: Iterable[str]) -> bool:
        """Whether the wording shares a content word with one of the relations' texts
        (`ari.base.text.share_a_word`, with each relation's word keys computed once)."""
        keys, of_relation = word_keys(words), self.relation_keys
        return bool(keys) and any(not keys.isdisjoint(of_relation.get(r, ())) for r in relations)

    def rank(self, masked: str, candidates: list[str], question_vector: np.ndarray | None) -> list[tuple[str, float]]:
        """Candidates ranked best first with a score in [0, 1] (`question_vector` embeds `vector_text(masked)`):
        the lexicon's posterior with the verb phrase's similarity added (see the module docstring); without
        lexicon evidence the similarity, else (no embedder) the word overlap with the relation's text."""
        if not candidates:
            return []
        sims = self._similarities(question_vector, candidates)
        logs, phrase = None, verb_phrase(masked).split()
        if self.lexicon is not None:
            grams = self.grams(masked)
            weights = {g: 1.0 if any(content_word(w) for w in g.split()) else FUNCTION_GRAM_WEIGHT for g in grams}
            logs = self.lexicon.log_posterior(grams, candidates, weights)
            unseen = sum(w not in self.lexicon.counts for w in phrase) / len(phrase) if phrase else 0.0  # see KNOWN_SHARE
        if logs is not None:
            if sims is not None:
                logs = logs + VERB_PHRASE_WEIGHT * max(KNOWN_SHARE, unseen) * sims
            combined = np.exp(logs - logs.max())
            scores = (self.config.lexicon_weight * combined / combined.sum()).tolist()
        elif sims is not None:
            scores = np.maximum(sims, 0.0).tolist()
        else:
            words = content_words(predicate_text(masked))
            scores = [overlap_score(words, content_words(self.store.relation_text(r))) for r in candidates]
        ranked = sorted(zip(candidates, scores), key=lambda pair: (-pair[1], pair[0]))
        if ranked and self.contradicted(masked, ranked[0][0]):  # else `unsure` refuses it
            agreeing, near = [p for p in ranked if not self.contradicted(masked, p[0])], dict(zip(candidates, sims) if sims is not None else ranked)
            if agreeing and near[agreeing[0][0]] >= AGREEING_SHARE * near[ranked[0][0]]:
                ranked = agreeing + [(r, 0.0) for r, _ in ranked if self.contradicted(masked, r)]
        return [(r, round(float(s), 4)) for r, s in self._naming_more(masked, ranked)]

    def _naming_more(self, masked: str, ranked: list[tuple[str, float]]) -> list[tuple[str, float]]:
        """`ranked` with first (the two trading scores) the candidate whose name holds every word of the question the first's
        holds and more, one a word the lexicon never saw ("cooperated economically": Cooperate_economically, not the intent
        the lexicon credits "cooperate" to); what it learned of a word stands ("supported": Praise_or_endorse)."""
        words = [w for w in verb_phrase(masked).split() if w not in CONSTRAINT_WORDS and w not in GRAMMAR_WORDS["country_nouns"]]  # the act's words
        counts = self.lexicon.counts if self.lexicon is not None else {}
        said, unseen, of_relation = {word_root(w) for w in words}, {word_root(w) for w in words if w not in counts}, self._name_roots
        first = of_relation.get(ranked[0][0], frozenset()) & said
        more = [(len(held), -k) for k, (r, _) in enumerate(ranked) if (held := of_relation.get(r, frozenset()) & said) > first and held - first & unseen]
        if not more:
            return ranked
        chosen = -max(more)[1]
        rest = [(r, ranked[chosen][1] if k == 0 else score) for k, (r, score) in enumerate(ranked) if k != chosen]  # the two trade scores
        return [(ranked[chosen][0], ranked[0][1]), *sorted(rest, key=lambda pair: (-pair[1], pair[0]))]

    @cached_property
    def _name_roots(self) -> dict[str, frozenset[str]]:
        """Each relation's name's words by `word_root`, less its examples in brackets ("(such as policy support)")."""
        return {r: frozenset(word_root(w) for w in content_words(re.sub(r"\([^)]*\)", " ", self.store.relation_text(r)))) for r in self.all_relations}

    def contradicted(self, masked: str, relation: str) -> bool:
        """Whether the verb phrase says the opposite of the relation's name and description (`agents.analysis.polarity`)."""
        return contradicts(verb_phrase(masked, 3), " ".join(self.texts.texts.get(relation, (self.store.relation_text(relation),))))

    def _similarities(self, vector: np.ndarray | None, relations: list[str]) -> np.ndarray | None:
        """cosine(verb phrase, each relation's best-matching text), or None without vectors."""
        if self._relation_vectors is None or vector is None:
            return None
        return self._relation_vectors.similarities(vector)[[self._row[r] for r in relations]]

    def signals(self, masked: str, ranked: list[tuple[str, float]], vector: np.ndarray | None) -> list[float]:
        """The reading's `reading_signals`, each from another source: the ranking's scores, the verb phrase's cosines to the relations
        kept, whether the lexicon reading the verb phrase alone puts the same kind of act first, its share of words no table knows."""
        self._verb_phrase_asks(masked, set())
        groups, top, acts = [self.texts.group(r) for r, _ in ranked], self._verb_top_of[1], [w for w in verb_phrase(masked).split() if content_word(w)]
        agrees = 0.5 if top is None else float(self.texts.group(top) == groups[0])
        unknown = sum(not self._known(w) for w in acts) / len(acts) if acts else 0.0
        sims = self._similarities(vector, [r for r, _ in ranked[: self.config.max_relations]])
        return reading_signals([s / self.config.lexicon_weight for _, s in ranked], groups, sims, agrees, unknown)

    def doubted(self, masked: str, words: list[str], ranked: list[tuple[str, float]], vector: np.ndarray | None) -> str | None:
        """A rival of another kind of act to a reading whose verb phrase has a word of an act no table knows (`words`, as `unsure` keeps
        them; of known words the learned reading stands), or None: the one a weak reading's phrase is clearly closer to (`clearly_elsewhere`:
        frame words outvote an unseen verb, "Who {E1} heaped scorn on"), or the best where the reading is more likely wrong than right by its
        `signals` (`CALIBRATION`, learned with a lexicon and vectors) and the verb phrase alone reads no kept rival first (the programs decide)."""
        if self.lexicon is None or self._relation_vectors is None or not ranked or all(self._known(w) for w in words if content_word(w)):
            return None
        kept, groups = [r for r, _ in ranked[: self.config.max_relations]], [self.texts.group(r) for r, _ in ranked]
        weak = self.judge.asked_confidence * self.config.lexicon_weight  # short of what the judge takes as asked
        if (best := clearly_elsewhere([s for _, s in ranked], groups, self._similarities(vector, kept), weak)) is not None:
            return ranked[best][0]
        if (signals := self.signals(masked, ranked, vector))[-1] == 0 or not CALIBRATION.doubts(signals) or self._verb_top_of[1] in kept[1:]:
            return None
        return next((r for (r, _), g in zip(ranked, groups) if g != groups[0]), ranked[0][0])

    def unsure(
        self, masked: str, ranked: list[tuple[str, float]], vector: np.ndarray | None, names: frozenset[str] = frozenset(), question: str = ""
    ) -> str | None:
        """Why the relation read is a guess (None: it is not): no word of the verb phrase is known to the lexicon, `synonyms`
        or a relation's name, itself or by its synonym ("abduct", "talks"; a known word beside unseen ones is read by the lexicon; words of entity `names` and
        capitalised words of the `question` name no act), and its similarity to the first relation's group
        (`RelationTexts.group`, or a shared name word) is unclear (`kind_unclear`)."""
        if ranked and self.contradicted(masked, ranked[0][0]):
            return f"not sure which event '{verb_phrase(masked, 3)}' names: its words say the opposite of {self.store.relation_text(ranked[0][0])!r}"
        proper = capitalised_words(question)
        words = [w for w in verb_phrase(masked, 3).split() if w not in names and w not in proper and w not in CONSTRAINT_WORDS and w not in GRAMMAR_WORDS["asks_when"]]
        if (elsewhere := self.doubted(masked, words, ranked, vector)) is not None:
            return f"not sure which event '{' '.join(words)}' names ({self.store.relation_text(ranked[0][0])}? {self.store.relation_text(elsewhere)}?): say it another way"
        # a phrase the thesaurus lists ("went to": visited) is known too
        unseen = [] if any(self._known(w) for w in words if not carries_no_act(w)) or said_phrases(masked) else words
        sims = self._similarities(vector, [r for r, _ in ranked]) if unseen and self.lexicon is not None and self.lexicon.counts and ranked else None
        if sims is None:
            return None
        group, keys = self.texts.group(ranked[0][0]), self.relation_keys.get(ranked[0][0], frozenset())
        alike = [self.texts.group(r) == group or not keys.isdisjoint(self.relation_keys.get(r, ())) for r, _ in ranked]
        if (other := kind_unclear(sims, alike)) is None:
            return None
        guesses = "? ".join(self.store.relation_text(r) for r in (ranked[0][0], *([ranked[other][0]] if other >= 0 else ())))
        return f"not sure which event '{' '.join(unseen)}' names ({guesses}?): say it another way"


_DERIVED = sorted(GRAMMAR_WORDS["derived_endings"], key=len, reverse=True)  # longest first


def word_root(word: str) -> str:
    """A word without its derivational and inflectional endings (while four letters remain): an adverb, an adjective and a
    noun of one act meet ("economically", "economic"), words that only begin alike do not ("commend", "comment")."""
    word = word.lower()
    while ending := next((e for e in _DERIVED if word.endswith(e) and len(word) - len(e) >= 4), None):
        word = word[: -len(ending)] + ("y" if ending == "ily" else "")  # "militarily" -> "military"
    return word
