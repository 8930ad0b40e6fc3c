"""Record schemas of the Hub datasets that the tasks read (shared by the builders and the task loaders)."""

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

XPARADE_DIRECTIONS = ("en-es", "es-en", "en-hi", "hi-en", "en-zh", "zh-en")
XPARADE = DatasetSpec(
    hub_id="lm-eval-xling/xparade",
    subsets=XPARADE_DIRECTIONS,  # "<source language>-<target language>", the data's pair_type
    splits=("dev", "test"),
    fields={
        "id": Field(str),
        "pageid": Field(str),
        "title": Field(str),
        "source_lang": Field(str),
        "target_lang": Field(str),
        "source": Field(str),
        "target": Field(str),
        # the target paragraph's tokens in order (the source's language tag "0" left out), one gold label each
        "target_tokens": Field(list),
        "gold": Field(list),
        # per annotator, positions in target_tokens marked new / new-but-inferable
        "annotator_ids": Field(list),
        "annotator_new": Field(list),
        "annotator_inf": Field(list),
        "translations": Field(list),
    },
)

# Multi-sense consistency (Ohmer et al.): existing Hub datasets, read as published (configs = languages, split test).
# Their local copies (hub_datasets/pawsx, hub_datasets/xnli) hold exactly these columns, so both sources give the
# same records.
XSENSE_LANGUAGES = ("en", "de", "zh")
PAWSX = DatasetSpec(
    hub_id="google-research-datasets/paws-x",
    subsets=XSENSE_LANGUAGES,
    splits=("test",),
    fields={
        "id": Field(int),  # the PAWS pair id, shared by the translations of one pair
        "sentence1": Field(str),
        "sentence2": Field(str),
        "label": Field(int, choices=(0, 1)),  # 1 = paraphrase, 0 = not a paraphrase
    },
)
XNLI = DatasetSpec(
    hub_id="facebook/xnli",
    subsets=XSENSE_LANGUAGES,
    splits=("test",),
    fields={
        "premise": Field(str),
        "hypothesis": Field(str),
        "label": Field(int, choices=(0, 1, 2)),  # 0 entailment, 1 neutral, 2 contradiction
    },
)
