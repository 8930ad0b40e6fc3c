"""Record schemas of PAWS-X and XNLI as published on the Hub (shared by the local-copy builders and the tasks)."""

from lm_eval_xling.data import DatasetSpec, Field

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
