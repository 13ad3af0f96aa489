"""ARI: temporal KG question answering by acting on the KG, guided by induced methodologies.

The public library API lives here so scripts need not go through the CLI.
"""

__version__ = "0.1.0"
