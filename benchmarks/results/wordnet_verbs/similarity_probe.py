"""Cosine of a verb phrase with a relation's texts, plain and with WordNet's plainer words, for the unseen verbs
WordNet's words read right and the acts the KG does not record that they misread (README, "The risk").

    ARI_RELATION_LEXICON=<lexicon learned on dev shard 0/2> python benchmarks/results/wordnet_verbs/similarity_probe.py STORE OUT.json
"""

import json
import sys

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.relations import verb_phrase
from ari.base.embedding import get_embedder
from tkg_store.store import TKGStore

CASES = [
    ("read right", "Who did Japan implore in February 2014?", "Make_an_appeal_or_request"),
    ("read right", "Who did Wang Yi welcome in December 2007?", "Host_a_visit"),
    ("read right", "Who did Iraq wage war on in May 2014?", "Use_conventional_military_force"),
    ("read right", "Who did Thailand pour scorn on in February 2009?", "Criticize_or_denounce"),
    ("read right", "Who pointed the finger at Colombia in April 2006?", "Accuse"),
    ("read right", "Who scrutinised Citizen (Nigeria) in December 2015?", "Investigate"),
    ("read right", "Who was the first to turn China down in 2014?", "Reject"),
    ("read right", "who came to china on 8 april 2005", "Make_a_visit"),
    ("read right", "which country was cambodia blaming before oct 27 2008", "Accuse"),
    ("misread", "Who did Barack Obama marry in 2008?", "Engage_in_negotiation"),
    ("misread", "Who did Barack Obama marry in 2008?", "Express_intent_to_meet_or_negotiate"),
    ("misread", "Who did Iraq export oil to in 2009?", "Cooperate_economically"),
    ("misread", "Who did Dmitry Medvedev succeed in 2008?", "Praise_or_endorse"),
]

rows = []
with TKGStore.open(sys.argv[1]) as store:
    analyzer = QuestionAnalyzer(store, get_embedder())
    linker = analyzer.relation_linker
    for kind, question, relation in CASES:
        masked = analyzer.analyze(question).masked
        plain, expanded = linker.vectors_of([verb_phrase(masked), linker.vector_text(masked)])
        similarities = [linker._similarities(v, [relation]) for v in (plain, expanded)]
        cosine = [round(float(c[0]), 3) if c is not None else None for c in similarities]
        rows.append({"kind": kind, "question": question, "relation": relation, "text": linker.vector_text(masked), "plain": cosine[0], "expanded": cosine[1]})
        print(rows[-1])
json.dump(rows, open(sys.argv[2], "w"), indent=1)
