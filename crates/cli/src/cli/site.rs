//! The commands that build this site: the post and the widget's static fallbacks. Behind the
//! `site` feature, so the wheel's CLI (`--no-default-features`) carries neither them nor the
//! Markdown renderer and the views they need.

use clap::Subcommand;

#[derive(Subcommand)]
pub(super) enum SiteCommand {
    /// Build the post from post/trainer-v2.md: index.html, and the blog's Markdown export.
    Post {
        /// Exit 1 when the committed index.html differs from what the source renders to.
        #[arg(long)]
        check: bool,
        /// Where to write the page (default: index.html).
        #[arg(long, default_value = "index.html")]
        out: std::path::PathBuf,
        /// Also write the Kubeflow blog Markdown export into this folder (as _posts/<date>-<slug>.md),
        /// with its social card as images/<date>-<slug>/social-card.svg.
        #[arg(long)]
        export: Option<std::path::PathBuf>,
    },
    /// Write the static fallback of every persona × framework as <persona>__<framework>.html, for
    /// the embed kits (`make kits`) to include.
    FallbackFiles {
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Regenerate the static (no-JavaScript) fallback inside each mount point of an HTML page.
    Fallback {
        /// The page to read.
        page: std::path::PathBuf,
        /// Write the result here (may be the page itself).
        #[arg(long, conflicts_with = "check")]
        out: Option<std::path::PathBuf>,
        /// Exit 1 when the page's fallback differs from what the core generates.
        #[arg(long)]
        check: bool,
    },
}

pub(super) fn run(command: SiteCommand) -> Result<String, String> {
    match command {
        SiteCommand::Fallback { page, out, check } => fallback(&page, out.as_deref(), check),
        SiteCommand::Post { check, out, export } => post(check, &out, export.as_deref()),
        SiteCommand::FallbackFiles { out } => fallback_files(&out),
    }
}

fn fallback(page: &std::path::Path, out: Option<&std::path::Path>, check: bool) -> Result<String, String> {
    let html = std::fs::read_to_string(page).map_err(|e| format!("{}: {e}", page.display()))?;
    let filled = crate::post::fallback::fill_page(&html)?;
    if check {
        return if filled == html {
            Ok(format!("{}: fallback is up to date", page.display()))
        } else {
            Err(format!("{}: fallback differs from the core's output; run `make fallback`", page.display()))
        };
    }
    match out {
        Some(path) => {
            std::fs::write(path, filled).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(format!("wrote {}", path.display()))
        }
        None => Ok(filled),
    }
}

fn fallback_files(dir: &std::path::Path) -> Result<String, String> {
    use explorer_data::catalog::{Framework, Persona};
    let mut n = 0;
    for persona in Persona::ALL {
        for framework in Framework::ALL {
            let sel = explorer_core::selection::Selection::new(persona, framework);
            let path = dir.join(format!("{}__{}.html", persona.id(), framework.id()));
            write(&path, &crate::post::fallback::fallback_html(&sel))?;
            n += 1;
        }
    }
    Ok(format!("wrote {n} fallbacks into {}", dir.display()))
}

fn read(path: &std::path::Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &std::path::Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn post(check: bool, out: &std::path::Path, export: Option<&std::path::Path>) -> Result<String, String> {
    let source = read(std::path::Path::new(crate::post::SOURCE_PATH))?;
    let template = read(std::path::Path::new(crate::post::TEMPLATE_PATH))?;
    let page = crate::post::render_page(&source, &template).map_err(|e| e.to_string())?;
    if check {
        let committed = read(out)?;
        return if committed == page {
            Ok(format!("{}: up to date with {}", out.display(), crate::post::SOURCE_PATH))
        } else {
            Err(format!("{} differs from what {} renders to; run `make post`", out.display(), crate::post::SOURCE_PATH))
        };
    }
    write(out, &page)?;
    let mut msg = format!("wrote {}", out.display());
    if let Some(dir) = export {
        let (name, markdown) = crate::post::markdown_export(&source).map_err(|e| e.to_string())?;
        let path = dir.join("_posts").join(name);
        write(&path, &markdown)?;
        // The social card, as SVG next to where the front matter's PNG goes (`make kits` draws it).
        let (meta, _) = crate::post::split(&source).map_err(|e| e.to_string())?;
        let card = dir.join(crate::post::social_card_path(&meta)).with_extension("svg");
        write(&card, &crate::post::social_card_svg(&source).map_err(|e| e.to_string())?)?;
        msg.push_str(&format!(", {} and {}", path.display(), card.display()));
    }
    Ok(msg)
}
