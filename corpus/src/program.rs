//! The programs of a corpus checkout: `src/<name>-cuda/` with a Makefile.

use std::path::{Path, PathBuf};

use crate::makefile::{self, MakeInfo};

/// One program of the corpus.
#[derive(Clone, Debug)]
pub struct Program {
    /// The directory's name (`vadd-cuda`).
    pub name: String,
    pub dir: PathBuf,
    /// What its Makefile says, or why it could not be read.
    pub make: Result<MakeInfo, String>,
}

/// Every `src/*-cuda` directory of `root` with a Makefile, by name.
pub fn discover(root: &Path) -> std::io::Result<Vec<Program>> {
    let src = root.join("src");
    let mut programs = Vec::new();
    for entry in std::fs::read_dir(&src)? {
        let dir = entry?.path();
        let Some(name) = dir.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if !name.ends_with("-cuda") || !dir.join("Makefile").is_file() {
            continue;
        }
        programs.push(read(name, &dir));
    }
    programs.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(programs)
}

fn read(name: &str, dir: &Path) -> Program {
    let files: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let make = std::fs::read_to_string(dir.join("Makefile"))
        .map_err(|e| format!("Makefile: {e}"))
        .and_then(|text| makefile::parse(&text, &files).map_err(|e| format!("Makefile: {e}")));
    Program {
        name: name.to_string(),
        dir: dir.to_path_buf(),
        make,
    }
}
