"""NSP decision factors: which question features make a model's answers right or wrong.

A model's per-question correctness (`acc` of its NSP sample logs, an invalid answer counting as wrong) is joined on
`id` with the question features of `lm-eval-xling nsp-features`, and a logistic regression of correctness on the
z-scored features is fitted per model and task (so per language and variant: direct, cot, ll), making the
coefficients comparable across factors: each is the change in log-odds of a right answer per standard deviation.

The two delta features are written in option order, as the paper's authors computed them
(`delta_semantic_similarity` = sim_a - sim_b, `delta_perplexity` = ppl_b - ppl_a: positive when option A is closer
in meaning to the context, or less perplexing, than option B). The regression and plots use them so by default
(`deltas="paper"`), which reproduces the paper's analysis. Since their effect on correctness flips with the position
of the right answer, `deltas="toward-correct"` offers them **signed toward the correct option** instead (negated
where the label is B): a positive value then means the correct sentence looks more like the continuation than the
distractor does, which is what the paper's "zone of ambiguity" reasoning is about.

Where the maximum-likelihood fit fails (perfect or quasi-perfect separation, no convergence), the fit falls back to
a lightly L2-regularised logit (a standard-normal prior on each standardised coefficient) and the report says so;
its intervals and p-values are Wald approximations from the penalised Hessian. A factor that is constant, or NaN or
infinite for some questions, is left out of the regression, and its row of the table says which and why.

The report is public: a model named by a local path (lm-eval's folder `__home__me__model`) appears as
`redact.public_name` gives it, in the headings and in the plots' file names alike.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lm_eval_xling.data import jsonl_lines
from lm_eval_xling.errors import UserError
from lm_eval_xling.files import save_figure
from lm_eval_xling.redact import public_name, safe_filename
from lm_eval_xling.results.logs import SamplesError, read_samples, task_name_from_path

FACTORS = (
    "context_length",
    "distractor_distance",
    "distractor_length",
    "delta_semantic_similarity",
    "delta_perplexity",
)
SIGNED = ("delta_semantic_similarity", "delta_perplexity")  # option-order deltas
DELTAS = ("paper", "toward-correct")  # how SIGNED enter the regression: as written (A vs B), or toward the correct
L2_ALPHA = 1.0  # ridge penalty on the standardised coefficients (prior sd 1): light next to hundreds of items
AMBIGUITY_SHARE = 0.2  # the zone of ambiguity: the 20% of questions whose signed delta is closest to 0

_TASK = re.compile(r"^nsp_(?P<language>english|swahili|hausa)(?P<variant>_cot_native|_cot|_ll)?(?:_1k)?$")
COT_VARIANTS = ("cot", "cot_native")
_EFFECT = {
    "context_length": ("longer contexts are easier", "longer contexts are harder"),
    "distractor_distance": ("farther distractors are easier", "farther distractors are harder"),
    "distractor_length": ("longer distractors are easier", "longer distractors are harder"),
    "delta_semantic_similarity": (
        "a correct option closer in meaning to the context than the distractor makes a question easier",
        "a correct option closer in meaning to the context than the distractor makes a question harder",
    ),
    "delta_perplexity": (
        "a correct option less perplexing than the distractor makes a question easier",
        "a correct option less perplexing than the distractor makes a question harder",
    ),
}
_EFFECT_PAPER = {
    "delta_semantic_similarity": (
        "questions whose option A is closer in meaning to the context than option B are easier",
        "questions whose option A is closer in meaning to the context than option B are harder",
    ),
    "delta_perplexity": (
        "questions whose option A is less perplexing than option B are easier",
        "questions whose option A is less perplexing than option B are harder",
    ),
}


class FactorsError(UserError):
    """Inputs that cannot be joined or analysed."""


def effect_in_words(factor: str, coef: float, deltas: str = "paper") -> str:
    """The direction of a factor's effect on correctness, in words."""
    words = _EFFECT_PAPER.get(factor, _EFFECT[factor]) if deltas == "paper" else _EFFECT[factor]
    return words[0 if coef > 0 else 1]


def task_parts(task: str) -> tuple[str, str]:
    """(language, variant) of an NSP task name; variant is direct, cot or ll."""
    match = _TASK.match(task)
    if not match:
        raise FactorsError(
            f"{task!r} is not an NSP task (nsp_<english|swahili|hausa>[_cot|_cot_native][_1k], or [_ll])"
        )
    return match["language"], (match["variant"] or "_direct")[1:]


def read_features(paths: list[Path]) -> dict[str, dict[str, Any]]:
    """Feature rows by question id from `nsp-features` JSONL files; a file that holds an id twice is refused."""
    rows: dict[str, dict[str, Any]] = {}
    for path in paths:
        first_line: dict[str, int] = {}
        for line_no, row in jsonl_lines(path, FactorsError):
            for key in ("id", "label", *FACTORS):
                if key not in row:
                    raise FactorsError(f"{path}:{line_no}: field {key!r} is missing (expected nsp-features rows)")
                if key in FACTORS and not isinstance(row[key], (int, float)):
                    raise FactorsError(f"{path}:{line_no}: field {key!r} is {row[key]!r}; expected a number")
            if row["label"] not in ("A", "B"):
                raise FactorsError(f"{path}:{line_no}: field 'label' is {row['label']!r}; expected 'A' or 'B'")
            row_id = str(row["id"])
            if row_id in first_line:
                raise FactorsError(
                    f"{path}:{line_no}: id {row_id!r} again (first on line {first_line[row_id]}); a features file "
                    "holds each question once: delete it and run nsp-features again"
                )
            first_line[row_id] = line_no
            rows[row_id] = row
    return rows


@dataclass
class Run:
    """One samples file: whether each question (by id) was answered right."""

    path: Path
    model: str
    task: str
    language: str
    variant: str
    correct: dict[str, bool]
    labels: dict[str, str]
    invalid: int


def read_run(path: Path) -> Run:
    """A samples file's correctness by question id; the model is the public name of its folder (lm-eval names the
    folder after the model)."""
    task = task_name_from_path(path)
    if task is None:
        raise FactorsError(f"{path}: not a samples_<task>_<date>.jsonl file name")
    language, variant = task_parts(task)
    correct, labels, invalid = {}, {}, 0
    for doc_id, sample in read_samples(path).items():
        doc = sample["doc"]
        for key in ("id", "label"):
            if key not in doc:
                raise FactorsError(f"{path} doc_id {doc_id}: field doc.{key} is missing")
        if "acc" not in sample:
            raise FactorsError(f"{path} doc_id {doc_id}: field 'acc' is missing (expected an NSP task's metrics)")
        correct[str(doc["id"])] = float(sample["acc"]) == 1.0
        labels[str(doc["id"])] = doc["label"]
        invalid += float(sample.get("invalid", 0.0)) == 1.0
    return Run(path, public_name(path.parent.name), task, language, variant, correct, labels, int(invalid))


@dataclass
class Coefficient:
    coef: float
    ci_low: float
    ci_high: float
    p: float

    @property
    def significant(self) -> bool:
        return self.ci_low > 0 or self.ci_high < 0


@dataclass
class Fit:
    """The logistic regression of one run: coefficients per standardised factor and the most influential one."""

    model: str
    task: str
    language: str
    variant: str
    n: int
    accuracy: float
    invalid: int
    missing_features: int
    deltas: str = "paper"
    method: str = "none"
    notes: list[str] = field(default_factory=list)
    left_out: dict[str, str] = field(default_factory=dict)  # factor -> why it is not in the regression
    intercept: float | None = None
    coefficients: dict[str, Coefficient] = field(default_factory=dict)
    most_influential: dict[str, Any] | None = None
    ambiguity: dict[str, dict[str, float]] = field(default_factory=dict)
    plot: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for name, c in self.coefficients.items():
            out["coefficients"][name]["significant"] = c.significant
        return out


@dataclass
class Confusion:
    """Direct vs chain-of-thought answers of one model on the questions both runs hold."""

    model: str
    language: str
    direct_task: str
    cot_task: str
    both_right: int
    direct_only: int
    cot_only: int
    both_wrong: int
    plot: str | None = None

    @property
    def n(self) -> int:
        return self.both_right + self.direct_only + self.cot_only + self.both_wrong

    @property
    def direct_accuracy(self) -> float:
        return 100 * (self.both_right + self.direct_only) / self.n

    @property
    def cot_accuracy(self) -> float:
        return 100 * (self.both_right + self.cot_only) / self.n

    @property
    def improvement(self) -> float:
        """The paper's Table 2 "% improvement": CoT accuracy minus direct accuracy, in percentage points."""
        return 100 * (self.cot_only - self.direct_only) / self.n


def design(
    run: Run, features: dict[str, dict[str, Any]], deltas: str = "paper"
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(raw factor matrix, deltas as `deltas` says, correctness 0/1, joined ids)."""
    if deltas not in DELTAS:
        raise FactorsError(f"deltas {deltas!r}: expected one of {', '.join(DELTAS)}")
    ids = [i for i in run.correct if i in features]
    rows = []
    for i in ids:
        row = features[i]
        if row["label"] != run.labels[i]:
            raise FactorsError(
                f"{run.path}: question {i} has label {run.labels[i]} but the features say {row['label']}"
            )
        sign = -1.0 if deltas == "toward-correct" and row["label"] == "B" else 1.0
        rows.append([float(row[f]) * (sign if f in SIGNED else 1.0) for f in FACTORS])
    x = np.asarray(rows, dtype=float).reshape(len(ids), len(FACTORS))
    return x, np.asarray([run.correct[i] for i in ids], dtype=float), ids


def fit_logit(x: np.ndarray, y: np.ndarray) -> tuple[str, list[str], np.ndarray, np.ndarray]:
    """(method, notes, params, covariance) of a logit of y on [1, x]; L2-regularised when the MLE fails."""
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import ConvergenceWarning, PerfectSeparationWarning

    exog = sm.add_constant(x, has_constant="add")
    trouble = None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = sm.Logit(y, exog).fit(disp=0, maxiter=200)
        for w in caught:
            if issubclass(w.category, PerfectSeparationWarning):
                trouble = "perfect separation"
            elif issubclass(w.category, ConvergenceWarning) and trouble is None:
                trouble = "no convergence"
        if trouble is None and not result.mle_retvals.get("converged", True):
            trouble = "no convergence"
        if trouble is None:
            cov = np.asarray(result.cov_params())
            if not np.all(np.isfinite(cov)) or np.any(np.abs(result.params) > 30):
                trouble = "quasi-perfect separation"
            else:
                return "logit (maximum likelihood)", [], np.asarray(result.params), cov
    except Exception as err:  # statsmodels < 0.14 raises PerfectSeparationError; a singular Hessian raises too
        trouble = f"{type(err).__name__}: {err}"
    # Ridge through statsmodels' elastic net (L1_wt=0); its objective is loglike/n - alpha/2 |b|^2, so alpha = L2/n.
    n = len(y)
    alpha = np.full(exog.shape[1], L2_ALPHA / n)
    alpha[0] = 0.0  # the intercept is not penalised
    glm = sm.GLM(y, exog, family=sm.families.Binomial())
    params = np.asarray(glm.fit_regularized(method="elastic_net", alpha=alpha, L1_wt=0.0, maxiter=500).params)
    p = 1.0 / (1.0 + np.exp(-exog @ params))
    hessian = exog.T @ (exog * (p * (1 - p))[:, None]) + np.diag(alpha * n)
    cov = np.linalg.pinv(hessian)
    note = f"maximum-likelihood fit failed ({trouble}); fell back to an L2-regularised logit (penalty {L2_ALPHA:g})"
    return f"L2-regularised logit (penalty {L2_ALPHA:g})", [note], params, cov


def _ambiguity(x: np.ndarray, y: np.ndarray) -> dict[str, dict[str, float]]:
    """Error rates inside and outside the zone of ambiguity of each signed delta."""
    out = {}
    for name in SIGNED:
        values = x[:, FACTORS.index(name)]
        finite = np.isfinite(values)
        if not finite.any():
            continue
        values, y = values[finite], y[finite]
        bound = float(np.quantile(np.abs(values), AMBIGUITY_SHARE))
        inside = np.abs(values) <= bound
        out[name] = {
            "bound": bound,
            "n_inside": int(inside.sum()),
            "error_inside": float(1 - y[inside].mean()) if inside.any() else math.nan,
            "error_outside": float(1 - y[~inside].mean()) if (~inside).any() else math.nan,
        }
    return out


def analyse_run(
    run: Run, features: dict[str, dict[str, Any]], deltas: str = "paper"
) -> tuple[Fit, np.ndarray, np.ndarray]:
    """The fit of one run, with its raw factor matrix and correctness for the plots."""
    from scipy.stats import norm

    x, y, ids = design(run, features, deltas)
    fit = Fit(
        run.model,
        run.task,
        run.language,
        run.variant,
        n=len(ids),
        accuracy=float(y.mean()) if len(y) else math.nan,
        invalid=run.invalid,
        missing_features=len(run.correct) - len(ids),
        deltas=deltas,
    )
    if fit.missing_features:
        fit.notes.append(f"{fit.missing_features} of {len(run.correct)} questions have no features row; left out")
    if len(ids) < len(FACTORS) + 2 or y.min() == y.max():
        fit.notes.append("too few questions, or all answers right or all wrong: no regression fitted")
        return fit, x, y
    fit.ambiguity = _ambiguity(x, y)
    kept = []
    for j, name in enumerate(FACTORS):
        nan, inf = int(np.isnan(x[:, j]).sum()), int(np.isinf(x[:, j]).sum())
        if nan or inf:
            counts = " and ".join(f"{k} {what}" for k, what in ((nan, "NaN"), (inf, "infinite")) if k)
            fit.left_out[name] = f"n/a: {counts} values among {len(y)} questions"
        elif x[:, j].std() == 0:
            fit.left_out[name] = "n/a: constant over these questions"
        else:
            kept.append(j)
    if not kept:
        fit.notes.append("no factor varies with finite values over these questions: no regression fitted")
        return fit, x, y
    sd = x[:, kept].std(axis=0)
    z = (x[:, kept] - x[:, kept].mean(axis=0)) / sd
    fit.method, notes, params, cov = fit_logit(z, y)
    fit.notes += notes
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    crit = norm.ppf(0.975)
    fit.intercept = float(params[0])
    for k, j in enumerate(kept, 1):
        p = 2 * norm.sf(abs(params[k]) / se[k]) if se[k] > 0 else math.nan
        fit.coefficients[FACTORS[j]] = Coefficient(
            float(params[k]), float(params[k] - crit * se[k]), float(params[k] + crit * se[k]), float(p)
        )
    significant = {f: c for f, c in fit.coefficients.items() if c.significant}
    pool = significant or fit.coefficients
    name = max(pool, key=lambda f: abs(pool[f].coef))
    coef = pool[name].coef
    fit.most_influential = {
        "factor": name,
        "coef": coef,
        "sign": "positive" if coef > 0 else "negative",
        "significant": bool(significant),
        "effect": effect_in_words(name, coef, deltas),
    }
    return fit, x, y


def confusions(runs: list[Run]) -> list[Confusion]:
    """The 2x2 direct-vs-CoT table for every direct and CoT run of one model and language sharing questions."""
    out = []
    for d in runs:
        for c in runs:
            if d.variant != "direct" or c.variant not in COT_VARIANTS or (d.model, d.language) != (c.model, c.language):
                continue
            shared = [i for i in d.correct if i in c.correct]
            if not shared:
                continue
            cells = [(d.correct[i], c.correct[i]) for i in shared]
            out.append(
                Confusion(
                    d.model,
                    d.language,
                    d.task,
                    c.task,
                    both_right=cells.count((True, True)),
                    direct_only=cells.count((True, False)),
                    cot_only=cells.count((False, True)),
                    both_wrong=cells.count((False, False)),
                )
            )
    return out


def _binned_errors(values: np.ndarray, y: np.ndarray, bins: int = 8) -> tuple[list[float], list[float], list[int]]:
    """(bin centre, error rate, count): one bin per value for few distinct integers, else equal-count bins."""
    distinct = np.unique(values)
    if len(distinct) <= 12:
        groups = [values == v for v in distinct]
    else:
        edges = np.unique(np.quantile(values, np.linspace(0, 1, bins + 1)))
        index = np.clip(np.searchsorted(edges, values, side="right") - 1, 0, len(edges) - 2)
        groups = [index == b for b in range(len(edges) - 1)]
    groups = [g for g in groups if g.any()]
    return (
        [float(values[g].mean()) for g in groups],
        [float(1 - y[g].mean()) for g in groups],
        [int(g.sum()) for g in groups],
    )


def error_plot(fit: Fit, x: np.ndarray, y: np.ndarray, path: Path) -> Path:
    """Error rate against each factor (binned; deltas signed toward the correct option, ambiguity zone shaded)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(16, 3.4), layout="constrained")
    FigureCanvasAgg(figure)
    figure.suptitle(f"{fit.model} / {fit.task}: error rate by factor (n={fit.n})")
    for j, name in enumerate(FACTORS):
        axes = figure.add_subplot(1, len(FACTORS), j + 1)
        finite = np.isfinite(x[:, j])
        if not finite.any():
            axes.text(0.5, 0.5, "n/a: no finite values", ha="center", va="center", transform=axes.transAxes)
            axes.set_xlabel(name, fontsize=8)
            continue
        centres, errors, counts = _binned_errors(x[finite, j], y[finite])
        se = [math.sqrt(max(e * (1 - e), 1e-9) / c) for e, c in zip(errors, counts, strict=True)]
        axes.errorbar(centres, errors, yerr=[1.96 * s for s in se], fmt="o-", capsize=3)
        if name in fit.ambiguity:
            bound = fit.ambiguity[name]["bound"]
            axes.axvspan(-bound, bound, color="orange", alpha=0.25, label="zone of ambiguity")
            axes.legend(fontsize=7)
        label = (
            name + {"paper": " (A vs B)", "toward-correct": " (toward correct)"}[fit.deltas] if name in SIGNED else name
        )
        axes.set_xlabel(label, fontsize=8)
        axes.set_ylim(-0.02, 1.02)
        if j == 0:
            axes.set_ylabel("error rate (95% interval)")
    return save_figure(figure, path, dpi=80)


def confusion_plot(c: Confusion, path: Path) -> Path:
    """The 2x2 direct-vs-CoT table as a heat map."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(4.2, 3.6), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    grid = np.array([[c.both_right, c.direct_only], [c.cot_only, c.both_wrong]])
    axes.imshow(grid, cmap="Blues")
    for (r, k), v in np.ndenumerate(grid):
        axes.text(k, r, str(v), ha="center", va="center", fontsize=12)
    axes.set_xticks([0, 1], ["CoT right", "CoT wrong"])
    axes.set_yticks([0, 1], ["direct right", "direct wrong"])
    axes.set_title(f"{c.model} / {c.language}: direct vs CoT", fontsize=9)
    return save_figure(figure, path, dpi=80)


@dataclass
class Report:
    fits: list[Fit]
    confusions: list[Confusion]

    def as_dict(self) -> dict[str, Any]:
        return {
            "fits": [f.as_dict() for f in self.fits],
            "direct_vs_cot": [
                asdict(c)
                | {"n": c.n, "direct_accuracy": c.direct_accuracy, "cot_accuracy": c.cot_accuracy}
                | {"improvement": c.improvement}
                for c in self.confusions
            ],
        }


def analyse(samples: list[Path], features: list[Path], out: Path | None = None, deltas: str = "paper") -> Report:
    """Fits (and with `out`, plots) for every samples file, and direct-vs-CoT tables where both are given; `deltas`
    is how the delta features enter (DELTAS)."""
    table = read_features(features)
    if not table:
        raise FactorsError(f"{', '.join(map(str, features))}: no feature rows")
    try:
        runs = [read_run(path) for path in samples]
    except SamplesError as err:
        raise FactorsError(str(err)) from err
    fits = []
    for run in runs:
        fit, x, y = analyse_run(run, table, deltas)
        if fit.n == 0:
            raise FactorsError(f"{run.path}: none of its question ids is in the features files")
        if out is not None:
            fit.plot = error_plot(fit, x, y, out / f"errors_{safe_filename(run.model)}_{run.task}.png").name
        fits.append(fit)
    pairs = confusions(runs)
    if out is not None:
        for c in pairs:
            name = f"direct_vs_cot_{safe_filename(c.model)}_{c.direct_task}_{c.cot_task}.png"
            c.plot = confusion_plot(c, out / name).name
    return Report(fits, pairs)


def _num(v: float | None, spec: str = "+.3f") -> str:
    """`v` formatted, or `n/a` where it is missing, NaN or infinite: a table never shows `nan` as a number."""
    return "n/a" if v is None or not math.isfinite(v) else format(v, spec)


def markdown(report: Report) -> str:
    """The report: per run its coefficient table and most influential factor, then the direct-vs-CoT tables."""
    lines = ["# NSP decision factors", ""]
    toward = any(fit.deltas == "toward-correct" for fit in report.fits)
    lines.append(
        "Logistic regression of a right answer on z-scored factors (log-odds per standard deviation); "
        + (
            "delta features are signed toward the correct option (positive: the correct sentence is closer in "
            "meaning to the context / less perplexing than the distractor)."
            if toward
            else "delta features as the paper computed them, option A versus option B (positive: option A is closer "
            "in meaning to the context / less perplexing than option B)."
        )
    )
    for fit in report.fits:
        lines += ["", f"## {fit.model} / {fit.task} ({fit.language}, {fit.variant})", ""]
        lines.append(
            f"questions: {fit.n}; accuracy: {_num(fit.accuracy, '.3f')}; invalid answers: {fit.invalid}; "
            f"fit: {fit.method}"
        )
        for note in fit.notes:
            lines.append(f"\nnote: {note}")
        if fit.coefficients or fit.left_out:
            lines += ["", "| factor | coefficient | 95% CI | p | effect |", "|---|---:|---|---:|---|"]
            for name, c in fit.coefficients.items():
                mark = "" if c.significant else " (not significant)"
                lines.append(
                    f"| {name} | {_num(c.coef)} | {_num(c.ci_low)} to {_num(c.ci_high)} | {_num(c.p, '.3g')} | "
                    f"{effect_in_words(name, c.coef, fit.deltas)}{mark} |"
                )
            for name, why in fit.left_out.items():
                lines.append(f"| {name} | n/a | n/a | n/a | {why}; left out of the regression |")
        if top := fit.most_influential:
            qualifier = "" if top["significant"] else " (not significant: no factor's CI excludes 0)"
            lines += [
                "",
                f"most influential factor: **{top['factor']}** ({top['sign']}, {_num(top['coef'])}): "
                f"{top['effect']}{qualifier}",
            ]
        for name, zone in fit.ambiguity.items():
            lines.append(
                f"\nzone of ambiguity of {name} (|value| <= {_num(zone['bound'], '.3g')}, "
                f"{zone['n_inside']} questions): "
                f"error rate {_num(zone['error_inside'], '.3f')} inside, {_num(zone['error_outside'], '.3f')} outside"
            )
        if fit.plot:
            lines.append(f"\nplot: {fit.plot}")
    for c in report.confusions:
        lines += ["", f"## direct vs CoT: {c.model} / {c.language} ({c.direct_task} vs {c.cot_task})", ""]
        lines += [
            "| | CoT right | CoT wrong |",
            "|---|---:|---:|",
            f"| direct right | {c.both_right} (both right) | {c.direct_only} (direct only) |",
            f"| direct wrong | {c.cot_only} (CoT only) | {c.both_wrong} (both wrong) |",
            "",
            f"questions in both runs: {c.n}; accuracy: direct {c.direct_accuracy:.1f}%, CoT {c.cot_accuracy:.1f}%; "
            f"% improvement (CoT minus direct, as in the paper's Table 2): {c.improvement:+.1f}",
        ]
        if c.plot:
            lines.append(f"\nplot: {c.plot}")
    return "\n".join(lines) + "\n"
