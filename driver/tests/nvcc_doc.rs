//! docs/nvcc.md holds the nvcc flags table `sl1-nvcc --help` prints
//! (`sl1_driver::nvcc_flags`). `SL1_UPDATE_DOCS=1` writes the table into
//! the page.

mod common;

const BEGIN: &str = "<!-- nvcc flags table: made by sl1_driver::nvcc_flags::markdown_table -->\n";
const END: &str = "<!-- end of nvcc flags table -->";

#[test]
fn the_nvcc_page_holds_the_flags_table() {
    common::assert_page_holds(
        "docs/nvcc.md",
        (BEGIN, END),
        &sl1_driver::nvcc_flags::markdown_table(),
        "nvcc_doc",
    );
}

#[test]
fn help_prints_the_table_and_builds_nothing() {
    for flag in ["--help", "-h"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sl1-nvcc"))
            .arg(flag)
            .output()
            .unwrap();
        assert!(out.status.success(), "{flag}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Usage: sl1-nvcc"), "{text}");
        for f in sl1_driver::nvcc_flags::FLAGS {
            assert!(text.contains(f.spelling), "{flag}: no {}", f.spelling);
        }
    }
}
