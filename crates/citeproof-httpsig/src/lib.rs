//! citeproof-httpsig (being written)
