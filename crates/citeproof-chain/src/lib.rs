//! Citation-chain envelopes (profile CHAIN-*): content-addressed claim ids, signed envelopes,
//! canonical URLs, and answers that reference claims by id.

pub mod ops;
