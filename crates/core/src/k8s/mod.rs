//! Kubernetes' own value types and names, read and checked as apimachinery does.

pub mod field;

pub mod quantity;

pub mod names;
