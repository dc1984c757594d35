//! Native migrate throughput, for `make bench`.
//!
//! `migrate_throughput FILE` times one manifest and prints {"bytes", "documents", "seconds"}.
//! `migrate_throughput --shapes DIR [NAME…]` writes each worst-case shape (tests/shapes) to DIR/NAME.yaml
//! (only the shapes NAME… when given) and prints one JSON line per shape: {"name", "what", "bytes", "outcome", "cli", "view"}, the
//! best of 3 in seconds for what the CLI does (convert, print the YAML and the report) and for
//! what the widget's converter module does (the same, laid out as HTML).

#[path = "../tests/shapes/mod.rs"]
mod shapes;

use std::time::Instant;
use trainer_v2_explorer::migrate::{migrate, view};

fn best_of(runs: usize, mut f: impl FnMut()) -> f64 {
    // The best run, so a busy neighbour on the machine does not decide the figure.
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn one_file(path: &str) {
    let text = std::fs::read_to_string(path).expect("readable manifest");
    let mut docs = 0;
    let seconds = best_of(5, || {
        let m = migrate(&text).expect("converts");
        assert!(!m.output_yaml().is_empty());
        docs = m.docs.len();
    });
    println!("{{\"bytes\": {}, \"documents\": {docs}, \"seconds\": {seconds:.4}}}", text.len());
}

fn shapes(dir: &str, only: &[String]) {
    std::fs::create_dir_all(dir).expect("a writable directory");
    for shape in shapes::all().into_iter().filter(|s| only.is_empty() || only.iter().any(|n| n == s.name)) {
        std::fs::write(format!("{dir}/{}.yaml", shape.name), &shape.text).expect("written");
        let outcome = match migrate(&shape.text) {
            Ok(m) if m.all_converted() => format!("converted ({} documents)", m.docs.len()),
            Ok(m) => format!("{} of {} documents not converted", m.failures().len(), m.docs.len()),
            Err(e) => format!("refused: {e}"),
        };
        let cli = best_of(3, || {
            if let Ok(m) = migrate(&shape.text) {
                std::hint::black_box((m.output_yaml(), m.report_text()));
            }
        });
        let view = best_of(3, || {
            std::hint::black_box(view::rendered_json(&shape.text));
        });
        let line = serde_json::json!({
            "name": shape.name, "what": shape.what, "bytes": shape.text.len(), "outcome": outcome,
            "cli": cli, "view": view,
        });
        println!("{line}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag, dir, only @ ..] if flag == "--shapes" => shapes(dir, only),
        [path] => one_file(path),
        _ => panic!("usage: migrate_throughput FILE | migrate_throughput --shapes DIR [NAME…]"),
    }
}
