//! The one place that names a fact about a release: the Trainer release lines with their API
//! differences, shipped runtimes, images and paired SDKs (`releases`), and the personas and
//! frameworks the explorer offers (`catalog`). Every other crate reads them from here.

pub mod catalog;
pub mod releases;
