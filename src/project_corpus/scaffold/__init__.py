"""`init` and `new`: conformant corpora and artifacts from the shipped templates."""
