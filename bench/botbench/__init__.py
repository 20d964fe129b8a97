"""Bot strength benchmarks: one module per game (``run(quick, seed)``), shared tools in common."""
