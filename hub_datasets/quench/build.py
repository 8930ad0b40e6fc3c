"""Build the QUENCH dataset (lm-eval-xling/quench): one record per quiz question, with its Indic tag.

Raw source: the QUENCH repository's `Data_Store/<name>.yml` (question, masked variables, gold answer and rationale
per variable) and `isIndicAnnotations/<name>.yml` ({id, indic: Yes|No}), joined by file name.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from lm_eval_xling.data import DatasetError, Field, SourceMissing, check_fields, field_errors, raw_text, write_split
from lm_eval_xling.quench.schema import QUENCH

SPEC = QUENCH


_QUESTION_FIELDS = {
    "question": Field(str),
    "variables": Field(list),
    "variable_to_answer": Field(dict),
    "variable_specific_rationale": Field(dict),
}


class _UniqueKeys(yaml.SafeLoader):
    """PyYAML's safe loader, refusing a key written twice in one mapping (PyYAML keeps the later silently)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


def _read(path: Path) -> dict:
    try:
        data = yaml.load(raw_text(path, QUENCH), Loader=_UniqueKeys)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        at = f" line {mark.line + 1} column {mark.column + 1}" if mark else ""
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise DatasetError(f"{QUENCH.hub_id}: {path}{at}: not valid YAML ({problem})") from None
    if not isinstance(data, dict):
        raise DatasetError(f"{QUENCH.hub_id}: {path} is not a YAML mapping")
    return data


def question_record(question_file: Path, indic_file: Path) -> dict:
    """One question, its per-variable answers and rationales (in `variables` order) and its Indic tag."""
    q, tag = _read(question_file), _read(indic_file)
    where = f"{QUENCH.hub_id}: {question_file}"
    check_fields(q, _QUESTION_FIELDS, where)
    variables = q["variables"]
    if bad := [v for v in variables if not isinstance(v, str)]:
        raise DatasetError(f"{where} field 'variables': expected names (strings), got {bad!r:.80}")
    for field in ("variable_to_answer", "variable_specific_rationale"):
        missing = [v for v in variables if not str((q.get(field) or {}).get(v) or "").strip()]
        if missing:
            raise DatasetError(f"{where} field {field!r}: no entry for variable(s) {missing}")
    if tag.get("indic") not in ("Yes", "No"):
        raise DatasetError(
            f"{QUENCH.hub_id}: {indic_file} field 'indic': expected 'Yes' or 'No', got {tag.get('indic')!r}"
        )
    with field_errors(where, "themes"):
        themes = [str(theme) for theme in q.get("themes") or []]
    return {
        "id": question_file.stem,
        "question": " ".join(q["question"].split()),
        "variables": list(variables),
        "answers": [str(q["variable_to_answer"][v]).strip() for v in variables],
        "rationales": [" ".join(str(q["variable_specific_rationale"][v]).split()) for v in variables],
        "themes": themes,
        "title": str(q.get("question_title") or question_file.stem),
        "source": str(q.get("question_source") or ""),
        "indic": tag["indic"] == "Yes",
    }


def build(raw: Path, out: Path) -> dict[str, int]:
    source = raw / "quench"
    if not (source / "Data_Store").is_dir():
        raise SourceMissing(f"QUENCH raw data not found: {source / 'Data_Store'}")
    records = [
        question_record(path, source / "isIndicAnnotations" / path.name)
        for path in sorted((source / "Data_Store").glob("*.yml"))
    ]
    write_split(out, QUENCH, "default", "test", records, source / "Data_Store")
    indic = [r for r in records if r["indic"]]
    return {
        "questions": len(records),
        "entities": sum(len(r["variables"]) for r in records),
        "indic_questions": len(indic),
        "indic_entities": sum(len(r["variables"]) for r in indic),
        "non_indic_questions": len(records) - len(indic),
        "non_indic_entities": sum(len(r["variables"]) for r in records if not r["indic"]),
    }
