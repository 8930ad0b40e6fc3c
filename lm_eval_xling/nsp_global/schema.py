"""Record schema of the Hub dataset lm-eval-xling/nsp_global (shared by its builder and the task loader)."""

from lm_eval_xling.data import DatasetSpec, Field
from lm_eval_xling.nsp_global.languages import LANGUAGES

NSP_GLOBAL = DatasetSpec(
    hub_id="lm-eval-xling/nsp_global",
    subsets=LANGUAGES,
    splits=("test",),
    fields={
        "id": Field(str),  # the question: the same id, pages and answer letter in every language
        "story": Field(int),  # the African Storybook story number
        "title": Field(str),
        "story_pages": Field(int),
        "context_start": Field(int),  # 0-based page indices
        "context_length": Field(int),
        "answer_page": Field(int),
        "distractor_page": Field(int),
        "context": Field(str),
        "option_a": Field(str),
        "option_b": Field(str),
        "label": Field(str, choices=("A", "B")),
        "language": Field(str),
        "partial": Field(bool),  # the language asks fewer than half of English's questions
        "source": Field(str),  # the published repository the text comes from
        "license": Field(str),
        "author": Field(str),
        "translator": Field(str),  # "" for the English original
    },
)
