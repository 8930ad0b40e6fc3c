# Hooks for the NSP YAMLs; the code lives in the package (this file is loaded by path, see lm_eval_xling.nsp).
from lm_eval_xling.nsp import (  # noqa: F401
    cot_prompt,
    direct_prompt,
    extract_answers,
    load,
    process_results,
)
