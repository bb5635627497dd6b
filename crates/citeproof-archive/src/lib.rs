//! Archive citations, the coverage gate and display filtering (profile ARCHIVE-*).

pub mod ops;
