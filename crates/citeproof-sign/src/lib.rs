//! Reference signer (filled by the ACA and AEF issues).
