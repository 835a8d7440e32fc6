"""Speed and accuracy measurements. `python -m benchmarks` runs them all; each module also runs alone."""
