"""fixlab results pipelines."""
