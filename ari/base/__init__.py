"""The basic layer every other package may use: errors, typed configuration, embeddings, the
vector index, progress bars. It imports nothing of ARI's own above it (tests/test_layers.py)."""
