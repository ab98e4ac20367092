//! `sl1-plot`: plots a recorded report, says what it skipped, and explains a
//! missing font or a file that is no report.

use std::path::Path;
use std::process::Command;

fn plot() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sl1-plot"))
}

fn recorded() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/results/2026-11-22-h100-suite8-quick-results.json")
}

#[test]
fn plots_a_recorded_report() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("plots");
    let out = plot()
        .arg(recorded())
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["speedup", "threads", "overhead", "line-size"] {
        for ext in ["svg", "png"] {
            let file = out_dir.join(format!("{name}.{ext}"));
            assert!(
                stdout.contains(&format!("wrote {}", file.display())),
                "{stdout}"
            );
            assert!(std::fs::metadata(&file).unwrap().len() > 0);
        }
    }
    assert!(stdout.contains("skipped hit-rate: "), "{stdout}");
    let svg = std::fs::read_to_string(out_dir.join("speedup.svg")).unwrap();
    for app in ["affinity", "invindex", "upper", "wc"] {
        assert!(svg.contains(app), "speedup.svg lacks {app}");
    }
}

#[test]
fn a_missing_font_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let out = plot()
        .arg(recorded())
        .arg("--out")
        .arg(dir.path())
        .env("SL1_PLOT_FONT", "/nonexistent/font.ttf")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no font") && err.contains("/nonexistent/font.ttf"),
        "{err}"
    );
}

#[test]
fn a_file_that_is_no_report_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"gpu\": 1}").unwrap();
    let out = plot()
        .arg(&bad)
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a sl1-bench report"), "{err}");
}
