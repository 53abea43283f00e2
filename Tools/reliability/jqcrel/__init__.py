"""JanitorialQC reliability tools: the crash loop and the concurrent-use run.

Driven by Tools/reliability/run; see RELIABILITY.md for the promises they
check and the latest figures.
"""
