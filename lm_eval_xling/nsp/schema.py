"""Record schema of the Hub dataset lm-eval-xling/nsp (shared by its builder and the task loader)."""

from lm_eval_xling.data import DatasetSpec, Field

NSP = DatasetSpec(
    hub_id="lm-eval-xling/nsp",
    subsets=("en", "sw", "ha"),
    # test: seeded sample of 10,000 generated questions; test_1k: the paper's 1000-question CoT subset.
    splits=("test", "test_1k"),
    fields={
        "id": Field(str),
        "story_id": Field(int),
        "story_length": Field(int),
        "context": Field(str),
        "context_length": Field(int),
        "distractor_distance": Field(int),
        "distractor_length": Field(int),
        "option_a": Field(str),
        "option_b": Field(str),
        "label": Field(str, choices=("A", "B")),
    },
)
