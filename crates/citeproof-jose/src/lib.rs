//! citeproof-jose (being written)
