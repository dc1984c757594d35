//! Kubernetes' own value types and names, read and checked as apimachinery does.

pub mod quantity;

pub mod names;
