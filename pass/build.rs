//! Builds the C++ half of the clang plugin: it registers the module pass with the
//! PassBuilder and declares the `-mllvm -sl1-*` options, then calls back into Rust.

use std::process::Command;

/// The LLVM the features pick: (major version, llvm-sys's prefix variable).
fn llvm() -> (u32, &'static str) {
    if std::env::var_os("CARGO_FEATURE_LLVM19").is_some() {
        (19, "LLVM_SYS_191_PREFIX")
    } else {
        (22, "LLVM_SYS_221_PREFIX")
    }
}

fn llvm_config(arg: &str) -> String {
    let (major, variable) = llvm();
    let prefix = std::env::var(variable).unwrap_or_else(|_| format!("/usr/lib/llvm-{major}"));
    let tool = format!("{prefix}/bin/llvm-config");
    let out = Command::new(&tool).arg(arg).output().unwrap_or_else(|e| {
        panic!("cannot run {tool}: {e}; run ci/setup to install llvm-{major}-dev")
    });
    assert!(out.status.success(), "{tool} {arg} failed");
    String::from_utf8(out.stdout).expect("llvm-config output is UTF-8")
}

fn main() {
    println!("cargo:rerun-if-changed=src/plugin/register.cpp");
    println!("cargo:rerun-if-changed=src/llvm/kernel_backup.cpp");
    println!("cargo:rerun-if-changed=src/llvm/compat.cpp");
    println!("cargo:rerun-if-changed=src/llvm/ctors.cpp");
    println!("cargo:rerun-if-changed=src/llvm/merge_blocks.cpp");
    println!("cargo:rerun-if-changed=src/llvm/miscompiles.cpp");
    println!("cargo:rerun-if-changed=src/llvm/options.cpp");
    println!("cargo:rerun-if-changed=src/llvm/peel.cpp");
    println!("cargo:rerun-if-changed=src/llvm/unswitch.cpp");
    println!("cargo:rerun-if-env-changed={}", llvm().1);
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .file("src/plugin/register.cpp")
        .file("src/llvm/kernel_backup.cpp")
        .file("src/llvm/compat.cpp")
        .file("src/llvm/ctors.cpp")
        .file("src/llvm/merge_blocks.cpp")
        .file("src/llvm/miscompiles.cpp")
        .file("src/llvm/options.cpp")
        .file("src/llvm/peel.cpp")
        .file("src/llvm/unswitch.cpp");
    for flag in llvm_config("--cxxflags").split_whitespace() {
        // llvm-config's flags carry the optimisation level of LLVM's own build.
        if !flag.starts_with("-O") && !flag.starts_with("-g") {
            build.flag(flag);
        }
    }
    build.flag_if_supported("-Wno-unused-parameter");
    build.compile("sl1_plugin_register");
}
