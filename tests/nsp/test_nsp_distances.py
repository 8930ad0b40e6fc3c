"""The built `test` split places distractors as the paper's released questions do (2-9 sentences ahead)."""

from __future__ import annotations

import csv
from collections import Counter

import pytest
from support.common import RAW, needs_raw

from lm_eval_xling.data.builders import builders

build = builders()["nsp"]


def _shares(distances: list[int]) -> dict[int, float]:
    counts = Counter(distances)
    return {d: counts[d] / len(distances) for d in range(build.MIN_DISTANCE, 11)}


@needs_raw
@pytest.mark.parametrize("language", ["en", "sw", "ha"])
def test_distance_distribution_matches_the_released_subset(language: str) -> None:
    with (RAW / "nsp" / f"nsp_{language}_1000.csv").open(encoding="utf-8", newline="") as f:
        released = _shares([int(row["distractor_distance"]) for row in csv.DictReader(f)])
    stories = (RAW / "nsp" / "stories" / f"{language}.txt").read_text(encoding="utf-8")
    built = _shares([q["distractor_distance"] for q in build.generate(stories, language)])
    assert built[10] == released[10] == 0
    total_variation = sum(abs(built[d] - released[d]) for d in built) / 2
    assert total_variation < 0.07, (built, released)
