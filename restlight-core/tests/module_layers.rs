//! The modules of restlight-core form layers: no top-level module reaches,
//! through `crate::` paths in code (not `$crate::` paths of `macro_rules!`
//! bodies, which name the expanding crate), a module that reaches it back. A cycle
//! fails this test with the modules that form it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The names `lib.rs` re-exports at the crate root, with their module:
/// `crate::HttpError` names the `error` module.
fn root_exports(src: &Path) -> BTreeMap<String, String> {
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    let mut names = BTreeMap::new();
    for item in lib.split(';') {
        let Some(rest) = item.trim().strip_prefix("pub use ") else { continue };
        let Some((module, list)) = rest.split_once("::") else { continue };
        for name in list.trim_matches(|c| c == '{' || c == '}').split(',') {
            names.insert(name.trim().to_owned(), module.trim().to_owned());
        }
    }
    names
}

/// Top-level module → the top-level modules its code names.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let exports = root_exports(&src);
    let mut graph = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&src).unwrap();
            let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
            let module = first.trim_end_matches(".rs").to_owned();
            if module == "lib" {
                continue;
            }
            let deps: &mut BTreeSet<String> = graph.entry(module.clone()).or_default();
            for line in fs::read_to_string(&path).unwrap().lines() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for (at, _) in line.match_indices("crate::") {
                    // `$crate::` in a `macro_rules!` body is resolved where
                    // the macro expands (a user's crate), not in this module.
                    if line[..at].ends_with('$') {
                        continue;
                    }
                    let name: String =
                        line[at + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    let name = exports.get(&name).cloned().unwrap_or(name);
                    if !name.is_empty() && name != module {
                        deps.insert(name);
                    }
                }
            }
        }
    }
    graph
}

/// A cycle through `start`, if there is one.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        node: &str,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in graph.get(node).into_iter().flatten() {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, next, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_owned()];
    let mut seen = BTreeSet::new();
    walk(graph, start, start, &mut path, &mut seen).then_some(path)
}

#[test]
fn the_modules_of_restlight_core_have_no_cycles() {
    let graph = graph();
    assert!(graph.contains_key("app") && graph.contains_key("router"), "modules found: {:?}", graph.keys());
    let cycles: Vec<String> =
        graph.keys().filter_map(|m| cycle_from(&graph, m)).map(|c| format!("{} -> {}", c.join(" -> "), c[0])).collect();
    assert!(cycles.is_empty(), "module cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_request_path_does_not_call_back_into_the_application() {
    let graph = graph();
    let above_app: Vec<&String> = graph
        .iter()
        .filter(|(m, deps)| *m != "__private" && *m != "test" && deps.contains("app"))
        .map(|(m, _)| m)
        .collect();
    assert!(above_app.is_empty(), "modules below `app` that name it: {above_app:?}");
}
