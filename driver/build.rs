//! Records where this build's artifacts go, so that an `sl1-driver` copied
//! out of the build tree (`cargo install --path driver` copies it into
//! ~/.cargo/bin) still finds the plugin its build made: cargo builds the
//! `sl1-pass` cdylib, a dependency, into `<profile dir>/deps/libsl1_pass.so`.

use std::path::{Path, PathBuf};

fn main() {
    // OUT_DIR is <profile dir>/build/sl1-driver-<hash>/out.
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let profile_dir = out_dir
        .ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .unwrap_or(out_dir);
    println!(
        "cargo:rustc-env=SL1_BUILD_PROFILE_DIR={}",
        profile_dir.display()
    );
    println!("cargo:rerun-if-changed=build.rs");
}
