//! Every `unsafe` line of the pass is in `pass/src/llvm/`: the crate root
//! denies `unsafe_code`, that one module alone allows it, and no other
//! source file says `unsafe` or imports llvm-sys's C API directly.

mod common;

use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_crate_denies_unsafe_code_and_only_llvm_allows_it() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    assert!(
        lib.contains("#![deny(unsafe_code)]"),
        "lib.rs must deny unsafe_code"
    );
    let allowed: Vec<&str> = lib
        .lines()
        .zip(lib.lines().skip(1))
        .filter(|(attr, _)| attr.contains("allow(unsafe_code)"))
        .map(|(_, item)| item.trim())
        .collect();
    assert_eq!(
        allowed,
        ["pub mod llvm;"],
        "only the llvm module may allow unsafe code"
    );
}

#[test]
fn no_file_outside_llvm_says_unsafe_or_calls_the_c_api() {
    let llvm = src().join("llvm");
    let mut files = Vec::new();
    common::rust_files(&src(), &mut files);
    let mut found = Vec::new();
    for file in files.iter().filter(|f| !f.starts_with(&llvm)) {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let direct_api = ["llvm_sys::core", "llvm_sys::target", "llvm_sys::transforms"]
                .iter()
                .any(|api| code.contains(api));
            let keyword = code
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|word| word == "unsafe");
            if keyword || direct_api {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "unsafe code or llvm-sys C API calls outside pass/src/llvm/ (add a safe function there):\n{}",
        found.join("\n")
    );
}

/// Mentions of llvm-sys (its raw handles, `LLVM...Ref`, and the crate's
/// name) in each folder outside `pass/src/llvm/`, at most: code that builds
/// IR through raw handles is moving to typed values (`llvm::ir`), folder by
/// folder; a budget only goes down.
const RAW_HANDLE_BUDGETS: &[(&str, usize)] = &[
    ("analysis", 0),
    ("launch", 0),
    ("plugin", 0),
    ("ptxas_bugs", 0),
    ("runtime", 0),
    ("transform", 84),
    ("tuning", 0),
];

fn raw_mentions(text: &str) -> usize {
    let mut count = text.matches("llvm_sys").count();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        if word.len() > 7 && word.starts_with("LLVM") && word.ends_with("Ref") {
            count += 1;
        }
    }
    count
}

#[test]
fn raw_llvm_handles_outside_llvm_stay_within_their_budgets() {
    let mut over = Vec::new();
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(src()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() && name != "llvm" {
            folders.push(name.clone());
            let mut files = Vec::new();
            common::rust_files(&path, &mut files);
            let count: usize = files
                .iter()
                .map(|f| raw_mentions(&std::fs::read_to_string(f).unwrap()))
                .sum();
            let budget = RAW_HANDLE_BUDGETS.iter().find(|(n, _)| *n == name);
            match budget {
                Some(&(_, budget)) if count <= budget => {}
                _ => over.push(format!("{name}: {count} (budget {budget:?})")),
            }
        }
    }
    assert!(
        over.is_empty(),
        "raw llvm-sys handles outside pass/src/llvm/ over budget (use llvm::ir's typed values, \
         or add a safe function there):\n{}",
        over.join("\n")
    );
    folders.sort();
    let listed: Vec<&str> = RAW_HANDLE_BUDGETS.iter().map(|(n, _)| *n).collect();
    assert_eq!(folders, listed, "every folder has a budget");
    // The counter counts what it should.
    assert_eq!(
        raw_mentions("use inkwell::llvm_sys::prelude::LLVMValueRef;"),
        2
    );
    assert_eq!(raw_mentions("let LLVMRef = 1; // LLVMOpcode"), 0);
}
