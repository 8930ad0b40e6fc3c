"""The `lm-eval-xling` command line: help with an example everywhere, one flag spelling, one-line errors."""

from __future__ import annotations

import pytest
from support.common import run_cli

from lm_eval_xling.cli import main, parser


def _subcommands(p=None, prefix=()):
    """(words, parser) of every leaf subcommand."""
    p = p or parser()
    actions = [a for a in p._actions if a.__class__.__name__ == "_SubParsersAction"]
    if not actions:
        yield prefix, p
        return
    for name, sub in actions[0].choices.items():
        yield from _subcommands(sub, (*prefix, name))


def test_every_command_has_help_with_an_example():
    commands = dict(_subcommands())
    assert len(commands) == 16, sorted(commands)
    for words, sub in commands.items():
        text = sub.format_help()
        assert "example:\n  lm" in text, words
        assert "--debug" in text, words


def test_flags_take_lm_evals_spelling_and_the_dashed_one():
    underscored = parser().parse_args(["nsp-features", "--batch_size", "3"])
    dashed = parser().parse_args(["nsp-features", "--batch-size", "3"])
    assert underscored.batch_size == dashed.batch_size == 3
    args = parser().parse_args(["consistency", "compare", "a", "b", "--task-a", "x", "--task_b", "y"])
    assert (args.task_a, args.task_b) == ("x", "y")
    help_text = dict(_subcommands())[("nsp-features",)].format_help()
    assert "--batch_size" in help_text and "--batch-size" not in help_text


def test_a_user_error_is_one_line_and_exit_2(tmp_path):
    log = tmp_path / "not-a-log-name.jsonl"
    log.write_text("{}\n", encoding="utf-8")
    proc = run_cli("lm-eval-xling", "score", str(log), check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"score: {log}: cannot tell the task from the file name; pass --task NAME (consistency compare: --task_a)"
    ]
    assert "Traceback" not in proc.stderr


def test_debug_shows_the_traceback(tmp_path):
    missing = tmp_path / "samples_nsp_english_2026-01-01T00-00-00.000000.jsonl"
    with pytest.raises(SystemExit) as plain:
        main(["score", str(missing)])
    assert plain.value.code == 2 and "No such file" in str(plain.value)
    with pytest.raises(FileNotFoundError):
        main(["score", str(missing), "--debug"])


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["run", "--tasks", "nsp_hausa", "--limit", "0"], "run: --limit is 0; give a positive number of documents"),
        (["run", "--tasks", "nsp_hausa", "--limit", "inf"], "run: --limit is inf; give a positive number"),
        (["report", "x", "--iters", "-5"], "lm-eval-xling report: argument --iters: -5 is out of range"),
        (
            ["report", "x", "--iters", "2000000000"],
            "lm-eval-xling report: argument --iters: 2000000000 is out of range",
        ),
        (["nsp-features", "--limit", "0"], "nsp-features: --limit is 0; give a positive number of questions"),
        (["run", "--tasks", "nsp_hausa", "--batch_size", "abc"], "lm-eval-xling run: argument --batch_size"),
        (["run", "--tasks", "nsp_hausa", "--batch_size", "auto:0"], "lm-eval-xling run: argument --batch_size"),
    ],
)
def test_a_limit_or_resample_count_out_of_range_is_refused_in_one_line(argv, named, capsys):
    """lm_eval reads --limit 0 as every document, two billion resamples never end, and lm_eval checks a batch size
    only once the model is loaded: refused before anything runs, in one line."""
    with pytest.raises(SystemExit) as refused:
        main(argv)
    said = capsys.readouterr().err.strip().splitlines()
    assert refused.value.code == 2 and len(said) == 1 and said[0].startswith(named)
