"""Y-NQ: open-book reading comprehension over long English and Yoruba Wikipedia documents.

The dataset is one CSV on the Hub (facebook/Y-NQ, `Yoruba_NQ.csv`); with LM_EVAL_XLING_DATA set it is read from
`$LM_EVAL_XLING_DATA/facebook/Y-NQ/Yoruba_NQ.csv`. Headers are matched after folding accents, case, spaces,
underscores and hyphens ("Yorùbá Long Answer" == "yoruba_long_answer").

Long documents: when the prompt and the generation budget exceed the model's length, the document (never the
instruction or the question) is cut to its first tokens that fit; every sample records how much was kept.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from functools import cached_property
from pathlib import Path
from typing import Any

import datasets
from lm_eval.api.task import ConfigurableTask

from lm_eval_xling.data import DATA_ENV, DatasetError, local_root
from lm_eval_xling.metrics.overlap import rouge

HUB_ID = "facebook/Y-NQ"
CSV_NAME = "Yoruba_NQ.csv"
# The card's columns, by their folded names.
COLUMNS = (
    "Question ID", "Split", "English Document", "English Question", "English Long Answer", "English Short Answer",
    "Yorùbá Document", "Yorùbá Rewrite Flag", "Yorùbá Question", "Yorùbá Short Answer", "Yorùbá Long Answer",
    "Yorùbá Paragraph Info", "Answer Alignment", "Answer_Alignment_English_Wrong_Answer",
)  # fmt: skip
# The paper's prompt, verbatim (including the missing space after "question,").
PROMPT = (
    "Given the following passage and a question,answer the question in a single paragraph with information found in "
    "the passage.\n\n####\nPASSAGE\n{document}\n\n####\nQUESTION\n{question}\n\n####\nANSWER\n"
)
LANGUAGES = {"english": "English", "yoruba": "Yoruba"}
_REQUIRED = ("document", "question", "long_answer")
MARGIN_TOKENS = 32  # room for a chat template's role markers around the prompt


def fold(header: str) -> str:
    """A header's comparable form: accents dropped, lower case, runs of spaces/underscores/hyphens as one "_"."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", header) if not unicodedata.combining(c))
    return re.sub(r"[\s_\-]+", "_", plain.strip().lower())


def read_csv(path: Path) -> list[dict[str, str]]:
    """Rows keyed by folded column names; a clear error for missing columns or empty required fields."""
    with path.open(encoding="utf-8-sig", newline="") as f:
        reader = csv.DictReader(f)
        found = reader.fieldnames or []
        by_fold = {fold(name): name for name in found}
        missing = [name for name in COLUMNS if fold(name) not in by_fold]
        if missing:
            raise DatasetError(f"{HUB_ID}: {path}: missing columns {missing}; expected {list(COLUMNS)}, found {found}")
        rows = [{fold(k): (v or "") for k, v in row.items() if k is not None} for row in reader]
    for index, row in enumerate(rows):
        for language in LANGUAGES:
            for field in _REQUIRED:
                if not row[fold(f"{LANGUAGES[language]} {field}")].strip():
                    column = by_fold[fold(f"{LANGUAGES[language]} {field}")]
                    raise DatasetError(f"{HUB_ID}: {path} record {index} (line {index + 2}) field {column!r}: empty")
    if not rows:
        raise DatasetError(f"{HUB_ID}: {path} holds no records")
    return rows


def csv_path() -> Path:
    """The local copy under LM_EVAL_XLING_DATA, else the file downloaded from the Hub."""
    root = local_root()
    if root is not None:
        path = root / HUB_ID / CSV_NAME
        if not path.is_file():
            raise DatasetError(f"{HUB_ID}: {path} is missing; copy the Hub's {CSV_NAME} there or unset {DATA_ENV}")
        return path
    from huggingface_hub import hf_hub_download

    return Path(hf_hub_download(HUB_ID, CSV_NAME, repo_type="dataset"))


def _words(text: str) -> int:
    return len(text.split())


def records(rows: list[dict[str, str]], language: str) -> list[dict[str, Any]]:
    """One document per question in `language`, with both documents' lengths (for the length analysis)."""
    name = LANGUAGES[language]
    return [
        {
            "id": row["question_id"],
            "split": row["split"],
            "question": row[fold(f"{name} question")],
            "document": row[fold(f"{name} document")],
            "long_answer": row[fold(f"{name} long answer")],
            "short_answer": row[fold(f"{name} short answer")],
            "english_words": _words(row["english_document"]),
            "yoruba_words": _words(row["yoruba_document"]),
        }
        for row in rows
    ]


def load(language: str, **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook: every question of Y-NQ in one language."""
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(records(read_csv(csv_path()), language))})


class DocumentFitter:
    """Fits the prompt to the model: cuts the document to its first tokens so that prompt + generation fit.

    The model's length and tokenizer come from the task's metadata, which lm-eval fills with the model_args:
    `max_length` if given, else the Hugging Face config of `pretrained` (as lm-eval's hf model reads it); the
    tokenizer `tokenizer` or `pretrained`. Without both (e.g. an API model without `tokenizer=`), nothing is cut.
    """

    def __init__(self, metadata: dict[str, Any]):
        self._meta = metadata

    @cached_property
    def tokenizer(self):
        name = self._meta.get("tokenizer") or self._meta.get("pretrained")
        if not name or not isinstance(name, str):
            return None
        from transformers import AutoTokenizer

        return AutoTokenizer.from_pretrained(name)

    @cached_property
    def max_length(self) -> int | None:
        if self._meta.get("max_length"):
            return int(self._meta["max_length"])
        name = self._meta.get("pretrained")
        if not name or not isinstance(name, str):
            return None
        from transformers import AutoConfig

        config = AutoConfig.from_pretrained(name)
        for attr in ("n_positions", "max_position_embeddings", "n_ctx"):
            if getattr(config, attr, None):
                return int(getattr(config, attr))
        return None

    def fit(self, doc: dict[str, Any], max_gen_toks: int) -> tuple[str, int, int]:
        """(prompt, document tokens, tokens kept); 0 tokens when the model's length or tokenizer is unknown."""
        full = PROMPT.format(document=doc["document"], question=doc["question"])
        if self.tokenizer is None or self.max_length is None:
            return full, 0, 0
        doc_ids = self.tokenizer(doc["document"], add_special_tokens=False)["input_ids"]
        frame = len(self.tokenizer(PROMPT.format(document="", question=doc["question"]))["input_ids"])
        room = max(self.max_length - max_gen_toks - MARGIN_TOKENS - frame, 0)
        if len(doc_ids) <= room:
            return full, len(doc_ids), len(doc_ids)
        kept = self.tokenizer.decode(doc_ids[:room])
        return PROMPT.format(document=kept, question=doc["question"]), len(doc_ids), room


class YNQTask(ConfigurableTask):
    """ROUGE-1/2/L of the answer against the reference long answer, and the record of document truncation."""

    def __init__(self, config: dict[str, Any] | None = None, **kwargs: Any):
        self._fits: dict[tuple[str, int], tuple[str, int, int]] = {}  # before super(): its init renders a prompt
        super().__init__(config={k: v for k, v in (config or {}).items() if k != "class"}, **kwargs)

    @cached_property
    def _fitter(self) -> DocumentFitter:
        return DocumentFitter(self.config.metadata or {})

    def _fit(self, doc: dict[str, Any]) -> tuple[str, int, int]:
        """Fitted once per document and generation budget (`--gen_kwargs` is applied after the task is built)."""
        max_gen_toks = int((self.config.generation_kwargs or {}).get("max_gen_toks", 256))
        key = (doc["id"], max_gen_toks)
        if key not in self._fits:
            self._fits[key] = self._fitter.fit(doc, max_gen_toks)
        return self._fits[key]

    def doc_to_text(self, doc: dict[str, Any], doc_to_text=None) -> str:
        return self._fit(doc)[0]

    def process_results(self, doc: dict[str, Any], results: list[str]) -> dict[str, float]:
        _, doc_tokens, kept = self._fit(doc)
        scores = rouge([results[0]], [doc["long_answer"]], language=None)
        return scores | {
            "truncated": float(kept < doc_tokens),
            "doc_kept_share": kept / doc_tokens if doc_tokens else 1.0,
            "doc_tokens": float(doc_tokens),
        }


# ---- ROUGE by document length (`lm-eval-xling ynq-lengths`)

COMPARABLE_RATIO = 2.0  # a question pair is "of comparable length" when the longer document is at most twice the other
SCORES = ("rouge1", "rouge2", "rougeL")


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def length_report(samples: dict[str, list[dict[str, Any]]], buckets: int = 4) -> dict[str, Any]:
    """ROUGE per equal-size document-length bucket for each language, and on the question pairs whose English
    and Yoruba documents are of comparable length. `samples`: {"english"|"yoruba": logged samples}."""
    report: dict[str, Any] = {"buckets": {}, "comparable": {"ratio": COMPARABLE_RATIO}}
    for language, rows in samples.items():
        ordered = sorted(rows, key=lambda s: s["doc"][f"{language}_words"])
        size, extra = divmod(len(ordered), buckets)
        groups, start = [], 0
        for b in range(buckets):
            end = start + size + (b < extra)
            groups.append(ordered[start:end])
            start = end
        report["buckets"][language] = [
            {
                "words": [group[0]["doc"][f"{language}_words"], group[-1]["doc"][f"{language}_words"]],
                "n": len(group),
                **{score: _mean([float(s[score]) for s in group]) for score in SCORES},
            }
            for group in groups
            if group
        ]
        comparable = [
            s
            for s in rows
            if max(s["doc"]["english_words"], s["doc"]["yoruba_words"])
            <= COMPARABLE_RATIO * max(min(s["doc"]["english_words"], s["doc"]["yoruba_words"]), 1)
        ]
        report["comparable"][language] = {"n": len(comparable)} | {
            score: _mean([float(s[score]) for s in comparable]) for score in SCORES
        }
    return report


def length_table(report: dict[str, Any]) -> str:
    lines = [
        "| language | bucket (document words) | n | ROUGE-1 | ROUGE-2 | ROUGE-L |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for language, groups in report["buckets"].items():
        for g in groups:
            scores = " | ".join(f"{g[s]:.1f}" for s in SCORES)
            lines.append(f"| {language} | {g['words'][0]}-{g['words'][1]} | {g['n']} | {scores} |")
    for language, c in report["comparable"].items():
        if language != "ratio":
            scores = " | ".join(f"{c[s]:.1f}" for s in SCORES)
            lines.append(f"| {language} | comparable pairs (ratio <= {COMPARABLE_RATIO:g}) | {c['n']} | {scores} |")
    return "\n".join(lines)
