"""Record schema of the Hub dataset lm-eval-xling/xparade (shared by its builder and the task loader)."""

from lm_eval_xling.data import DatasetSpec, Field

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
        # per annotator, positions in target_tokens marked new / new-but-inferable / connotation difference
        "annotator_ids": Field(list),
        "annotator_new": Field(list),
        "annotator_inf": Field(list),
        "annotator_conn": Field(list),
        "translations": Field(list),
    },
)
