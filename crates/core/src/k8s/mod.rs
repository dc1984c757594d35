//! Kubernetes' own value types, read as apimachinery reads them.

pub mod quantity;
