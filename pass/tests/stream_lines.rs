//! Kernels whose sliced loops only stream (every cached structure only
//! read or only written, each byte it passes once, all by one stride, in
//! counted line runs) let a launch pick lines up to 128 B; the stages of
//! their read streams stay within one 128 B line. Other kernels keep the
//! default's sizes (`testdata/ll/stream_lines.ll`).

mod common;

use sl1_pass::Options;

/// The largest line a launch of `kernel` may pick (the largest copy of its
/// loop), and the report's stream line size.
fn largest_line(kernel: &str, options: &Options) -> (u32, Option<u32>) {
    let t = common::transform_case("stream_lines", options);
    let report = t.kernel(kernel);
    assert!(report.applied, "{kernel}: {:?}", report.reasons);
    let text = t.text(kernel);
    let largest = [8, 16, 32, 64, 128]
        .into_iter()
        .filter(|size| text.contains(&format!(".sl1.cached{size}:")))
        .max()
        .unwrap_or_else(|| panic!("{kernel}: no cached copy: {text}"));
    (largest, report.stream_lines)
}

#[test]
fn streams_take_lines_up_to_128_bytes() {
    let options = Options::default();
    assert_eq!(largest_line("copy", &options), (128, Some(128)));
    // Two 4-byte reads and two 4-byte writes side by side each iteration.
    assert_eq!(largest_line("pairs", &options), (128, Some(128)));
}

#[test]
fn four_read_streams_stage_within_one_128_byte_line() {
    // Four stages of 32 B: no longer than the default's lines.
    assert_eq!(largest_line("four_reads", &Options::default()), (32, None));
    let fewer_bytes = Options {
        max_line_size: 16,
        ..Options::default()
    };
    assert_eq!(largest_line("four_reads", &fewer_bytes), (32, Some(32)));
}

#[test]
fn a_structure_read_and_written_or_strides_that_differ_keep_the_default() {
    let options = Options::default();
    assert_eq!(largest_line("rmw", &options), (32, None));
    assert_eq!(largest_line("widen", &options), (32, None));
}

#[test]
fn the_stream_limit_is_an_option() {
    let limited = Options {
        stream_max_line_size: 64,
        ..Options::default()
    };
    assert_eq!(largest_line("copy", &limited), (64, Some(64)));
    let off = Options {
        stream_max_line_size: 32,
        ..Options::default()
    };
    assert_eq!(largest_line("copy", &off), (32, None));
}
