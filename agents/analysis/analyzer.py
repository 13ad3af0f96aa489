"""QuestionAnalyzer: free-text question -> QuestionAnalysis (entities, times, relations, type).

Everything that can be built once per store is kept on it (`TKGStore.derived`, dropped by `reload()`), so a question
costs a few milliseconds and never reads a stale linker. `analyze_batch` embeds all questions' phrases in one call.
"""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from agents.analysis.accounting import Vocabularies, unaccounted
from agents.analysis.ambiguity import resolve_by_facts, resolve_dates_by_facts
from agents.analysis.chat_spellings import CHAT_WORDS, SPELLINGS, Vocabulary, protected_ngrams, standard_spelling
from agents.analysis.demonyms import COUNTRIES, COUNTRY_ALIASES, as_country_names
from agents.analysis.discourse import as_checked_claim, without_repairs
from agents.analysis.entities import KNOWN_ENGLISH, EntityLinker
from agents.analysis.gaps import as_question
from agents.analysis.grammar import Rewrite, renumber, rewrite, role_order
from agents.analysis.grammar_words import GRAMMAR_WORDS
from agents.analysis.neighbourhood import link_in_neighbourhood
from agents.analysis.query import asked_by_noun, asked_kind, counts_a_quantity, read_query
from agents.analysis.question_form import as_yes_no, unstressed, without_asides, without_framing, without_hedges
from agents.analysis.question_type import classify, distinct_entities, in_role_order, mask, without_extremes
from agents.analysis.relations import RelationLexicon, RelationLinker, bundled_lexicon_path
from agents.analysis.synonyms import SynonymMap
from agents.analysis.times import TimeReading, read_times, stated_window, unplaced_calendar_names, with_offsets, with_stated_year
from agents.analysis.types import EntityMention, QuestionAnalysis, TimeMention
from agents.analysis.words import either
from ari.base.config import JudgeConfig, LinkingConfig
from ari.base.embedding import Embedder, english_words
from ari.base.text import marked_words, without_hashtags, without_symbols, word_key
from tkg_store.relation_lexicon import chosen_lexicon
from tkg_store.relation_texts import default_relation_texts
from tkg_store.saved import saved
from tkg_store.store import TKGStore, namesake_base, normalize_name


def _active_form(masked: str, entities: list[EntityMention]) -> tuple[str, list[EntityMention], Rewrite]:
    """The masked question in the active, one-clause form (`agents.analysis.grammar`), its entities
    renumbered in that form's role order, and the rewrite (no rules: all as they were)."""
    found = rewrite(masked)
    if not found.rules:
        return masked, entities, found
    order = role_order(found.text)
    order += [n for n in range(1, len(entities) + 1) if n not in order]  # a rule never drops an entity; if it did, it keeps its role
    reordered = [entities[n - 1] for n in order if n <= len(entities)]
    return renumber(found.text, order), reordered, found


def _kept_times(before: str, after: str, times: list[TimeMention]) -> tuple[str, list[TimeMention]]:
    """The rewritten question `after` and its times, renumbered, without the times the rewrite left out: a statement's
    time stays with the statement the question points back to (`clauses.anaphoric_reference`)."""
    gone = set(re.findall(r"\{T(\d+)\}", before)) - set(re.findall(r"\{T(\d+)\}", after))
    if not gone:
        return after, times
    kept = [n for n in range(1, len(times) + 1) if str(n) not in gone]
    return renumber(after, kept, "T"), [times[n - 1] for n in kept]


def chat_protected(store: TKGStore) -> frozenset[str]:
    """The KG names' word pairs that hold a chat spelling as a word ("george w"), and their marks
    standing alone ("company - owner"): left as written. It reads every name, so it is saved beside
    the store (`tkg_store.saved`) and built at ingest (`agents.tables`)."""
    return store.derived(("chat_protected",), lambda: frozenset(saved(store, "chat-protected", lambda: _protected(store), _CHAT_SOURCES)))


def _protected(store: TKGStore) -> list[str]:
    names = [store.display(name) for name in store.entity_names()]
    return sorted(protected_ngrams(normalize_name(name) for name in names) | marked_words(names))


def formal_names(store: TKGStore) -> re.Pattern[str] | None:
    """The KG's own names that reading a state's formal name would change ("Islamic Republic of Iran Broadcasting", a
    state of its own: "Kingdom of Italy (Q172579)", written without its note): left as written. Saved beside the store,
    as `chat_protected` is."""
    def build() -> list[str]:
        names = {n for d in map(store.display, store.entity_names()) for n in (d, namesake_base(d)) if n and as_country_names(n) != n}
        return sorted(names)
    names = saved(store, "formal-names", build, (sys.modules[as_country_names.__module__], COUNTRIES))
    return store.derived(("formal_names",), lambda: re.compile(either(names), re.IGNORECASE) if names else None)


# the code and data that decide which words are protected: an edit of these files rebuilds the saved table
_CHAT_SOURCES: tuple[ModuleType | Path, ...] = (
    *(sys.modules[f.__module__] for f in (_protected, protected_ngrams, marked_words, normalize_name)),
    CHAT_WORDS,
)


_YEAR_WORDS = re.compile(r"\b(?<=in\s)the\s+year\s+(?:of\s+)?(?=\d{4}\b)", re.IGNORECASE)  # "in the year 2008" says "in 2008"


class QuestionAnalyzer:
    """Analyses questions against one store."""

    def __init__(
        self,
        store: TKGStore,
        embedder: Embedder | None = None,
        lexicon: RelationLexicon | None = None,
        use_default_lexicon: bool = True,
        relation_embeddings: bool = True,
        linking: LinkingConfig = LinkingConfig(),
        judge: JudgeConfig = JudgeConfig(),
        names: dict[str, str] | None = None,
    ) -> None:
        self.store, self.names = store, tuple(sorted((names or {}).items()))  # learned from labelled questions (`memory.names`)
        self.embedder = embedder
        if lexicon is None and use_default_lexicon:  # $ARI_RELATION_LEXICON, else the dataset's bundled one if it fits
            lexicon = chosen_lexicon(store, bundled_lexicon_path(store.meta().get("source", "")))
        self.lexicon = lexicon
        # beside a lexicon, the verb phrase's similarity to relation names carries the wordings the
        # lexicon never saw (one embedding per distinct verb phrase); without one it is the only signal
        self._relation_embedder = embedder if embedder is not None and (relation_embeddings or lexicon is None) else None
        self.linking, self.judge = linking, judge
        self.max_relations = linking.max_relations

    @property
    def entity_linker(self) -> EntityLinker:
        """The store's entity linker for this embedder (built once per store, rebuilt after `reload()`)."""
        embedder = self.embedder
        key = ("entity_linker", embedder.name if embedder is not None else None, self.linking, self.names)
        return self.store.derived(key, lambda: EntityLinker(self.store, embedder, self.linking, names=dict(self.names)))

    @property
    def relation_linker(self) -> RelationLinker:
        embedder, lexicon = self._relation_embedder, self.lexicon
        key = ("relation_linker", embedder.name if embedder is not None else None, id(lexicon), self.linking, self.judge)
        return self.store.derived(key, lambda: RelationLinker(
            self.store, embedder, lexicon, self.linking, self.judge, self._synonyms(),
            default_relation_texts(self.store, Path(__file__).parent / "data"),  # read once, with the linker
        ))

    @property
    def vocabulary(self) -> Vocabulary:
        """The words a typing slip is read back to (`chat_spellings.Vocabulary`): the KG's name and
        relation words, the lexicon's, the English the analysis reads; English words are left alone."""
        key = ("spelling", self.embedder.name if self.embedder is not None else None, id(self.lexicon))
        return self.store.derived(key, self._vocabulary)

    def _vocabulary(self) -> Vocabulary:
        english = english_words(self.embedder.name) if self.embedder is not None else frozenset()
        if not english:
            return Vocabulary((), english)  # no word can be told from a slip: nothing to correct
        # the names' words come saved with the linker's tables (reading every name here grows with the KG); a country's other
        # names ("Malian") are no slips; an abbreviation stands for a word of the reading's own
        texts = [*(self.lexicon.counts if self.lexicon else ()), *(name for country, aliases in COUNTRY_ALIASES.items() for name in (country, *aliases))]
        reading = {w for r in self.store.relation_names() for w in self.store.relation_text(r).lower().split()} | KNOWN_ENGLISH | set(SPELLINGS.values())
        return Vocabulary([*self.entity_linker.name_words, *reading, *(w for text in texts for w in text.lower().split())], english, reading)

    @property
    def vocabularies(self) -> Vocabularies:
        """What a word the reading leaves over may be (`agents.analysis.accounting`), built once per store."""
        grams = self.lexicon.counts if self.lexicon is not None else {}
        return self.store.derived(("accounting", id(self.lexicon)), lambda: Vocabularies(
            self._name_words(), KNOWN_ENGLISH | {w for g in grams for w in g.split()}, english_words(self.embedder.name) if self.embedder else frozenset()))

    def _stressable(self) -> frozenset[str]:
        """The analysis's own English that no KG name or alias (but a surname's) is: written in capitals, only stressed."""
        tables = self.entity_linker.tables
        return self.store.derived(("stressable",), lambda: frozenset(w for w in KNOWN_ENGLISH | GRAMMAR_WORDS["function_words"] if w not in tables.by_key
                                                                     and all(kind == "surname" for _, kind in tables.aliases.get(w, ()))))

    def _name_words(self) -> frozenset[str]:
        return self.store.derived(("name_word_set",), lambda: frozenset(self.entity_linker.name_words))

    def _synonyms(self) -> SynonymMap | None:
        """Unseen verbs mapped to the lexicon's words (`agents.analysis.synonyms`); needs both."""
        lexicon, embedder = self.lexicon, self.embedder
        if lexicon is None or embedder is None:
            return None
        return SynonymMap({g: sum(row.values()) for g, row in lexicon.counts.items() if " " not in g}, embedder)

    def analyze(self, question: str) -> QuestionAnalysis:
        return self.analyze_batch([question])[0]

    def analyze_batch(self, questions: list[str], rank_relations: bool = True) -> list[QuestionAnalysis]:
        protected, vocabulary, formal = chat_protected(self.store), self.vocabulary, formal_names(self.store)
        # the one normalisation: a marked unknown asked ("____ visited X", "Name this country."), symbols that are no words out ("visited 😀 Iran"), chat spellings and
        # typing slips written out ("wat yr ... vistied ... b4 08"), asides and a framing clause set aside ("For a briefing on X, who
        # ..."), a state's formal name as its plain one ("the Kingdom of Morocco"); asides first, while the dashes that set them off
        # are there; a short one holds no KG name word but English ones
        stressable, naming = self._stressable(), self.store.derived(("naming",), lambda: self._name_words() - KNOWN_ENGLISH - GRAMMAR_WORDS["function_words"])
        questions = [_YEAR_WORDS.sub("", without_framing(vocabulary.corrected(standard_spelling(without_symbols(without_hedges(without_asides(as_yes_no(as_question(as_checked_claim(without_repairs(unstressed(as_country_names(without_hashtags(q), formal), stressable))))), naming)), protected), protected)))) for q in questions]
        questions = [stated_window(with_stated_year(with_offsets(q))) for q in questions]
        readings = [read_times(q) for q in questions]
        entities = self.entity_linker.link_batch(questions, [[t.span for t in reading.found] for reading in readings])
        analyses = [self._analysis(*reading) for reading in zip(questions, entities, readings)]
        if rank_relations:
            self._rank_relations(analyses)
            postings = self.entity_linker.tables.postings
            for k, reading in enumerate(zip(questions, entities, readings)):
                # a name left unlinked, read among the KG neighbours of the rest: the question is read again with it
                if link_in_neighbourhood(self.store, reading[1], analyses[k].relations, lambda w: len(postings.get(w, ()))):
                    analyses[k] = self._analysis(*reading)
                    self._rank_relations(analyses[k : k + 1])
        return analyses

    def _analysis(self, question: str, mentions: list[EntityMention], reading: TimeReading) -> QuestionAnalysis:
        resolve_by_facts([m for m in mentions if m.candidates], self.store)
        ts = resolve_dates_by_facts(reading.found, mentions, self.store)
        ordered = in_role_order(question, [m for m in mentions if m.candidates])
        ents = distinct_entities(ordered)
        masked = self._kind_asked(mask(question, ordered, ts), ents)
        query = read_query(question, masked, len(ts), [m.span for m in ents])  # as written: a rewrite may drop the opening
        active, ents, rewritten = _active_form(masked, ents)
        masked, kept = _kept_times(masked, active, ts)
        query = counts_a_quantity(asked_by_noun(query, masked), masked, self._name_words())
        grammar = rewritten.rules
        # a rewritten question is typed in its rewritten form: "the same month in which X did" asks no month
        kind = classify(masked if grammar else question, kept, masked)
        if query.ordinal or query.extreme:  # "second to last", "most often": no first or last is asked
            kind = without_extremes(kind)
        if query.entity_type and kind.answer_type == "time":  # "which country ... that year": a party is asked, a time pointed at
            kind = replace(kind, answer_type="entity")
        return QuestionAnalysis(
            question, masked, ents, kept, answer_type=kind.answer_type, time_level=kind.time_level, pattern=kind.pattern,
            cue=kind.cue, cues=kind.cues, unlinked=[m for m in mentions if not m.candidates], beyond_times=reading.beyond,
            unreadable_times=reading.unreadable + unplaced_calendar_names(question, [t.span for t in ts] + [m.span for m in mentions], ts),
            grammar=grammar, grammar_dropped=rewritten.dropped, query=query, asked_kind=asked_kind(masked), unaccounted=unaccounted(masked, self.vocabularies),
        )

    def _kind_asked(self, masked: str, ents: list[EntityMention]) -> str:
        """"What politician was the last {E1}" asks who: a person's noun asked with names an act only where a party named does."""
        m = re.match(r"(\W*)(?:what|which)\s+([a-z]{2,}(?:ian|er|or|ist|ant)s?)\b", masked, re.IGNORECASE)
        if m is None or not ents or m.group(2).lower() in GRAMMAR_WORDS["country_nouns"] | GRAMMAR_WORDS["time_nouns"]:
            return masked
        keys = self.relation_linker.relation_keys  # each relation's word keys, as the ranking reads its name
        acts, taken = {r for r, held in keys.items() if word_key(m.group(2)) in held}, set().union(*(self.store.relations_of(e.best) for e in ents if e.best))
        return masked if not acts or acts & taken else f"{m.group(1)}Who{masked[m.end():]}"

    def _rank_relations(self, analyses: list[QuestionAnalysis]) -> None:
        linker = self.relation_linker
        names = self._name_words()
        # relations are ranked by the masked question and the words a grammar rule dropped from it
        texts = [f"{a.masked} {a.grammar_dropped}" if a.grammar_dropped else a.masked for a in analyses]
        vectors = linker.vectors_of([linker.vector_text(t) for t in texts])
        for analysis, text, vector in zip(analyses, texts, vectors):
            # "what happened between X and Y" names no relation by design: it asks for them
            asks_relations = analysis.query.unsupported or analysis.query.asks == "relation"
            unrecorded = None if asks_relations else linker.unrecorded_predicate(analysis.masked)
            if unrecorded is not None:
                analysis.query = replace(analysis.query, unsupported=f"a relation the KG does not record ({unrecorded!r}: its facts are events between actors)")
            mentions = [[name for name, _ in m.candidates] for m in analysis.entities]
            candidates = linker.connected(mentions)
            ranked = linker.rank(text, candidates, vector)
            analysis.unsure_relation = None if asks_relations else linker.unsure(analysis.masked, ranked, vector, names, analysis.question)
            analysis.relations = ranked[: self.max_relations]
