"""NSP masked perplexity: batched extraction vs the paper's per-row procedure, on the same LM and rows.

    python bench/nsp_features.py [--rows 64] [--batch-size 16] [--lm PATH] [--subset en] [--split test]

Rows come from the real NSP split when LM_EVAL_XLING_DATA is set, else from a synthetic NSP-shaped split (3-10
sentence contexts). The LM defaults to the embedded SmolLM2-135M folder. Both methods score both options of every
row; the batched one is `nsp-features`' own path (rows sorted by length, batched, the embedder left out of the
timing). Prints a markdown table with rows/s and the speed-up, and the largest relative difference between the two
methods' perplexities.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from lm_eval_xling import nsp_features as nf
from lm_eval_xling.data import load_dataset, local_root
from lm_eval_xling.schemas import NSP

WORDS = ("the", "child", "goat", "river", "market", "mother", "sang", "walked", "found", "a", "small", "red", "house")


def synthetic_rows(n: int, seed: int = 0) -> list[dict]:
    """NSP-shaped questions: a 3-10 sentence context and two 4-14 word options."""
    rng = random.Random(seed)

    def sentence() -> str:
        return " ".join(rng.choices(WORDS, k=rng.randint(4, 14))).capitalize() + "."

    rows = []
    for i in range(n):
        k = rng.randint(3, 10)
        rows.append({"id": f"syn-{i}", "context": " ".join(sentence() for _ in range(k)), "context_length": k})
        rows[-1] |= {"distractor_distance": 1, "distractor_length": 1, "label": "A"}
        rows[-1] |= {"option_a": sentence(), "option_b": sentence()}
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--lm", help="causal LM folder (default: the embedded SmolLM2-135M-Instruct)")
    parser.add_argument("--subset", default="en", choices=NSP.subsets)
    parser.add_argument("--split", default="test", choices=NSP.splits)
    args = parser.parse_args()

    if local_root() is not None:
        split = load_dataset(NSP, args.subset)[args.split]
        rows, source = (
            split.select(range(min(args.rows, len(split)))).to_list(),
            f"{NSP.hub_id} {args.subset}/{args.split}",
        )
    else:
        rows, source = synthetic_rows(args.rows), "synthetic"
    if args.lm is None:
        from lm_eval_xling.embedded import model_dir

        args.lm = str(model_dir())
    lm = nf.load_lm(args.lm)
    nf.option_perplexities(lm, [rows[0]["context"]], [rows[0]["option_a"]])  # warm-up

    def no_embedding(texts: list[str]) -> np.ndarray:  # the embedder is the same for both methods: not timed
        return np.ones((len(texts), 1))

    start = time.perf_counter()
    batched = {r["id"]: r for batch in nf.feature_batches(rows, lm, no_embedding, args.batch_size) for r in batch}
    batched_s = time.perf_counter() - start
    start = time.perf_counter()
    reference = [nf.option_perplexity_reference(lm, r["context"], r[k]) for r in rows for k in ("option_a", "option_b")]
    reference_s = time.perf_counter() - start
    paired = [batched[r["id"]][k] for r in rows for k in ("ppl_a", "ppl_b")]
    max_rel = max(abs(b - r) / r for b, r in zip(paired, reference, strict=True))

    print(f"{len(rows)} rows of {source}, LM {args.lm}, batch size {args.batch_size}\n")
    n = len(rows)
    print("| method | device | rows | seconds | rows/s | ratio |\n|---|---|---:|---:|---:|---:|")
    for method, seconds in (
        ("per-row reference (Algorithm 2)", reference_s),
        (f"batched ({args.batch_size})", batched_s),
    ):
        print(f"| {method} | {lm.device} | {n} | {seconds:.2f} | {n / seconds:.2f} | {reference_s / seconds:.2f} |")
    print(f"\nmax relative perplexity difference, batched vs per-row: {max_rel:.2e}")


if __name__ == "__main__":
    main()
