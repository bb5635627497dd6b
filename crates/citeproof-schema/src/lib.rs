//! schemas
