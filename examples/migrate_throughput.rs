//! Native migrate throughput on a 1 MB manifest, for `make bench`.
//! Prints one JSON line: {"bytes": N, "documents": N, "seconds": F}.

use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: migrate_throughput FILE");
    let text = std::fs::read_to_string(&path).expect("readable manifest");
    // Best of 5, so a busy neighbour on the machine does not decide the figure.
    let mut best = f64::MAX;
    let mut docs = 0;
    for _ in 0..5 {
        let start = Instant::now();
        let m = trainer_v2_explorer::migrate::migrate(&text).expect("converts");
        let yaml = m.output_yaml();
        best = best.min(start.elapsed().as_secs_f64());
        docs = m.docs.len();
        assert!(!yaml.is_empty());
    }
    println!("{{\"bytes\": {}, \"documents\": {docs}, \"seconds\": {best:.4}}}", text.len());
}
