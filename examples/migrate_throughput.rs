//! Native migrate throughput, for `make bench`.
//!
//! `migrate_throughput FILE` times one manifest and prints {"bytes", "documents", "seconds"}.
//! `migrate_throughput --once FILE` converts FILE once as the CLI does, untimed, for a profiler;
//! `--view-once FILE` the same as the widget's converter module does; `--view-print FILE…` prints each
//! FILE's answer of the converter module (its JSON), one per line, to compare two builds' output.
//! `migrate_throughput --shapes DIR [NAME…]` writes each worst-case shape (tests/shapes) to DIR/NAME.yaml
//! (only the shapes NAME… when given) and prints one JSON line per shape: {"name", "what", "bytes", "outcome", "cli", "view"}, the
//! best of 3 in seconds (wall clock; `cli_cpu` and `view_cpu` the best CPU times) for what the CLI does (convert, print the YAML and the report) and for
//! what the widget's converter module does (the same, laid out as HTML), and `parse` (`parse_cpu`) for the
//! floor: the same text only parsed into YAML values by the same parser (null for a shape the input door
//! refuses). FILE's line has `parse_seconds` too.

#[path = "../tests/shapes/mod.rs"]
mod shapes;

use explorer_core::migrate::migrate;
use std::time::Instant;

/// The CPU time this thread has used, in seconds (Linux's scheduler statistics; 0 elsewhere).
/// On a shared machine it varies far less than the wall clock.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    stat.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()).unwrap_or(0.0) / 1e9
}

/// The best of `runs` runs of `f`: (wall clock, CPU time) in seconds.
fn best_of(runs: usize, mut f: impl FnMut()) -> (f64, f64) {
    // The best run, so a busy neighbour on the machine does not decide the figure.
    (0..runs)
        .map(|_| {
            let (start, cpu) = (Instant::now(), cpu_seconds());
            f();
            (start.elapsed().as_secs_f64(), cpu_seconds() - cpu)
        })
        .fold((f64::MAX, f64::MAX), |(w, c), (w2, c2)| (w.min(w2), c.min(c2)))
}

/// The floor a converter cannot go below: `text` only parsed into YAML values, document by
/// document, by the parser the converter reads with (yaml_serde), nothing checked or converted.
fn parse_only(text: &str) {
    use serde::Deserialize;
    for doc in serde_yaml::Deserializer::from_str(text) {
        std::hint::black_box(serde_yaml::Value::deserialize(doc).ok());
    }
}

fn one_file(path: &str) {
    let text = std::fs::read_to_string(path).expect("readable manifest");
    let mut docs = 0;
    let (seconds, _) = best_of(5, || {
        let m = migrate(&text).expect("converts");
        assert!(!m.output_yaml().is_empty());
        docs = m.docs.len();
    });
    let (parse, _) = best_of(5, || parse_only(&text));
    println!(
        "{{\"bytes\": {}, \"documents\": {docs}, \"seconds\": {seconds:.4}, \"parse_seconds\": {parse:.4}}}",
        text.len()
    );
}

/// One CLI conversion of FILE (convert, print YAML and report), nothing timed: for a profiler
/// (`valgrind --tool=callgrind`).
fn once(path: &str) {
    let text = std::fs::read_to_string(path).expect("readable manifest");
    if let Ok(m) = migrate(&text) {
        std::hint::black_box((m.output_yaml(), m.report_text()));
    }
}

/// One conversion of FILE as the widget's converter module does it (convert, compare the pods,
/// lay out the HTML), nothing timed: for a profiler.
fn view_once(path: &str) {
    let text = std::fs::read_to_string(path).expect("readable manifest");
    std::hint::black_box(trainer_v2_migrate::migrate(&text, None));
}

/// The converter module's answer for each of `paths`, one line each: what `--view-once` computes.
fn view_print(paths: &[String]) {
    for path in paths {
        let text = std::fs::read_to_string(path).expect("readable manifest");
        println!("{}", trainer_v2_migrate::migrate(&text, None));
    }
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
        let (cli, cli_cpu) = best_of(3, || {
            if let Ok(m) = migrate(&shape.text) {
                std::hint::black_box((m.output_yaml(), m.report_text()));
            }
        });
        let (view, view_cpu) = best_of(3, || {
            std::hint::black_box(trainer_v2_migrate::migrate(&shape.text, None));
        });
        // The floor only for what the input door accepts: the parser alone expands aliases with no
        // budget (alias-fan-out reads as gigabytes).
        let accepted = explorer_core::pipeline::input::documents(&shape.text).is_ok();
        let (parse, parse_cpu) = if accepted { best_of(3, || parse_only(&shape.text)) } else { (f64::NAN, f64::NAN) };
        let (parse, parse_cpu) = (parse.is_finite().then_some(parse), parse_cpu.is_finite().then_some(parse_cpu));
        let line = serde_json::json!({
            "name": shape.name, "what": shape.what, "bytes": shape.text.len(), "outcome": outcome,
            "cli": cli, "view": view, "cli_cpu": cli_cpu, "view_cpu": view_cpu,
            "parse": parse, "parse_cpu": parse_cpu,
        });
        println!("{line}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag, dir, only @ ..] if flag == "--shapes" => shapes(dir, only),
        [flag, path] if flag == "--once" => once(path),
        [flag, path] if flag == "--view-once" => view_once(path),
        [flag, paths @ ..] if flag == "--view-print" => view_print(paths),
        [path] => one_file(path),
        _ => panic!(
            "usage: migrate_throughput FILE | migrate_throughput --once FILE | migrate_throughput --view-once FILE | \
             migrate_throughput --view-print FILE… | \
             migrate_throughput --shapes DIR [NAME…]"
        ),
    }
}
