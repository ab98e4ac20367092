//! The workspace's modules import one way: no circle between modules, and
//! no module imports from its parent (a `mod.rs` or `lib.rs` may import its
//! children, never the reverse). Paths are read from the sources (`use`
//! statements and `crate::`/`super::` paths in code, a file's test module
//! counted as the file's own) and resolved to the longest module they name.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;

const CRATES: [&str; 8] = [
    "pass",
    "driver",
    "gpu",
    "gpu-base",
    "probe",
    "fuzz",
    "corpus",
    "kernelgen",
];

/// `src/a/b.rs` or `src/a/b/mod.rs` -> `crate::a::b`; `None` for binaries.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?.with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.first().map(String::as_str) == Some("bin") {
        return None;
    }
    if parts.last().map(String::as_str) == Some("mod") {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    Some(
        std::iter::once("crate".to_string())
            .chain(parts)
            .collect::<Vec<_>>()
            .join("::"),
    )
}

/// `a::{b, c::{d, e}}` -> `a::b`, `a::c::d`, `a::c::e` (whitespace removed).
fn expand(path: &str) -> Vec<String> {
    let Some(open) = path.find('{') else {
        return vec![path.to_string()];
    };
    let inner = &path[open + 1..path.len() - 1];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(&format!("{}{p}", &path[..open])))
        .collect()
}

/// Where a file's test module starts (`#[cfg(test)]` before `mod`), if it
/// has one: its `super::` is the file's module, not the parent.
fn test_module_start(source: &str) -> Option<usize> {
    source
        .match_indices("#[cfg(test)]")
        .map(|(at, _)| at)
        .find(|&at| {
            source[at + "#[cfg(test)]".len()..]
                .trim_start()
                .starts_with("mod ")
        })
}

/// The `crate::` and `super::` paths a piece of code names.
fn paths_in(source: &str) -> Vec<String> {
    let code: String = source
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut paths = Vec::new();
    for statement in code.split(';') {
        let s = statement.trim_start();
        let s = s.strip_prefix("pub ").unwrap_or(s);
        if let Some(u) = s.strip_prefix("use ") {
            let u: String = u.chars().filter(|c| !c.is_whitespace()).collect();
            paths.extend(expand(&u));
        }
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        for (at, _) in code.match_indices(start) {
            let boundary = at == 0
                || !(bytes[at - 1].is_ascii_alphanumeric()
                    || bytes[at - 1] == b'_'
                    || bytes[at - 1] == b':');
            // `pub(in crate::x)` names a scope, not an import.
            let visibility = code[..at].ends_with("in ");
            if boundary && !visibility {
                let end = code[at..]
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .map_or(code.len(), |e| at + e);
                let path = code[at..end].trim_end_matches(':');
                // `crate::{a, b}`: the `use` statement above expanded it.
                if path.contains("::") {
                    paths.push(path.to_string());
                }
            }
        }
    }
    paths.sort();
    paths.dedup();
    paths
}

/// `super::` and `crate::` paths named in module `scope`, made absolute.
fn absolute(path: &str, scope: &str) -> Option<String> {
    let mut base: Vec<&str> = scope.split("::").collect();
    let mut rest = path;
    while let Some(r) = rest.strip_prefix("super::") {
        base.pop();
        rest = r;
    }
    if rest.len() < path.len() {
        Some(format!("{}::{rest}", base.join("::")))
    } else if path.starts_with("crate") {
        Some(path.to_string())
    } else {
        None
    }
}

/// Module -> the modules it names (resolved to the longest known prefix).
fn graph(crate_dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let src = crate_dir.join("src");
    let mut files = Vec::new();
    common::rust_files(&src, &mut files);
    let sources: BTreeMap<String, String> = files
        .iter()
        .filter_map(|f| Some((module_of(&src, f)?, std::fs::read_to_string(f).unwrap())))
        .collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, source) in &sources {
        let tests = test_module_start(source).unwrap_or(source.len());
        let test_scope = format!("{module}::tests");
        let scoped = [
            (&source[..tests], module.as_str()),
            (&source[tests..], test_scope.as_str()),
        ];
        let named = scoped.iter().flat_map(|(code, scope)| {
            paths_in(code)
                .into_iter()
                .filter_map(move |p| absolute(&p, scope))
        });
        for absolute in named.collect::<Vec<_>>() {
            let parts: Vec<&str> = absolute.split("::").collect();
            let target = (1..=parts.len())
                .rev()
                .map(|n| parts[..n].join("::"))
                .find(|m| sources.contains_key(m));
            if let Some(target) = target.filter(|t| t != module) {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    edges
}

#[test]
fn modules_import_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut problems = Vec::new();
    for name in CRATES {
        let edges = graph(&root.join(name));
        for (module, targets) in &edges {
            for target in targets {
                if module.starts_with(&format!("{target}::")) {
                    problems.push(format!(
                        "{name}: {module} imports from its ancestor {target}"
                    ));
                }
            }
        }
        let mut g = DiGraph::<&str, ()>::new();
        let mut nodes = BTreeMap::new();
        for (module, targets) in &edges {
            for m in std::iter::once(module).chain(targets) {
                nodes
                    .entry(m.as_str())
                    .or_insert_with(|| g.add_node(m.as_str()));
            }
        }
        for (module, targets) in &edges {
            for target in targets {
                g.add_edge(nodes[module.as_str()], nodes[target.as_str()], ());
            }
        }
        for scc in tarjan_scc(&g).into_iter().filter(|c| c.len() > 1) {
            let mut names: Vec<&str> = scc.iter().map(|&n| g[n]).collect();
            names.sort();
            problems.push(format!("{name}: a circle between {}", names.join(", ")));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reader_sees_imports_through_braces_and_parents() {
    assert_eq!(
        expand("super::{a,b::{c,d}}"),
        ["super::a", "super::b::c", "super::b::d"]
    );
    let paths = paths_in("use super::x::Y;\nfn f() { crate::a::b(); }\npub(in crate::t) struct S;");
    assert_eq!(paths, ["crate::a::b", "super::x::Y"]);
    // A test module's `super::` is the file's own module.
    let file = "use super::y;\n#[cfg(test)]\nfn helper() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n}";
    let at = test_module_start(file).unwrap();
    assert!(file[at..].contains("mod tests") && !file[at..].contains("helper"));
    assert_eq!(
        absolute("super::*", "crate::a::tests").as_deref(),
        Some("crate::a::*")
    );
    assert_eq!(
        absolute("super::super::b::C", "crate::a::tests").as_deref(),
        Some("crate::b::C")
    );
    assert_eq!(
        absolute("super::b", "crate::a").as_deref(),
        Some("crate::b")
    );
}
