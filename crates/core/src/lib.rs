//! The pure core of the Trainer V2 Explorer: typed V1 and V2 objects and their YAML (`model`,
//! `yaml`), a reader's selection and its URL query (`selection`, `query`), the panes of a
//! selection (`snippets`, whose text is filled from explorer_data's templates by `template`), what the Trainer controller creates for a TrainJob (`explain`), V1 → V2
//! migration (`migrate`) and V2 release → release upgrades (`upgrade`, `release_changes`), the two
//! front ends of one `pipeline`, whose `input` is the one door every command reads a user's text
//! through; `terminal`, how text from input is printed (escaped) for a terminal and in JSON.
//!
//! No UI, no HTML and no I/O: the widget, the HTML views and the CLI build on it. A caller outside
//! the workspace starts at [`api`]: five documented functions with a typed error.

#[cfg(feature = "migrate")]
pub mod api;
#[cfg(feature = "explain")]
pub mod explain;
pub mod field_error;
pub mod k8s;
#[cfg(feature = "migrate")]
pub mod migrate;
pub mod model;
pub mod order;
#[cfg(feature = "yaml-input")]
pub mod pipeline;
pub mod plain_ml;
pub mod query;
pub mod release_changes;
pub mod selection;
pub mod snippets;
pub mod template;
pub mod terminal;
pub mod text;
#[cfg(feature = "yaml-input")]
pub mod upgrade;
pub mod urlencoded;
pub mod yaml;
