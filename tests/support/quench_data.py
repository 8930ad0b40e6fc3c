"""A synthetic QUENCH raw source (Data_Store and isIndicAnnotations YAML files), written for these tests."""

from __future__ import annotations

from pathlib import Path


def write_synthetic_quench(root: Path) -> Path:
    """A raw QUENCH source in the real layout: Data_Store/<q>.yml and isIndicAnnotations/<q>.yml (6 questions)."""
    import yaml

    questions = [
        ("Q1", "X is the river that flows through the city of Y.", {"X": "Thames", "Y": "London"}, "No"),
        ("Q2", "X wrote the national anthem of India.", {"X": "Rabindranath Tagore"}, "Yes"),
        ("Q3", "The festival X is celebrated with lamps in India.", {"X": "Diwali"}, "Yes"),
        ("Q4", "X painted the ceiling of the Sistine Chapel.", {"X": "Michelangelo"}, "No"),
        ("Q5", "X is the capital of France and Y its longest river.", {"X": "Paris", "Y": "Loire"}, "No"),
        ("Q6", "X is a dish of rice and lentils from South India.", {"X": "Pongal"}, "Yes"),
    ]
    for name, question, answers, indic in questions:
        record = {
            "metadata": "",
            "question": question,
            "question_source": f"https://example.org/{name}",
            "question_title": name,
            "themes": ["General"],
            "variables": list(answers),
            "variable_to_answer": answers,
            "variable_specific_rationale": {v: f"The clue points to {a}." for v, a in answers.items()},
        }
        for folder, content in (("Data_Store", record), ("isIndicAnnotations", {"id": f"{name}.yml", "indic": indic})):
            path = root / "quench" / folder / f"{name}.yml"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(yaml.safe_dump(content), encoding="utf-8")
    return root


# (language, tokens) of a target paragraph written for these tests; labels cycle same/new/inf by sentence part
