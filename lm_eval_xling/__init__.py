"""lm-eval-xling: cross-lingual evaluation protocols as lm-evaluation-harness tasks."""

__version__ = "0.1.0"
