"""Load and engine benchmarks that print their figures (see README.md, "Performance")."""
