//! The one place that names a fact about a release: the Trainer release lines with their API
//! differences, shipped runtimes, images and paired SDKs (`releases`), what each release changed
//! in the API and so when each field arrived and left (`api_changes`), and the personas and
//! frameworks the explorer offers (`catalog`), and which Kueue releases queue which release's
//! TrainJobs (`kueue`), and the snippets' text as templates (`templates`). Every other crate reads
//! them from here.

pub mod api_changes;
pub mod catalog;
pub mod kueue;
pub mod releases;
pub mod served;
pub mod templates;
