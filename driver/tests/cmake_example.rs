//! The S-L1 CMake package (`cmake/`): examples/cmake configures with clang as
//! the CUDA compiler, builds, and its report shows the kernel transformed with
//! the options sl1-driver gives; what the package cannot work with fails with
//! a message that says what to do. CMake is required (ci/setup installs it).

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

#[test]
fn the_example_builds_with_its_kernel_transformed_as_the_driver_would() {
    let dir = tempfile::tempdir().unwrap();
    let cuda = cuda_for_cmake(dir.path());
    let build = dir.path().join("build");
    let example = repo().join("examples/cmake");
    run_ok(
        cmake_configure(&example, &build, &cuda)
            .arg(format!("-DSL1_DIR={}", repo().join("cmake").display()))
            .arg(format!("-DSL1_PLUGIN={}", plugin().display())),
    );
    let built = cmake_build(&build);
    assert!(
        built
            .stdout
            .contains(&format!("-fpass-plugin={}", plugin().display())),
        "{}",
        built.stdout
    );
    // Building is the check: there is no GPU to run it on.
    let exe = build.join("caesar");
    assert_eq!(&std::fs::read(&exe).unwrap()[..4], b"\x7fELF");
    // Linked with the S-L1 runtime, the launches routed through it: a
    // launch from another file gets its lines as in sl1-driver's builds.
    assert!(
        built.stdout.contains("--wrap=cudaLaunchKernelExC"),
        "{}",
        built.stdout
    );
    let symbols = run_ok(std::process::Command::new("nm").arg(&exe)).stdout;
    for defined in ["sl1_register_launch_sizer", "__wrap_cudaLaunchKernel"] {
        assert!(
            symbols
                .lines()
                .any(|l| l.ends_with(&format!(" {defined}")) && !l.contains(" U ")),
            "{defined} not in {}",
            exe.display()
        );
    }

    let report_path = build.join("sl1/caesar/caesar.cu.json");
    let report = read_report(&report_path);
    assert!(report.transformed, "{report_path:?}");
    let kernel = report
        .kernels
        .iter()
        .find(|k| k.name == "_Z6caesarPKhPhmmi")
        .unwrap_or_else(|| panic!("no kernel caesar in {report_path:?}"));
    assert!(kernel.transform.applied, "{:?}", kernel.transform.reasons);
    assert!(
        kernel.transform.launch_bytes.is_some(),
        "line buffers sized at launch by default"
    );

    // The same source built by sl1-driver into an object gives the same
    // report: sl1_target passes the driver's options.
    let driver_report = dir.path().join("driver.json");
    run_ok(
        driver()
            .args(["build", "examples/cmake/caesar.cu", "-c", "-o"])
            .arg(dir.path().join("caesar.o"))
            .arg("--report")
            .arg(&driver_report),
    );
    let json = |path: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    assert_eq!(json(&report_path), json(&driver_report));
}

/// A project of no language that finds the package and, with CALL set, calls
/// sl1_target on a custom target.
const PROBE_PROJECT: &str = r#"cmake_minimum_required(VERSION 3.18)
project(probe LANGUAGES NONE)
find_package(SL1 ${WANT} REQUIRED)
message(STATUS "SL1 ${SL1_VERSION} with ${SL1_PLUGIN} for LLVM ${SL1_LLVM_VERSION_MAJOR}")
add_custom_target(probe)
if(CALL)
  sl1_target(probe)
endif()
"#;

fn probe(dir: &Path, args: &[String]) -> Outcome {
    let source = dir.join("probe");
    std::fs::create_dir_all(&source).unwrap();
    std::fs::write(source.join("CMakeLists.txt"), PROBE_PROJECT).unwrap();
    let build = dir.join(format!("probe-build-{}", args.len()));
    let _ = std::fs::remove_dir_all(&build);
    run(Command::new(cmake())
        .arg("-S")
        .arg(&source)
        .arg("-B")
        .arg(&build)
        .arg(format!("-DSL1_DIR={}", repo().join("cmake").display()))
        .args(args)
        .env_remove("SL1_PLUGIN"))
}

/// `text` with every run of white space one space (CMake wraps its messages).
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_missing_plugin_a_compiler_that_is_not_clang_and_a_newer_version_fail_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let with_plugin = format!("-DSL1_PLUGIN={}", plugin().display());

    let found = probe(dir.path(), std::slice::from_ref(&with_plugin));
    assert_eq!(found.code, Some(0), "{}{}", found.stdout, found.stderr);
    assert!(
        found.stdout.contains(&format!(
            "SL1 {} with {}",
            env!("CARGO_PKG_VERSION"),
            plugin().display()
        )),
        "{}",
        found.stdout
    );

    let missing = probe(dir.path(), &["-DSL1_PLUGIN=/nowhere/libsl1_pass.so".into()]);
    assert_ne!(missing.code, Some(0));
    let text = words(&missing.stderr);
    assert!(
        text.contains("the S-L1 clang plugin libsl1_pass.so is missing")
            && text.contains("cargo build --release -p sl1-pass"),
        "{}",
        missing.stderr
    );

    let not_clang = probe(dir.path(), &[with_plugin.clone(), "-DCALL=1".into()]);
    assert_ne!(not_clang.code, Some(0));
    let text = words(&not_clang.stderr);
    assert!(
        text.contains("the CUDA compiler must be clang 22")
            && text.contains("-DCMAKE_CUDA_COMPILER=clang++-22"),
        "{}",
        not_clang.stderr
    );

    // A plugin named for LLVM 19 is taken as one (the major was fixed at
    // 22, and sl1_target then refused clang 19 with it).
    let nineteen = dir.path().join("libsl1_pass-19.so");
    std::fs::copy(plugin(), &nineteen).unwrap();
    let named = probe(
        dir.path(),
        &[format!("-DSL1_PLUGIN={}", nineteen.display())],
    );
    assert_eq!(named.code, Some(0), "{}{}", named.stdout, named.stderr);
    assert!(named.stdout.contains("for LLVM 19"), "{}", named.stdout);

    let newer = probe(dir.path(), &[with_plugin, "-DWANT=0.99".into()]);
    assert_ne!(newer.code, Some(0));
    assert!(
        words(&newer.stderr).contains("compatible with requested version \"0.99\""),
        "{}",
        newer.stderr
    );
}

#[test]
fn the_package_version_and_llvm_match_the_workspace() {
    let version = std::fs::read_to_string(repo().join("cmake/SL1ConfigVersion.cmake")).unwrap();
    assert!(
        version.contains(&format!(
            "set(PACKAGE_VERSION \"{}\")",
            env!("CARGO_PKG_VERSION")
        )),
        "cmake/SL1ConfigVersion.cmake's PACKAGE_VERSION is not the workspace's {}",
        env!("CARGO_PKG_VERSION")
    );
    let config = std::fs::read_to_string(repo().join("cmake/SL1Config.cmake")).unwrap();
    let major = config
        .lines()
        .find_map(|l| l.trim().strip_prefix("set(SL1_LLVM_VERSION_MAJOR "))
        .and_then(|rest| rest.strip_suffix(')'))
        .expect("SL1_LLVM_VERSION_MAJOR in cmake/SL1Config.cmake");
    assert_eq!(
        major,
        sl1_pass::LLVM_MAJOR.to_string(),
        "the default plugin's LLVM (sl1-pass's default feature) is not the package's"
    );
}
