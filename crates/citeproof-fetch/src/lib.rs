//! citeproof-fetch (being written)
