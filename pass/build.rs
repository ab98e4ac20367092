//! Builds the C++ half of the clang plugin: it registers the module pass with the
//! PassBuilder and declares the `-mllvm -sl1-*` options, then calls back into Rust.

use std::process::Command;

fn llvm_config(arg: &str) -> String {
    let prefix = std::env::var("LLVM_SYS_221_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let tool = format!("{prefix}/bin/llvm-config");
    let out = Command::new(&tool)
        .arg(arg)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {tool}: {e}; run ci/setup to install llvm-22-dev"));
    assert!(out.status.success(), "{tool} {arg} failed");
    String::from_utf8(out.stdout).expect("llvm-config output is UTF-8")
}

fn main() {
    println!("cargo:rerun-if-changed=src/plugin/register.cpp");
    println!("cargo:rerun-if-changed=src/kernel_backup.cpp");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_221_PREFIX");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .file("src/plugin/register.cpp")
        .file("src/kernel_backup.cpp");
    for flag in llvm_config("--cxxflags").split_whitespace() {
        // llvm-config's flags carry the optimisation level of LLVM's own build.
        if !flag.starts_with("-O") && !flag.starts_with("-g") {
            build.flag(flag);
        }
    }
    build.flag_if_supported("-Wno-unused-parameter");
    build.compile("sl1_plugin_register");
}
