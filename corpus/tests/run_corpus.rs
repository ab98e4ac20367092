//! `sl1-corpus run` off the GPU: stand-in executables (shell scripts) in
//! place of two programs' builds, one whose S-L1 build fails its own check.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

fn script(path: &Path, body: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn entry(name: &str) -> serde_json::Value {
    let build = |mode: &str| {
        serde_json::json!({"mode": mode, "built": true, "executable": null, "error": null,
                           "transformed": [], "seconds": 1.0})
    };
    serde_json::json!({
        "program": name,
        "make": {"program": "main", "sources": ["main.cu"], "flags": [], "libs": [],
                 "unsupported": [], "run_args": ["7"]},
        "sl1": build("Sl1"),
        "no_sl1": build("NoSl1"),
    })
}

#[test]
fn runs_both_builds_and_reports_what_s_l1_got_wrong() {
    let root = tempfile::tempdir().unwrap();
    let checkout = root.path().join("hecbench");
    let out = root.path().join("out");
    for name in ["good-cuda", "bad-cuda"] {
        std::fs::create_dir_all(checkout.join("src").join(name)).unwrap();
    }
    // The program runs in its own directory, with its run target's arguments.
    let good = "test \"$1\" = 7 && test -d ../good-cuda && echo 'kernel time: 2 (ms)' && echo PASS";
    script(&out.join("no-sl1/good-cuda/main"), good);
    script(
        &out.join("sl1/good-cuda/main"),
        &good.replace("2 (ms)", "1 (ms)"),
    );
    script(&out.join("no-sl1/bad-cuda/main"), "echo PASS");
    script(&out.join("sl1/bad-cuda/main"), "echo FAIL; exit 1");
    std::fs::write(
        out.join("corpus.json"),
        serde_json::json!({"programs": [entry("bad-cuda"), entry("good-cuda")]}).to_string(),
    )
    .unwrap();

    let run = Command::new(env!("CARGO_BIN_EXE_sl1-corpus"))
        .args(["run", "--each", "20", "--hecbench"])
        .arg(&checkout)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains(
            "programs run 2 (0 with the same executable both ways, run once), PASS with and \
             without S-L1 1, wrong with S-L1 1, slower than 0.97x 0"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("WRONG bad-cuda: Fail with S-L1, Pass without"),
        "{stdout}"
    );
    assert!(
        stdout.contains("geometric mean 0.500 over the 1 programs whose executables differ"),
        "{stdout}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("corpus.json")).unwrap()).unwrap();
    assert_eq!(json["programs"][1]["runs"]["sl1"]["kernel_ms"], 1.0);
    assert_eq!(json["programs"][0]["runs"]["sl1"]["verdict"], "Fail");
}
