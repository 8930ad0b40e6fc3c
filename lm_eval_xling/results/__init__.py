"""lm-eval's outputs: sample logs and results files, re-scoring them, and reading their metrics."""
