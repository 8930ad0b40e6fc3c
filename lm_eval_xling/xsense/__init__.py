"""Multi-sense consistency (Ohmer et al.): PAWS-X and XNLI in en/de/zh, model-internal translation."""
