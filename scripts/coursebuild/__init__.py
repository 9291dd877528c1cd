"""Build machinery of the course site (MkDocs hooks' helpers), importable as ``coursebuild``."""
