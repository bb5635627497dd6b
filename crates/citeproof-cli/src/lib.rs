//! Library side of the `citeproof` binary: the demo agent platform (`citeproof demo serve`),
//! kept here so integration tests can serve it on loopback without spawning the binary.

pub mod demo;
