//! Kubernetes' own value types and names, read and checked as apimachinery does.

#[allow(missing_docs)] // being typed this round (errors, issue 30); docs follow
pub mod field;

pub mod quantity;

pub mod names;
