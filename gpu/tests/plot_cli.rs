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

/// A report split by app into two files comes back whole: the same best
/// configurations, tables printed, the merged JSON written.
#[test]
fn reports_of_a_run_in_parts_are_merged() {
    use sl1_gpu::results::Report;
    let whole: Report =
        serde_json::from_str(&std::fs::read_to_string(recorded()).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let half = |keep: fn(&str) -> bool, name: &str| {
        let mut r = whole.clone();
        r.measurements.retain(|m| keep(&m.app));
        r.best.retain(|b| keep(&b.app));
        r.hit_rates.retain(|h| keep(&h.app));
        r.launch_failures.retain(|f| keep(&f.app));
        let path = dir.path().join(name);
        std::fs::write(&path, serde_json::to_string(&r).unwrap()).unwrap();
        path
    };
    let a = half(|app| app < "m", "a.json");
    let b = half(|app| app >= "m", "b.json");
    let merged = dir.path().join("merged.json");
    let out = plot()
        .args([&a, &b])
        .arg("--out")
        .arg(dir.path().join("plots"))
        .arg("--merged")
        .arg(&merged)
        .arg("--table")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("best ms") && stdout.contains("wrote "),
        "{stdout}"
    );
    let back: Report = serde_json::from_str(&std::fs::read_to_string(&merged).unwrap()).unwrap();
    let key = |r: &Report| {
        let mut v: Vec<String> = r.best.iter().map(|b| format!("{b:?}")).collect();
        v.sort();
        v
    };
    assert_eq!(key(&back), key(&whole));

    let twice = plot()
        .args([&a, &a])
        .arg("--out")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(twice.status.code(), Some(1));
    let err = String::from_utf8_lossy(&twice.stderr);
    assert!(err.contains("in more than one report"), "{err}");
}
