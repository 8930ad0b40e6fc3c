"""A synthetic X-PARADE raw source (annotation JSON in the real layout), written for these tests."""

from __future__ import annotations

import json
from pathlib import Path

_XPARADE_TARGETS = {
    "en": [
        "The",
        "river",
        "flows",
        "through",
        "the",
        "old",
        "city",
        ".",
        "It",
        "was",
        "named",
        "after",
        "a",
        "king",
        "in",
        "1820",
        ".",
    ],
    "es": [
        "El",
        "río",
        "cruza",
        "la",
        "ciudad",
        "vieja",
        ".",
        "Recibió",
        "el",
        "nombre",
        "de",
        "un",
        "rey",
        "en",
        "1820",
        ".",
    ],
    "hi": [
        "नदी",
        "पुराने",
        "शहर",
        "से",
        "होकर",
        "बहती",
        "है",
        "।",
        "इसका",
        "नाम",
        "1820",
        "में",
        "एक",
        "राजा",
        "के",
        "नाम",
        "पर",
        "रखा",
        "गया",
        "।",
    ],
    "zh": ["河流", "穿过", "老城", "。", "它", "在", "1820年", "以", "一位", "国王", "命名", "。"],
}


def write_synthetic_xparade(root: Path, pairs: int = 3) -> Path:
    """A raw X-PARADE source in the real layout: complete_data_<lang>/<src>-<tgt>-adj-<split>.json."""
    for other in ("es", "hi", "zh"):
        for direction in (f"en-{other}", f"{other}-en"):
            source_lang, target_lang = direction.split("-")
            tokens = _XPARADE_TARGETS[target_lang]
            for split in ("dev", "test"):
                records = []
                for i in range(pairs):
                    keys = list(range(1, len(tokens) + 1))
                    labels = {"same": [0], "new": [], "inf": []}
                    for k in keys:
                        labels[("same", "new", "inf")[(k // 4 + i) % 3]].append(k)
                    spans = {"new information": labels["new"], "new information (inferable)": labels["inf"]}
                    records.append(
                        {
                            "tokens": {"0": f"{target_lang.upper()}:", **{str(k): tokens[k - 1] for k in keys}},
                            "text": " ".join(tokens),
                            "premise": " ".join(_XPARADE_TARGETS[source_lang]),
                            "pair_type": direction,
                            "pageid": str(100 + i),
                            "title": f"Page {i}",
                            "similarity": 0.5,
                            "annotations": [{"annotator_id": a, "comment": "", "spans": spans} for a in range(3)],
                            "labels": labels,
                            "translation3": "An English translation.",
                        }
                    )
                path = root / "xparade" / f"complete_data_{other}" / f"{direction}-adj-{split}.json"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return root


# PAWS-X-style items written for these tests, parallel across languages by position: (sentence, a paraphrase of
# it, the same words with two parts swapped so the meaning changes).
