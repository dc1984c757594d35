//! `trainer-explorer upgrade`: rewrite Trainer V2 manifests for a newer release. Same streams
//! and exit codes as `migrate`: YAML on stdout, the report on stderr, exit 1 when a document
//! was refused or invalid.

use super::read_input;
use crate::releases::Release;
use std::process::ExitCode;

pub fn run(files: &[std::path::PathBuf], from: Release, to: Release, quiet: bool) -> ExitCode {
    let mut outputs = Vec::new();
    let mut failed = false;
    for path in files {
        let label = path.display().to_string();
        let text = match read_input(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("trainer-explorer: {e}");
                failed = true;
                continue;
            }
        };
        match crate::upgrade::upgrade(&text, from, to) {
            Err(e) => {
                eprintln!("trainer-explorer: {label}: {e}");
                failed = true;
            }
            Ok(u) => {
                let failures = u.failures();
                if quiet {
                    for d in &u.docs {
                        if let crate::upgrade::Outcome::Rewritten { name, kind, lossy: true, .. } = &d.outcome {
                            eprintln!("{label}: document {}: {kind} {name} rewritten with losses", d.index);
                        }
                    }
                } else {
                    for line in u.report_text().lines() {
                        eprintln!("{label}: {line}");
                    }
                }
                for f in &failures {
                    eprintln!("trainer-explorer: {label}: {f}");
                }
                failed |= !failures.is_empty();
                outputs.push(u.output_yaml());
            }
        }
    }
    let stdout: Vec<&str> = outputs.iter().map(|s| s.trim_end()).filter(|s| !s.is_empty()).collect();
    if !stdout.is_empty() {
        println!("{}", stdout.join("\n---\n"));
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
