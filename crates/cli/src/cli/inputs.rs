//! The files a command reads: its arguments, with each directory replaced by the manifests under
//! it, as kubeconform takes them. `-` is standard input.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The extensions a directory's manifests have; a file named on the command line is read
/// whatever its name.
const MANIFEST_EXTENSIONS: [&str; 3] = ["yaml", "yml", "json"];

/// Every file to read, in order: each argument that is not a directory as given, and each
/// directory's `.yaml`, `.yml` and `.json` files, recursively, sorted by path. The second list
/// is one message per directory that could not be read (a symlink loop is walked once and then
/// named).
pub(super) fn expand(args: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for arg in args {
        if arg.as_os_str() != "-" && arg.is_dir() {
            let mut seen = HashSet::new();
            walk(arg, &mut seen, &mut files, &mut errors);
        } else {
            files.push(arg.clone());
        }
    }
    (files, errors)
}

fn is_manifest(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| MANIFEST_EXTENSIONS.iter().any(|m| e.eq_ignore_ascii_case(m)))
}

fn walk(dir: &Path, seen: &mut HashSet<PathBuf>, files: &mut Vec<PathBuf>, errors: &mut Vec<String>) {
    // A directory reached twice (a symlink back up the tree) is read once.
    match dir.canonicalize() {
        Ok(real) => {
            if !seen.insert(real) {
                errors.push(format!("{}: a symlink loop: this directory was read already", dir.display()));
                return;
            }
        }
        Err(e) => {
            errors.push(format!("{}: {e}", dir.display()));
            return;
        }
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            errors.push(format!("{}: {e}", dir.display()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(&path, seen, files, errors);
        } else if is_manifest(&path) && path.is_file() {
            files.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_give_their_manifests_recursively_and_sorted() {
        let root = std::env::temp_dir().join(format!("explorer-inputs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("b/c")).unwrap();
        for f in ["b/c/z.yml", "a.yaml", "b/x.json", "b/notes.txt", "B.YAML"] {
            std::fs::write(root.join(f), "").unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(&root, root.join("b/c/loop")).unwrap();
        let (files, errors) = expand(std::slice::from_ref(&root));
        let names: Vec<String> = files.iter().map(|f| f.strip_prefix(&root).unwrap().display().to_string()).collect();
        assert_eq!(names, ["B.YAML", "a.yaml", "b/c/z.yml", "b/x.json"]);
        #[cfg(unix)]
        assert!(errors.len() == 1 && errors[0].contains("symlink loop"), "{errors:?}");
        let _ = std::fs::remove_dir_all(&root);
    }
}
