"""An LLM jury: judge models, declared as lm-eval models, score items once per task; verdicts are cached.

Judges come from task metadata or `--metadata`, e.g.
`{"judges": [{"model": "local-chat-completions", "model_args": "model=m,base_url=http://127.0.0.1:8000/v1/chat/completions"},
{"model": "hf", "model_args": "pretrained=Qwen/Qwen2.5-7B-Instruct"}]}`. lm-eval builds each judge and batches its
requests (API judges: `num_concurrent` in their model_args). As in the paper, a judge may be the evaluated model;
`"judge_exclude_self": true` skips it instead.
Every verdict is written to a SQLite cache keyed by judge and prompt as soon as it arrives, so a re-run or a resumed
run asks nothing twice; a judge failure (after lm-eval's own retries) is marked on the item, never cached, and
retried by the next run.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lm_eval_xling.errors import UserError
from lm_eval_xling.redact import is_credential

log = logging.getLogger("lm_eval.xling.jury")  # under lm-eval's logger, so its CLI shows these lines

_CHUNK = 64


def _parse_args(model_args: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in model_args.split(",") if "=" in part)


@dataclass(frozen=True)
class Judge:
    """One judge: an lm-eval model name and its model_args."""

    model: str
    model_args: str
    name: str

    @classmethod
    def from_spec(cls, spec: dict[str, str]) -> Judge:
        args = _parse_args(spec.get("model_args", ""))
        if secrets := [k for k, v in args.items() if is_credential(k, v)]:
            # model_args end up in results and logs; credentials go in the environment (e.g. OPENAI_API_KEY)
            raise UserError(f"judge {spec.get('model')}: put {secrets} in the environment, not in model_args")
        name = spec.get("name") or args.get("model") or args.get("pretrained") or spec["model"]
        return cls(spec["model"], spec.get("model_args", ""), re.sub(r"\W+", "_", Path(name).name).strip("_"))

    @property
    def identity(self) -> str:
        """Model and arguments without credentials: what makes two verdicts interchangeable."""
        args = _parse_args(self.model_args)
        kept = {k: v for k, v in sorted(args.items()) if not is_credential(k, v) and k not in _RUNTIME_ARGS}
        return json.dumps([self.model, kept])

    def is_model(self, evaluated: dict[str, Any]) -> bool:
        """True when this judge is the model under evaluation (same weights or same served model)."""
        mine = _parse_args(self.model_args)
        return any(mine.get(k) and str(evaluated.get(k)) == mine[k] for k in ("pretrained", "model"))


# Arguments that change how requests are sent, not what the judge answers.
_RUNTIME_ARGS = {"num_concurrent", "max_retries", "timeout", "batch_size", "base_url", "tokenized_requests"}


def judges_from_metadata(metadata: dict[str, Any] | None) -> list[Judge]:
    specs = (metadata or {}).get("judges") or []
    if isinstance(specs, str):
        specs = json.loads(specs)
    return [Judge.from_spec(s) for s in specs]


class VerdictCache:
    """Judge replies keyed by (judge identity, prompt); safe for several processes writing at once (SQLite WAL)."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, timeout=60, isolation_level=None)
        self._enable_wal()
        self._db.execute("CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, judge TEXT, reply TEXT, at REAL)")

    def _enable_wal(self, tries: int = 200) -> None:
        """Switch to WAL, retrying: the switch needs the file to itself and, unlike other statements, does not wait
        on the busy timeout, so it fails at once while another process is creating or switching the same cache."""
        for attempt in range(tries):
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError:
                if attempt == tries - 1:
                    raise
                time.sleep(0.05)

    @staticmethod
    def key(judge: Judge, prompt: str) -> str:
        return hashlib.sha256(f"{judge.identity}\n{prompt}".encode()).hexdigest()

    def get(self, keys: Sequence[str]) -> dict[str, str]:
        found = {}
        for start in range(0, len(keys), 500):
            part = list(keys[start : start + 500])
            marks = ",".join("?" * len(part))
            found.update(self._db.execute(f"SELECT key, reply FROM verdicts WHERE key IN ({marks})", part).fetchall())
        return found

    def put(self, key: str, judge: Judge, reply: str) -> None:
        self._db.execute("INSERT OR IGNORE INTO verdicts VALUES (?, ?, ?, ?)", (key, judge.name, reply, time.time()))

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM verdicts").fetchone()[0]


class _StoreEachReply:
    """lm-eval's cache hook: called by its models as each generation completes. Storing the reply then means a
    failure later in the same batch loses nothing, and nothing already answered is asked again."""

    def __init__(self, cache: VerdictCache, judge: Judge, keys_by_context: dict, replies: dict[str, str]):
        self.cache, self.judge, self.keys, self.replies = cache, judge, keys_by_context, replies

    def add_partial(self, attr: str, req: tuple, res: Any) -> None:
        key = self.keys.get(req[0])
        if attr == "generate_until" and key is not None and res is not None and key not in self.replies:
            self.cache.put(key, self.judge, res)
            self.replies[key] = res


class Jury:
    """Asks every judge about every prompt (cache first) and parses each reply into a verdict."""

    def __init__(
        self,
        judges: Sequence[Judge],
        cache: VerdictCache,
        evaluated: dict[str, Any] | None = None,
        exclude_self: bool = False,
    ):
        self.judges = list(judges)
        self.cache = cache
        self.evaluated = evaluated or {}
        self.exclude_self = exclude_self
        self.calls = 0  # judge requests actually sent (not served from the cache)
        self._models: dict[Judge, Any] = {}

    def _model(self, judge: Judge):
        if judge not in self._models:
            from lm_eval.api.registry import get_model

            extra = {}
            if judge.model in ("hf", "huggingface") and "device" not in _parse_args(judge.model_args):
                import torch  # HFLM's own default is "cuda" whatever the machine: pick what is there

                extra["device"] = "cuda" if torch.cuda.is_available() else "cpu"
            self._models[judge] = get_model(judge.model).create_from_arg_string(judge.model_args, extra)
        return self._models[judge]

    def _ask(self, judge: Judge, items: list[tuple[str, str]], max_tokens: int, replies: dict[str, str]) -> None:
        """Send (cache key, prompt) items to one judge; every reply is stored the moment lm-eval has it."""
        from lm_eval.api.instance import Instance

        lm = self._model(judge)
        gen_kwargs = {"until": [], "max_gen_toks": max_tokens, "do_sample": False, "temperature": 0.0}
        keys_by_context, requests = {}, []
        for i, (key, prompt) in enumerate(items):
            try:
                context = lm.apply_chat_template([{"role": "user", "content": prompt}])
            except (NotImplementedError, ValueError):  # a base model without a chat template
                context = prompt
            keys_by_context[context] = key
            requests.append(Instance("generate_until", {}, (context, gen_kwargs), i))
        lm.set_cache_hook(_StoreEachReply(self.cache, judge, keys_by_context, replies))
        self.calls += len(requests)
        for (key, _), answer in zip(items, lm.generate_until(requests), strict=True):
            if answer is not None and key not in replies:
                self.cache.put(key, judge, answer)
                replies[key] = answer

    def _judge_one(self, judge: Judge, items: list[tuple[str, str]], max_tokens: int) -> dict[str, str]:
        """Replies for uncached items, chunk by chunk; after a failed chunk, its unanswered items one by one."""
        replies: dict[str, str] = {}
        self._model(judge)  # a judge that cannot be built is a configuration error, not a judge failure
        for start in range(0, len(items), _CHUNK):
            chunk = items[start : start + _CHUNK]
            try:
                self._ask(judge, chunk, max_tokens, replies)
            except Exception as err:  # noqa: BLE001 - any judge failure: retry what is still unanswered
                log.warning("judge %s failed on a chunk of %d (%s); retrying one by one", judge.name, len(chunk), err)
                for item in chunk:
                    if item[0] in replies:
                        continue
                    try:
                        self._ask(judge, [item], max_tokens, replies)
                    except Exception as one_err:  # noqa: BLE001
                        log.warning("judge %s failed on an item: %s", judge.name, type(one_err).__name__)
        return replies

    def _skips(self, judge: Judge) -> bool:
        return self.exclude_self and judge.is_model(self.evaluated)

    def judge(
        self, prompts: Sequence[str | None], parse: Callable[[str], float | None], max_tokens: int = 512
    ) -> list[dict[str, dict[str, Any]]]:
        """For each prompt, {judge name: record}: {"verdict", "reply"}, {"verdict": None, "error"} when the judge
        failed, {"skipped"} for the evaluated model under `exclude_self`. A None prompt (nothing to judge) is
        scored 0 unasked. Each distinct prompt is asked once per judge."""
        unique = list(dict.fromkeys(p for p in prompts if p is not None))
        records: dict[str, dict[str, dict[str, Any]]] = {p: {} for p in unique}
        nothing = {}
        sent_before = self.calls
        for judge in self.judges:
            if self._skips(judge):
                for record in [*records.values(), nothing]:
                    record[judge.name] = {"skipped": "judge is the evaluated model", "verdict": None}
                continue
            nothing[judge.name] = {"verdict": 0.0, "reply": None, "note": "no answer given: scored wrong"}
            keys = [VerdictCache.key(judge, p) for p in unique]
            replies = self.cache.get(keys)
            todo = [(k, p) for k, p in zip(keys, unique, strict=True) if k not in replies]
            if todo:
                replies |= self._judge_one(judge, todo, max_tokens)
            for prompt, key in zip(unique, keys, strict=True):
                reply = replies.get(key)
                records[prompt][judge.name] = (
                    {"verdict": None, "error": "judge failed after retries"}
                    if reply is None
                    else {"verdict": parse(reply), "reply": reply}
                )
        sent = self.calls - sent_before
        active = sum(not self._skips(j) for j in self.judges)
        log.info("jury: %d judge requests sent, %d served from the cache", sent, active * len(unique) - sent)
        return [dict(records[p]) if p is not None else dict(nothing) for p in prompts]


_MARKUP = re.compile(r"[*_`#>|]+")
# "correct/incorrect", "(in)correct", "correct or not": the prompt's own wording, never a verdict
_BOTH = re.compile(r"\(in\)correct|\b(?:in)?correct\s*(?:/|\bor\b)\s*(?:in)?correct\b|\bcorrect\s+or\s+not\b", re.I)
# "the correct answer is Karachi", "the right one would be": the judge naming the gold answer, not judging
_NAMING = re.compile(
    r"\b(?:correct|right|true|actual|accurate)\s+(?:answer|response|name|one|entity|rationale)s?\b"
    r"(?=(?:[ \t]+\w+){0,5}?[ \t]*(?:is|was|are|were|would|should|could|:|=)(?!\w))",
    re.I,
)
# "would be correct", "could have been right": hypotheticals
_HYPOTHETICAL = re.compile(
    r"\b(?:would|could|should|might|may)(?:[ \t]+\w+){0,2}?[ \t]+(?:be|been)[ \t]+(?:\w+[ \t]+)?"
    r"(?:in)?(?:correct|right|accurate|wrong)\b",
    re.I,
)
_POLAR = re.compile(
    r"\b(?P<w>incorrect(?:ly)?|inaccurate|wrong|correct(?:ly)?|accurate|(?<=is )right|(?<='s )right|"
    r"(?<=not )right|(?<=n't )right|(?<=quite )right|(?<=be )right|(?<=was )right|^right)\b",
    re.I | re.M,
)
_NEGATION = re.compile(r"(?:\bnot|n[\'\u2019]t|\bnever|\bhardly|\bno)(?:[ \t]+\w+){0,2}?[ \t]*$", re.I)
_VERDICT_LINE = re.compile(
    r"^[ \t:\-.]*(?:(?:final[ \t]+)?(?:judge?ment|verdict|decision|evaluation|answer)"
    r"[ \t]*(?:is)?[ \t]*[:\-\u2013]?[ \t]*)?"
    r"(?P<v>(?:not[ \t]+)?(?:in)?correct|wrong|right)[ \t]*[.!]?[ \t]*$",
    re.I | re.M,
)
_VERDICT_MARK = re.compile(
    r"\b(?:judge?ment|verdict|decision)\b[ \t]*(?:is)?[ \t]*[:\-\u2013]?[ \t]*"
    r"(?P<v>(?:not[ \t]+)?(?:in)?correct|wrong)\b",
    re.I,
)


def _polarity(word: str) -> float:
    word = word.lower()
    negated = word.startswith("not")
    positive = word.split()[-1] in ("correct", "correctly", "right", "accurate")
    return float(positive != negated)


def parse_binary(reply: Any) -> float | None:
    """A judge's binary verdict as a person reads it: 1 correct, 0 incorrect, None when it gives none.

    The last line that is only a verdict ("**Incorrect**", "Judgement: correct") decides; else the last
    "judgement/verdict: ..." mark; else the last judging word in the text, read with its negation ("not quite
    correct", "isn't right"), after dropping the prompt's "correct/incorrect", the naming of the gold answer ("the
    correct answer is Karachi") and hypotheticals ("would be correct")."""
    if not isinstance(reply, str):
        return None
    text = _BOTH.sub(" ", _MARKUP.sub("", reply))
    if lines := list(_VERDICT_LINE.finditer(text)):
        return _polarity(lines[-1]["v"])
    if marks := list(_VERDICT_MARK.finditer(text)):
        return _polarity(marks[-1]["v"])
    text = _HYPOTHETICAL.sub(" ", _NAMING.sub(" ", text))
    words = list(_POLAR.finditer(text))
    if not words:
        return None
    last = words[-1]
    negated = _NEGATION.search(text, max(0, last.start() - 40), last.start()) is not None
    positive = last["w"].lower() in ("correct", "correctly", "right", "accurate")
    return float(positive != negated)


_NUMBER = r"(?P<n>\d+(?:\.\d+)?)"
# "between 1 to 5", "on a scale of 1-5", "(1-5)": the scale, not a score
_SCALE = re.compile(
    r"(?:(?:on[ \t]+)?a[ \t]+scale[ \t]+(?:of|from)[ \t]+|between[ \t]+|from[ \t]+)?"
    r"(?<![\d.])[01][ \t]*(?:to|-|\u2013|and)[ \t]*(?:5|10)(?!\.?\d)",
    re.I,
)
_OUT_OF_FIVE = re.compile(rf"(?<![\d.]){_NUMBER}[ \t]*(?:/|out[ \t]+of)[ \t]*5(?!\.?\d)", re.I)
_SCORE_MARK = re.compile(
    r"\b(?:score|rating|rate|grade|judge?ment|verdict|give|assign|award|go[ \t]+with)\b[^\d\n]{0,25}?"
    + rf"(?<![\d.]){_NUMBER}"
    r"(?![ \t]*(?:/|out[ \t]+of|of)[ \t]*(?:the[ \t]+)?\d)",
    re.I,
)
_BARE_SCORE = re.compile(rf"^[ \t:\-]*{_NUMBER}[ \t]*[.!]?[ \t]*$", re.M)
_COUNTING = re.compile(r"\d+(?:\.\d+)?[ \t]*(?:/|out[ \t]+of|of)[ \t]*(?:the[ \t]+)?\d+", re.I)
_ANY_NUMBER = re.compile(rf"(?<![\d.]){_NUMBER}(?![\d.]*\d)")


def parse_likert(reply: Any) -> float | None:
    """A judge's 1-5 score as a person reads it; None when it gives none or an impossible one ("0/5", "7").

    The last explicit score decides ("Score: 3", "I give it 4", "4/5", "4 out of 5", "Rating: 4.0"), after dropping
    the scale itself ("between 1 to 5", "on a scale of 1-5"); else the last line that is only a number; else the one
    value the text names, when it names exactly one (counts such as "2 of the 3 clues" left out)."""
    if not isinstance(reply, str):
        return None
    text = _SCALE.sub(" ", _MARKUP.sub("", reply))
    found = sorted([*_OUT_OF_FIVE.finditer(text), *_SCORE_MARK.finditer(text)], key=lambda m: m.end())
    if not found:
        found = list(_BARE_SCORE.finditer(text))
    if not found:
        values = {float(m["n"]) for m in _ANY_NUMBER.finditer(_COUNTING.sub(" ", text))}
        return values.pop() if len(values) == 1 and _in_scale(next(iter(values))) else None
    value = float(found[-1]["n"])
    return value if _in_scale(value) else None


def _in_scale(value: float) -> bool:
    return 1 <= value <= 5 and value * 2 == int(value * 2)


def _majority(verdicts: Sequence[float]) -> float:
    """The most common verdict; without a single one, the median (a 5/3/1 split is a 3, not a 1)."""
    import statistics

    modes = statistics.multimode(verdicts)
    return modes[0] if len(modes) == 1 else float(statistics.median(verdicts))


def unit_scores(unit: dict[str, dict[str, Any]], names: Sequence[str], scale: float) -> dict[str, float]:
    """One unit's scores (0-100) under the paper's rule: a failed or unparsed verdict counts 0."""
    verdicts = [unit.get(n, {}).get("verdict") or 0.0 for n in names]
    out = {f"judge_{n}": 100 * v / scale for n, v in zip(names, verdicts, strict=True)}
    if names:
        out["jury_mean"] = 100 * sum(verdicts) / (scale * len(names))
        out["jury_majority"] = 100 * _majority(verdicts) / scale
    return out


def active_judges(units: Sequence[dict[str, dict[str, Any]]]) -> list[str]:
    """The judges that were asked (a judge skipped as the evaluated model is not one of them)."""
    return sorted({n for u in units for n, r in u.items() if "skipped" not in r})


def summarize(
    units: Sequence[dict[str, dict[str, Any]]], scale: float, answered: Sequence[bool] | None = None
) -> dict[str, float]:
    """Scores (0-100) over judged units: per judge, pooled mean, majority; Fleiss' kappa; failure counts.

    A unit is {judge name: record}; a record's "verdict" is None when the judge failed (counted in
    `jury_failures`) or its reply held no verdict (`jury_unparsed`). As in the paper, scores are sums of verdicts
    over judges x units, with such verdicts counted as 0 (Likert verdicts / 5, so a mean of 4 is 80);
    `judge_<name>_valid` and `jury_mean_valid` leave them out instead. A judge with no valid verdict at all is
    NaN. Kappa is over the units the model `answered` (all by default) that every judge scored."""
    import numpy as np

    names = active_judges(units)
    out: dict[str, float] = {}
    per_unit = [unit_scores(u, names, scale) for u in units]
    valid_all: list[float] = []
    for name in names:
        valid = [u[name]["verdict"] for u in units if u.get(name, {}).get("verdict") is not None]
        valid_all += valid
        scored = bool(valid)
        out[f"judge_{name}"] = float(np.mean([s[f"judge_{name}"] for s in per_unit])) if scored else float("nan")
        out[f"judge_{name}_valid"] = 100 * float(np.mean(valid)) / scale if scored else float("nan")
    for metric in ("jury_mean", "jury_majority"):
        out[metric] = float(np.mean([s[metric] for s in per_unit])) if valid_all else float("nan")
    out["jury_mean_valid"] = 100 * float(np.mean(valid_all)) / scale if valid_all else float("nan")
    answered = answered if answered is not None else [True] * len(units)
    kept = [u for u, a in zip(units, answered, strict=True) if a and _complete(u, names)]
    out["jury_kappa"] = fleiss_kappa([[u[n]["verdict"] for n in names] for u in kept])
    records = [u[n] for u in units for n in names if n in u]
    out["jury_failures"] = float(sum("error" in r for r in records))
    out["jury_unparsed"] = float(sum(r.get("verdict") is None and "error" not in r for r in records))
    return out


def _complete(unit: dict[str, dict[str, Any]], names: Sequence[str]) -> bool:
    return all(unit.get(n, {}).get("verdict") is not None for n in names)


def fleiss_kappa(ratings: Sequence[Sequence[float]]) -> float:
    """Fleiss' kappa of units x raters (statsmodels); NaN with fewer than two raters or no units."""
    if not ratings or len(ratings[0]) < 2:
        return float("nan")
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as _fleiss

    table, _ = aggregate_raters(ratings)
    return float(_fleiss(table))


JURY_METRICS = ("jury_mean", "jury_majority", "jury_mean_valid", "jury_kappa", "jury_failures", "jury_unparsed")
JURY_COUNTS = ("jury_failures", "jury_unparsed")
