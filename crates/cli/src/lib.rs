//! `trainer-explorer`, the command line of the same core the widget uses (`cli`), and the post
//! builder that renders `post/trainer-v2.md` into `index.html` and the blog export (`post`).

pub mod cli;
#[cfg(feature = "site")]
pub mod post;
