"""Record schema of the Hub dataset lm-eval-xling/quench (shared by its builder and the task loader)."""

from lm_eval_xling.data import DatasetSpec, Field

QUENCH = DatasetSpec(
    hub_id="lm-eval-xling/quench",
    subsets=("default",),
    splits=("test",),
    fields={
        "id": Field(str),
        "question": Field(str),
        # answers[i] and rationales[i] belong to variables[i]
        "variables": Field(list),
        "answers": Field(list),
        "rationales": Field(list),
        "themes": Field(list),
        "title": Field(str),
        "source": Field(str),
        "indic": Field(bool),
    },
)
