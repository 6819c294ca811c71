# Benchmark runners (bench-runner/): filled in by the runner work.
.PHONY: bench
