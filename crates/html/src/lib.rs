//! Pure functions from the core's values to HTML: syntax highlighting, the explain, migrate and
//! upgrade views, and the page's static fallback. Shared by the widget, the converter module and
//! the post builder.

#[cfg(feature = "explain")]
pub mod explain_view;
#[cfg(feature = "explain")]
pub mod fallback;
pub mod highlight;
#[cfg(feature = "migrate")]
mod html_stops;
#[cfg(feature = "migrate")]
pub mod migrate_output;
#[cfg(feature = "migrate")]
pub mod migrate_runs;
#[cfg(feature = "migrate")]
pub mod migrate_view;
#[cfg(feature = "upgrade")]
pub mod upgrade_view;
