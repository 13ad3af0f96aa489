"""Question analysis: link entities, times and relations in free text, and type the question.

    analyzer = QuestionAnalyzer(store, get_embedder())   # once per store
    analysis = analyzer.analyze("Who visited Iraq first after Kuwait?")
"""

from agents.analysis.analyzer import QuestionAnalyzer
from agents.analysis.relations import RelationLexicon, bundled_lexicon_path
from agents.analysis.types import PATTERNS, EntityMention, QuestionAnalysis, TimeMention

__all__ = ["PATTERNS", "EntityMention", "QuestionAnalysis", "QuestionAnalyzer", "RelationLexicon", "TimeMention",
           "bundled_lexicon_path"]
