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

/// Mentions of llvm-sys: its raw handles (`LLVM...Ref`) and the crate's
/// name.
fn raw_mentions(text: &str) -> usize {
    // The handles' types, and the calls that take a handle out of a typed
    // value (inkwell's or `llvm::ir`'s) or make one of it.
    let unwrapping = [
        "llvm_sys",
        ".as_value_ref()",
        ".as_type_ref()",
        ".as_mut_ptr()",
        ".as_raw()",
        ".as_raw_block()",
        "from_raw(",
    ];
    let mut count: usize = unwrapping.iter().map(|u| text.matches(u).count()).sum();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        if word.len() > 7 && word.starts_with("LLVM") && word.ends_with("Ref") {
            count += 1;
        }
    }
    count
}

/// IR is read and built through `llvm::ir`'s typed values (`llvm::typed`,
/// `llvm::cfg`): no raw llvm-sys handle outside `pass/src/llvm/`, named or
/// taken out of a typed value.
#[test]
fn no_raw_llvm_handles_outside_llvm() {
    let mut files = Vec::new();
    common::rust_files(&src(), &mut files);
    let llvm = src().join("llvm");
    let found: Vec<String> = files
        .iter()
        .filter(|f| !f.starts_with(&llvm))
        .filter_map(|f| {
            let n = raw_mentions(&std::fs::read_to_string(f).unwrap());
            (n > 0).then(|| format!("{}: {n}", f.display()))
        })
        .collect();
    assert!(
        files.len() > 50 && files.iter().any(|f| f.starts_with(&llvm)),
        "the walk reaches the sources ({} files)",
        files.len()
    );
    assert!(
        found.is_empty(),
        "raw llvm-sys handles outside pass/src/llvm/ (use llvm::ir's typed values, or add a \
         safe function there):\n{}",
        found.join("\n")
    );
    // The counter counts what it should.
    assert_eq!(
        raw_mentions("use inkwell::llvm_sys::prelude::LLVMValueRef;"),
        2
    );
    assert_eq!(raw_mentions("let LLVMRef = 1; // LLVMOpcode"), 0);
    assert_eq!(
        raw_mentions("edit::freeze_after(v.as_raw()); Value::from_raw(i.as_value_ref())"),
        3
    );
}
