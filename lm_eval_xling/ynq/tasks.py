"""Y-NQ: open-book reading comprehension over long English and Yoruba Wikipedia documents.

The dataset is one CSV on the Hub (facebook/Y-NQ, `Yoruba_NQ.csv`); with LM_EVAL_XLING_DATA set it is read from
`$LM_EVAL_XLING_DATA/facebook/Y-NQ/Yoruba_NQ.csv`. Headers are matched after folding accents, case, spaces,
underscores and hyphens ("Yorùbá Long Answer" == "yoruba_long_answer").

Long documents: when the prompt and the generation budget exceed the model's length, the document (never the
instruction or the question) is cut to its first tokens that fit; every sample records how much was kept.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections import Counter
from functools import cached_property
from itertools import pairwise
from pathlib import Path
from statistics import median
from typing import Any

import datasets
from lm_eval.api.metrics import mean
from lm_eval.api.task import ConfigurableTask

from lm_eval_xling.config import DATA_ENV, built_root, local_root
from lm_eval_xling.data import DatasetError, data_root, not_utf8, unreachable
from lm_eval_xling.errors import stop
from lm_eval_xling.metrics.overlap import WordTokenizer, rouge

HUB_ID = "facebook/Y-NQ"
_FIELD_LIMIT = 2**31 - 1  # csv's default, 131,072 characters, is shorter than the longest documents
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
# The card's answer-quality flags, kept on every document: {field: column}.
FLAGS = {
    "rewrite_flag": "Yorùbá Rewrite Flag",
    "answer_alignment": "Answer Alignment",
    "english_wrong_answer": "Answer_Alignment_English_Wrong_Answer",
}
_REQUIRED = ("document", "question", "long_answer")
MARGIN_TOKENS = 32  # room for a chat template's role markers around the prompt
DEFAULT_MAX_LENGTH = 2048  # lm-eval's length for a model that states none
# ROUGE's words: punctuation is no token, tone marks and underdots stay on their letters (see the README)
WORDS = WordTokenizer()
METRICS = {  # per-document metrics, each averaged: name -> higher is better
    "rouge1": True,
    "rouge2": True,
    "rougeL": True,
    "truncated": False,
    "doc_kept_share": True,
    "doc_tokens": False,
}


def fold(header: str) -> str:
    """A header's comparable form: accents dropped, lower case, runs of spaces/underscores/hyphens as one "_"."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", header) if not unicodedata.combining(c))
    return re.sub(r"[\s_\-]+", "_", plain.strip().lower())


def read_csv(path: Path) -> list[dict[str, str]]:
    """Rows keyed by folded column names; a clear error for bytes that are not UTF-8, a line CSV cannot parse,
    missing columns or empty required fields. A field has no size limit: a whole document is one."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise DatasetError(f"{HUB_ID}: {not_utf8(path, data, err)}") from None
    csv.field_size_limit(_FIELD_LIMIT)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        found = reader.fieldnames or []
        by_fold = {fold(name): name for name in found}
        missing = [name for name in COLUMNS if fold(name) not in by_fold]
        if missing:
            raise DatasetError(f"{HUB_ID}: {path}: missing columns {missing}; expected {list(COLUMNS)}, found {found}")
        rows = [{fold(k): (v or "") for k, v in row.items() if k is not None} for row in reader]
    except csv.Error as err:
        raise DatasetError(f"{HUB_ID}: {path}:{reader.line_num}: not CSV ({err})") from None
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
    """The local copy (LM_EVAL_XLING_DATA, else the cache folder's data root), else the file downloaded from the
    Hub."""
    root = data_root(HUB_ID)
    if root is not None:
        path = root / HUB_ID / CSV_NAME
        if not path.is_file():
            unset = f" or unset {DATA_ENV}" if local_root() else ""
            stop(DatasetError(f"{HUB_ID}: {path} is missing; copy the Hub's {CSV_NAME} there{unset}"))
        return path
    from huggingface_hub import hf_hub_download

    try:
        return Path(hf_hub_download(HUB_ID, CSV_NAME, repo_type="dataset"))
    except Exception as err:  # offline, or the Hub refuses: one line, with the ways to get the file
        stop(unreachable(HUB_ID, err, f"copy the Hub's {CSV_NAME} to {built_root() / HUB_ID / CSV_NAME}"))


def _words(text: str) -> int:
    return len(text.split())


def records(rows: list[dict[str, str]], language: str) -> list[dict[str, Any]]:
    """One document per CSV row in `language`, with both documents' lengths (for the length analysis) and the
    row's answer-quality flags. `row` is the row's index: Question IDs repeat (358 rows, 356 ids)."""
    name = LANGUAGES[language]
    return [
        {
            "row": index,
            "id": row["question_id"],
            "split": row["split"],
            "question": row[fold(f"{name} question")],
            "document": row[fold(f"{name} document")],
            "long_answer": row[fold(f"{name} long answer")],
            "short_answer": row[fold(f"{name} short answer")],
            "english_words": _words(row["english_document"]),
            "yoruba_words": _words(row["yoruba_document"]),
            **{flag: row[fold(column)] for flag, column in FLAGS.items()},
        }
        for index, row in enumerate(rows)
    ]


def load(language: str, **_: Any) -> datasets.DatasetDict:
    """custom_dataset hook: every question of Y-NQ in one language."""
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(records(read_csv(csv_path()), language))})


class DocumentFitter:
    """Fits the prompt to the model: cuts the document to its first tokens so that prompt + generation fit.

    The model's length and tokenizer come from the task's metadata, which lm-eval fills with the model_args:
    `max_length` or vLLM's `max_model_len` if given, else what lm-eval itself resolves from the Hugging Face config
    of `pretrained` (a nested `text_config` first) and the tokenizer (`lm_eval.models.utils.resolve_max_length`,
    default 2048), so the prompt never exceeds the length lm-eval truncates to. The tokenizer is `tokenizer` or
    `pretrained`. Without a tokenizer (e.g. an API model without `tokenizer=`), nothing is cut.
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
        for key in ("max_length", "max_model_len"):
            if self._meta.get(key):
                return int(self._meta[key])
        if self.tokenizer is None:
            return None
        from lm_eval.models.utils import resolve_max_length

        name = self._meta.get("pretrained")
        config = None
        if name and isinstance(name, str):
            from transformers import AutoConfig

            config = AutoConfig.from_pretrained(name)
        return resolve_max_length(config, self.tokenizer, default=DEFAULT_MAX_LENGTH)

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
    """ROUGE-1/2/L of the answer against the reference long answer (on WORDS), and the record of truncation."""

    def __init__(self, config: dict[str, Any] | None = None, **kwargs: Any):
        self._fits: dict[tuple[str, int], tuple[str, int, int]] = {}  # before super(): its init renders a prompt
        super().__init__(config={k: v for k, v in (config or {}).items() if k != "class"}, **kwargs)
        # Declared here rather than in the YAML's metric_list: lm-eval looks up each listed name missing from its
        # registry on the Hugging Face Hub (evaluate.load), seconds of retries per name per task offline.
        self._aggregation_list = {name: mean for name in METRICS}
        self._higher_is_better = dict(METRICS)

    @cached_property
    def _fitter(self) -> DocumentFitter:
        return DocumentFitter(self.config.metadata or {})

    def _fit(self, doc: dict[str, Any]) -> tuple[str, int, int]:
        """Fitted once per document and generation budget (`--gen_kwargs` is applied after the task is built)."""
        max_gen_toks = int((self.config.generation_kwargs or {}).get("max_gen_toks", 256))
        key = (doc["row"], max_gen_toks)
        if key not in self._fits:
            self._fits[key] = self._fitter.fit(doc, max_gen_toks)
        return self._fits[key]

    def doc_to_text(self, doc: dict[str, Any], doc_to_text=None) -> str:
        return self._fit(doc)[0]

    def process_results(self, doc: dict[str, Any], results: list[str]) -> dict[str, float]:
        _, doc_tokens, kept = self._fit(doc)
        scores = rouge([results[0]], [doc["long_answer"]], tokenizer=WORDS)
        return scores | {
            "truncated": float(kept < doc_tokens),
            "doc_kept_share": kept / doc_tokens if doc_tokens else 1.0,
            "doc_tokens": float(doc_tokens),
        }


# ---- ROUGE by document length, the comparable subset, statistics (`lm-eval-xling ynq-lengths`)

# Fixed bucket edges in words: fine where Yoruba documents lie (median 172) and around the paper's drop at ~1,500.
LENGTH_EDGES = (250, 500, 1000, 1500, 3000, 6000)
# The comparable subset: the paper hand-picked six question pairs whose English and Yoruba documents are long and
# of similar length (Table 4: 3,299 and 3,070 words on average; "over 900 words"). Its selection is not published,
# so the subset here is every pair with both documents over COMPARABLE_MIN_WORDS and within COMPARABLE_RATIO.
COMPARABLE_MIN_WORDS = 900
COMPARABLE_RATIO = 1.25
SCORES = ("rouge1", "rouge2", "rougeL")
_NO_FLAG = {"", "false", "0", "no", "none", "nan", "n/a"}


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _scores(samples: list[dict[str, Any]]) -> dict[str, float | None]:
    return {score: _mean([float(s[score]) for s in samples]) for score in SCORES}


def _equal_size(ordered: list[dict[str, Any]], buckets: int) -> list[list[dict[str, Any]]]:
    size, extra = divmod(len(ordered), buckets)
    groups, start = [], 0
    for b in range(buckets):
        end = start + size + (b < extra)
        groups.append(ordered[start:end])
        start = end
    return [g for g in groups if g]


def _fixed(ordered: list[dict[str, Any]], edges: tuple[int, ...], key: str) -> list[tuple[list[int | None], list]]:
    """(bucket [low, high) in words, its samples) for every bucket, empty ones included (None: unbounded)."""
    bounds = [0, *edges, None]
    return [
        ([low, high], [s for s in ordered if s["doc"][key] >= low and (high is None or s["doc"][key] < high)])
        for low, high in pairwise(bounds)
    ]


def _buckets(rows: list[dict[str, Any]], language: str, edges: tuple[int, ...], buckets: int | None) -> list[dict]:
    key = f"{language}_words"
    ordered = sorted(rows, key=lambda s: s["doc"][key])
    if buckets:
        groups = [([g[0]["doc"][key], g[-1]["doc"][key]], g) for g in _equal_size(ordered, buckets)]
    else:
        groups = _fixed(ordered, edges, key)
    return [{"words": words, "n": len(group), **_scores(group)} for words, group in groups]


def _comparable(samples: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """ROUGE on the comparable pairs in each language, their mean lengths, and English / Yoruba per score."""

    def comparable(doc: dict[str, Any]) -> bool:
        shorter, longer = sorted((doc["english_words"], doc["yoruba_words"]))
        return shorter > COMPARABLE_MIN_WORDS and longer <= COMPARABLE_RATIO * shorter

    out: dict[str, Any] = {"min_words": COMPARABLE_MIN_WORDS, "ratio": COMPARABLE_RATIO}
    for language, rows in samples.items():
        chosen = [s for s in rows if comparable(s["doc"])]
        words = _mean([float(s["doc"][f"{language}_words"]) for s in chosen])
        out[language] = {"n": len(chosen), "words": words, **_scores(chosen)}
    if "english" in out and "yoruba" in out:
        english, yoruba = out["english"], out["yoruba"]
        out["english_over_yoruba"] = {
            s: english[s] / yoruba[s] if english[s] is not None and yoruba[s] else None for s in SCORES
        }
    return out


def _flagged(value: str) -> bool:
    return str(value).strip().lower() not in _NO_FLAG


def statistics(rows: list[dict[str, Any]], language: str) -> dict[str, Any]:
    """The paper's Table 2 for one language's logged documents (lengths in words), and the answer-quality flags:
    the count of each value of each, and ROUGE without the rows whose English answer the annotators flagged wrong."""
    docs = [s["doc"] for s in rows]
    lengths = [d[f"{language}_words"] for d in docs]
    out: dict[str, Any] = {
        "qa": len(docs),
        "questions": len({d["id"] for d in docs}),
        "documents": len({d["document"] for d in docs}),
        "avg_doc_words": _mean([float(n) for n in lengths]),
        "median_doc_words": float(median(lengths)) if lengths else None,
        "avg_question_words": _mean([float(_words(d["question"])) for d in docs]),
        "avg_long_answer_words": _mean([float(_words(d["long_answer"])) for d in docs]),
    }
    if docs and all(flag in docs[0] for flag in FLAGS):
        out["flags"] = {flag: dict(Counter(str(d[flag]) for d in docs)) for flag in FLAGS}
        kept = [s for s in rows if not _flagged(s["doc"]["english_wrong_answer"])]
        out["without_english_wrong_answer"] = {"n": len(kept), **_scores(kept)}
    return out


def length_report(
    samples: dict[str, list[dict[str, Any]]], edges: tuple[int, ...] = LENGTH_EDGES, buckets: int | None = None
) -> dict[str, Any]:
    """ROUGE per document-length bucket for each language (fixed word edges, or `buckets` equal-size buckets),
    on the comparable pairs, and each language's statistics. `samples`: {"english"|"yoruba": logged samples}."""
    return {
        "bucketing": f"{buckets} equal-size" if buckets else f"fixed edges {list(edges)}",
        "buckets": {language: _buckets(rows, language, edges, buckets) for language, rows in samples.items()},
        "comparable": _comparable(samples),
        "statistics": {language: statistics(rows, language) for language, rows in samples.items()},
    }


def _cells(values: dict[str, Any]) -> str:
    return " | ".join("-" if values[s] is None else f"{values[s]:.1f}" for s in SCORES)


def length_table(report: dict[str, Any]) -> str:
    lines = [
        f"Buckets: {report['bucketing']}",
        "| language | bucket (document words) | n | ROUGE-1 | ROUGE-2 | ROUGE-L |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for language, groups in report["buckets"].items():
        for g in groups:
            low, high = g["words"]
            span = f"{low}+" if high is None else f"{low}-{high}"
            lines.append(f"| {language} | {span} | {g['n']} | {_cells(g)} |")
    comparable = report["comparable"]
    label = f"comparable pairs (> {comparable['min_words']} words, ratio <= {comparable['ratio']:g})"
    for language in report["buckets"]:
        c = comparable[language]
        words = "-" if c["words"] is None else f"{c['words']:.0f}"
        lines.append(f"| {language} | {label}, avg {words} words | {c['n']} | {_cells(c)} |")
    if "english_over_yoruba" in comparable:
        ratio = comparable["english_over_yoruba"]
        lines.append("English / Yoruba on the comparable pairs: " + ", ".join(
            f"{s} {'-' if ratio[s] is None else f'{ratio[s]:.2f}x'}" for s in SCORES
        ))  # fmt: skip
    lines += ["", "| language | Q&A | questions | documents | avg doc | median doc | avg question | avg long answer |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for language, st in report["statistics"].items():
        numbers = [st[k] for k in ("avg_doc_words", "median_doc_words", "avg_question_words", "avg_long_answer_words")]
        cells = " | ".join("-" if n is None else f"{n:.1f}" for n in numbers)
        lines.append(f"| {language} | {st['qa']} | {st['questions']} | {st['documents']} | {cells} |")
    return "\n".join(lines)
