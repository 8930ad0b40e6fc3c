"""A Y-NQ CSV in the card's schema, with English and Yoruba text written for these tests."""

from __future__ import annotations

import csv
import random
from pathlib import Path

# Y-NQ-style text written for these tests: English and Yoruba sentences about one town and its river.
_YNQ_EN = [
    "The river Osun flows past the town of Osogbo in the south west of the country.",
    "Every year in August the people of the town hold a festival for the river.",
    "The king of the town leads the procession to the sacred grove beside the water.",
    "Artists from many countries have made sculptures that stand among the trees of the grove.",
    "The grove was named a world heritage site in the year two thousand and five.",
]
_YNQ_YO = [
    "Odò Ọ̀ṣun ń ṣàn kọjá ìlú Òṣogbo ní ìwọ̀ oòrùn gúúsù orílẹ̀-èdè náà.",
    "Ní oṣù Ògún ọdọọdún, àwọn ará ìlú máa ń ṣe ọdún fún odò náà.",
    "Ọba ìlú náà ló máa ń ṣáájú àwọn ènìyàn lọ sí igbó mímọ́ lẹ́bàá omi.",
    "Àwọn oníṣẹ́ ọnà láti ọ̀pọ̀ orílẹ̀-èdè ti gbẹ́ ère tí ó dúró láàrin àwọn igi igbó náà.",
]
# (English document words, Yoruba document words) per question: long English documents, two comparable pairs
YNQ_LENGTHS = [(9000, 300), (3000, 200), (1200, 120), (400, 90), (100, 60), (60, 40)]


def _ynq_text(sentences: list[str], words: int, seed: int) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < words:
        out.extend(rng.choice(sentences).split())
    return " ".join(out[:words])


def ynq_rows() -> list[dict[str, str]]:
    """Rows of a Y-NQ CSV in the card's schema (our own text), by the card's column names."""
    from lm_eval_xling.ynq.tasks import COLUMNS

    rows = []
    for i, (en_words, yo_words) in enumerate(YNQ_LENGTHS):
        values = [
            f"q{i}", "test", _ynq_text(_YNQ_EN, en_words, i), f"Who leads the procession to the grove ({i})?",
            _YNQ_EN[2], "the king", _ynq_text(_YNQ_YO, yo_words, i), "False", f"Ta ló ń ṣáájú lọ sí igbó ({i})?",
            "Ọba", _YNQ_YO[2], "paragraph 3", "aligned", "",
        ]  # fmt: skip
        rows.append(dict(zip(COLUMNS, values, strict=True)))
    return rows


def write_ynq_csv(path: Path, rows: list[dict[str, str]], header: list[str] | None = None) -> Path:
    """A Y-NQ CSV (`header` renames the columns, in the card's order)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header or list(rows[0]))
        writer.writerows([list(row.values()) for row in rows])
    return path
