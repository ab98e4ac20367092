//! The docs stay short enough to read and true to the tree: each page within
//! its line budget, no paragraph longer than a screen, the project speaking
//! of itself (dates and commits, not who worked when), and every relative
//! link landing on a file. Long histories belong in dated files under
//! docs/results/, which a page links in one line.

use std::fs;
use std::path::{Path, PathBuf};

/// Pages with a budget of their own, in lines.
const PAGE_BUDGETS: &[(&str, usize)] = &[
    ("README.md", 120),
    ("docs/benchmarks.md", 300),
    ("docs/how-it-works.md", 400),
    ("docs/reliability.md", 250),
    ("docs/corpus.md", 250),
];

/// Any other page of docs/.
const DEFAULT_PAGE_BUDGET: usize = 400;

/// Lines of one paragraph: about a screen.
const PARAGRAPH_BUDGET: usize = 20;

/// Words about who worked when; the docs name dates and commits instead.
const WORK_WORDS: &[&str] = &["session", "sessions", "sitting", "sittings"];

/// Files (relative to the repository) that may hold those words, each for a
/// reason: quoted tool output, a tool's name. None today.
const WORK_WORDS_ALLOWED_IN: &[&str] = &[];

/// Lines the README must keep verbatim (trimmed): the two commands a fresh
/// Debian 12 machine runs, and the raw clang line that `common::readme_clang`
/// and `common::cudart_static_link` build in the tests.
const README_KEEPS: &[&str] = &[
    "ci/demo      # main job: builds testdata/cu/upper.cu with S-L1 into out/upper and prints its report",
    "ci/test      # all tests: fmt, clippy -D warnings, unit, FileCheck, snapshot and CLI tests",
    "clang++-22 -x cuda app.cu --cuda-gpu-arch=sm_90 -O3 \\",
    "--cuda-path=.toolchain/cuda -Wno-unknown-cuda-version --no-offload-new-driver \\",
    "-fpass-plugin=target/release/libsl1_pass.so \\",
    "-L.toolchain/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -o app",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// README.md and the pages directly in docs/, as paths relative to the repository.
fn pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    let mut docs: Vec<String> = fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// Every text file under docs/ (results included) and README.md; binary
/// files (plots, gzipped results) are not read as text and are skipped.
fn text_files() -> Vec<(String, String)> {
    let mut files = vec!["README.md".to_string()];
    collect_files(&repo(), Path::new("docs"), &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|rel| {
            let text = fs::read_to_string(repo().join(&rel)).ok()?;
            Some((rel, text))
        })
        .collect()
}

fn collect_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in fs::read_dir(root.join(dir)).unwrap() {
        let entry = entry.unwrap();
        let rel = dir.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            collect_files(root, &rel, out);
        } else {
            out.push(rel.to_string_lossy().into_owned());
        }
    }
}

fn read(page: &str) -> String {
    fs::read_to_string(repo().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"))
}

fn budget_of(page: &str) -> usize {
    PAGE_BUDGETS
        .iter()
        .find(|(name, _)| *name == page)
        .map_or(DEFAULT_PAGE_BUDGET, |(_, budget)| *budget)
}

/// Lines outside fenced code blocks, with their 1-based numbers; the fences
/// themselves are left out too.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut in_fence = false;
    let mut prose = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence {
            prose.push((index + 1, line));
        }
    }
    prose
}

/// Paragraphs as (first line, length): runs of non-blank prose lines. Table
/// rows end a paragraph and do not count: a table is read by its rows.
fn paragraphs(text: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut current: Option<(usize, usize)> = None;
    let mut previous = 0;
    for (number, line) in prose_lines(text) {
        let counts = !line.trim().is_empty() && !line.trim_start().starts_with('|');
        // A fenced block between two lines also ends the paragraph.
        if !counts || number != previous + 1 {
            found.extend(current.take());
        }
        if counts {
            current.get_or_insert((number, 0)).1 += 1;
        }
        previous = number;
    }
    found.extend(current);
    found
}

/// The targets of `](target)` links that stay in the repository, without
/// their `#anchor`, with the line each is on.
fn relative_links(text: &str) -> Vec<(usize, String)> {
    let mut links = Vec::new();
    for (number, line) in prose_lines(text) {
        for piece in line.split("](").skip(1) {
            let Some(end) = piece.find(')') else { continue };
            let target = piece[..end].split('#').next().unwrap().trim();
            let external = target.contains("://") || target.starts_with("mailto:");
            if !target.is_empty() && !external {
                links.push((number, target.to_string()));
            }
        }
    }
    links
}

/// Lines (1-based) that hold one of `words` as a whole word, any case.
fn lines_with_words(text: &str, words: &[&str]) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            line.split(|c: char| !c.is_alphanumeric())
                .any(|word| words.iter().any(|w| word.eq_ignore_ascii_case(w)))
        })
        .map(|(index, _)| index + 1)
        .collect()
}

#[test]
fn pages_stay_within_their_line_budgets() {
    let over: Vec<String> = pages()
        .iter()
        .filter_map(|page| {
            let (lines, budget) = (read(page).lines().count(), budget_of(page));
            (lines > budget).then(|| format!("{page}: {lines} lines, budget {budget}"))
        })
        .collect();
    assert!(
        over.is_empty(),
        "pages over their budget (move history to a dated file under docs/results/ and link it):\n{}",
        over.join("\n")
    );
}

#[test]
fn no_paragraph_is_longer_than_a_screen() {
    let mut long = Vec::new();
    for page in pages() {
        for (first, length) in paragraphs(&read(&page)) {
            if length > PARAGRAPH_BUDGET {
                long.push(format!(
                    "{page}:{first}: a paragraph of {length} lines, budget {PARAGRAPH_BUDGET}"
                ));
            }
        }
    }
    assert!(
        long.is_empty(),
        "paragraphs too long (split them with a blank line):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_docs_speak_of_dates_and_commits_not_of_who_worked_when() {
    let mut found = Vec::new();
    for (file, text) in text_files() {
        if WORK_WORDS_ALLOWED_IN.contains(&file.as_str()) {
            continue;
        }
        for line in lines_with_words(&text, WORK_WORDS) {
            found.push(format!("{file}:{line}"));
        }
    }
    assert!(
        found.is_empty(),
        "{WORK_WORDS:?} in the docs (name the date or the commit instead):\n{}",
        found.join("\n")
    );
}

#[test]
fn relative_links_lead_to_files() {
    let mut broken = Vec::new();
    for page in pages() {
        let base = repo().join(&page).parent().unwrap().to_path_buf();
        for (line, target) in relative_links(&read(&page)) {
            if !base.join(&target).exists() {
                broken.push(format!("{page}:{line}: {target}"));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_readme_keeps_the_lines_machines_and_tests_rely_on() {
    let readme = read("README.md");
    let missing: Vec<&&str> = README_KEEPS
        .iter()
        .filter(|kept| !readme.lines().any(|line| line.trim() == **kept))
        .collect();
    assert!(
        missing.is_empty(),
        "README.md lost lines it must keep verbatim: {missing:?}"
    );
}

#[test]
fn the_rules_see_what_they_are_meant_to() {
    let text =
        "a\nb\n\n```\nc\n\nd\n```\n| t |\n| u |\ne\nsee [x](docs/x.md#y) and [w](https://w)\n";
    assert_eq!(paragraphs(text), vec![(1, 2), (11, 2)]);
    assert_eq!(relative_links(text), vec![(12, "docs/x.md".to_string())]);
    assert_eq!(
        lines_with_words("a Session.\nsessionless\n", WORK_WORDS),
        vec![1]
    );
}
