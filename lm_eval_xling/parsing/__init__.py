"""Answer extraction from free-form model output."""
