//! Pure functions from the core's values to HTML: syntax highlighting, the explain, migrate and
//! upgrade views, and the page's static fallback. Shared by the widget, the converter module and
//! the post builder.

pub mod explain_view;
pub mod fallback;
pub mod highlight;
pub mod migrate_output;
pub mod migrate_runs;
pub mod migrate_view;
pub mod upgrade_view;
