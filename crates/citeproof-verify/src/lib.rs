//! Reference verifier (filled by the ACA and AEF issues).
