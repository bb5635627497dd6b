//! A demo agent platform: one complete Level 3 run, one Level 2 run and runs broken in
//! different ways, built with the public signer API and served on loopback.

pub mod site;

pub use site::{DEMO_KID, DemoResponse, DemoRun, DemoSite, build_demo_site};
